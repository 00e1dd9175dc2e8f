// SPDX-License-Identifier: GPL-2.0-or-later
// What the engine concluded about one packet. Stored per frame on the first
// pass; later passes and the statistics only read it.
#pragma once
#include <cstdint>

#include "epan-ext/decode/aeth.h"
#include "epan-ext/common/limits.h"
#include "epan-ext/decode/opcode.h"
#include "epan-ext/decode/packet.h"
#include "epan-ext/analysis/pfc_analyzer.h"
#include "epan-ext/analysis/qos_verdict.h"

namespace roceshark {

enum class SeqClass : uint8_t {
  none,             // not a request
  in_order,
  gap,              // PSNs missing at this point before this one
  retransmission,   // PSN seen already, or behind the highest, cause unknown
  gbn_resend,       // after a PSN-sequence-error NAK: go-back-N
  timeout_retransmission,
  rnr_retry,        // after an RNR NAK and its timer
  duplicate,        // the same packet recorded twice (mirror artefact)
  out_of_order,     // a skipped PSN arriving late, first copy here: reordering, not loss
  selective_resend, // after a PSN-sequence-error NAK, in a QP that resends only what was NAKed
  read_retry,       // a READ re-issued at a PSN its earlier READ's responses used
};

const char* seq_class_name(SeqClass c);
inline bool is_retransmission(SeqClass c) {
  return c == SeqClass::retransmission || c == SeqClass::gbn_resend || c == SeqClass::timeout_retransmission ||
         c == SeqClass::rnr_retry || c == SeqClass::selective_resend || c == SeqClass::read_retry;
}

struct Verdict;
// What proves a loss: a sequence NAK or a resend. Not a gap alone (the
// late original may still come: reordering), not an RNR retry (the receiver
// catching up), not what a NAK caused by reordering set off.
bool is_loss_sign(const Verdict& v);

inline constexpr uint32_t kNoFrame = 0;
inline constexpr uint32_t kNoId = UINT32_MAX;

// A receiver's NIC sends a CNP for the first ECN-CE packet of a QP as it
// receives it (later ones may be rate-limited), in a class at least as
// fast as the ACKs'. A response that acknowledges that packet and comes
// this long after it, with no CNP for the QP before, shows the notification
// point off (Verdict::cnp_missing): the slack covers the NIC's CNP
// generation (a microsecond or two) and an ACK sent the moment the packet
// arrived.
inline constexpr uint64_t kCnpDeadlineNs = 5'000;

// The packet's own values later passes and the statistics need. The GUI
// re-dissects without building the InfiniBand fields (packet list, retap),
// so they are kept rather than read again.
struct PacketSummary {
  uint32_t psn = 0;
  uint32_t payload_len = 0;
  uint8_t opcode = 0;
  uint8_t syndrome = 0;
  uint8_t ecn = 0;
  uint8_t dscp = 0;
  uint8_t ttl = 0;  // IPv4 TTL, IPv6 or GRH hop limit
  int8_t pcp = -1;  // VLAN PCP, -1 untagged
  uint16_t vlan_id = 0;  // of that tag, 0 untagged
  IcrcState icrc = IcrcState::unchecked;
  bool ack_req : 1 = false;
  bool fecn : 1 = false;
  bool becn : 1 = false;
  bool has_aeth : 1 = false;

  static PacketSummary of(const PacketInfo& p) {
    PacketSummary s;
    s.psn = p.psn, s.payload_len = p.payload_len, s.opcode = p.opcode, s.syndrome = p.syndrome, s.ecn = p.ecn;
    s.dscp = p.dscp, s.ttl = p.ttl, s.pcp = p.pcp, s.vlan_id = p.vlan_id;
    s.icrc = p.icrc, s.ack_req = p.ack_req, s.fecn = p.fecn, s.becn = p.becn, s.has_aeth = p.has_aeth;
    return s;
  }
  bool operator==(const PacketSummary&) const = default;
};

struct Verdict {
  uint32_t frame = 0;
  uint32_t flow = kNoId;      // directed flow (src, dst, dest QP)
  uint32_t row_flow = kNoId;  // request flow this packet is accounted to
  uint32_t stream = kNoId;    // connection index, like tcp.stream
  uint32_t point = 0;

  Role role = Role::other;
  SeqClass seq = SeqClass::none;
  NakCode nak = NakCode::none;
  LimitKind beyond = LimitKind::none;  // past a limit: not analysed (first_unchecked: the first such frame)
  // One stored per RoCE frame: bits, not bytes.
  bool has_expected : 1 = false;
  bool duplicate_ack : 1 = false;
  bool qp_reuse : 1 = false;         // PSN jump or CM exchange: a new connection on this QP
  bool first_unchecked : 1 = false;  // first packet of its flow and point whose ICRC was not captured
  bool truncated : 1 = false;        // too short for its BTH: not analysed
  bool has_hop : 1 = false;          // seen at another point before: a hop verdict is stored
  bool merged_points : 1 = false;    // first sign that this point records its flow at two places
  bool ambiguous : 1 = false;        // a copy (mirror or resend?) or a late packet (reordered or resent?) nothing tells
  bool reorder_nak : 1 = false;      // NAK: its PSN had arrived here out of order; resend: such a NAK's run
  bool cnp_missing : 1 = false;      // response: acknowledges its QP's first CE-marked request, no CNP before
  bool run_start : 1 = false;        // retransmission: the first of a recovery run (docs/analysis.md)
  bool clock_back : 1 = false;       // stamped before an earlier frame of its point (point_clock.h)
  bool pair_ambiguous : 1 = false;   // response: its PSN fits the requests of two or more unpaired QPs; credited to none

  uint32_t expected_psn = 0;
  uint32_t gap = 0;                    // gap: PSNs missing; out-of-order: PSNs it arrived behind the highest
  uint32_t original_frame = kNoFrame;  // first copy of this PSN at this point
  uint32_t nak_frame = kNoFrame;       // the NAK that started a go-back-N or RNR run
  uint32_t request_frame = kNoFrame;   // newest request this response is first to cover
  uint32_t covered = 0;                // requests with AckReq this response covers
  uint64_t rtt_ns = 0;                 // to request_frame
  uint64_t quiet_ns = 0;               // silence before a timeout retransmission
  uint32_t rtt_first = 0;              // where a StoredAnalysis keeps this response's RTT samples
  PacketSummary pkt;
  qos::QosVerdict qos;
  pfc::PacketPfc pfc;

  bool untracked() const { return beyond != LimitKind::none; }
  bool operator==(const Verdict&) const = default;
};

}  // namespace roceshark
