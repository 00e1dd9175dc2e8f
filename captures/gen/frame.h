// SPDX-License-Identifier: GPL-2.0-or-later
// What the simulation hands to the output for every frame a point records:
// the bytes as captured plus what the generator meant by them.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

#include "captures/gen/units.h"

namespace roceshark::gen {

// besteffort: a packet of a `besteffort` flow, TCP cross traffic.
enum class FrameKind : uint8_t { req, ack, nak, cnp, cm, readresp, pfc, lldp, icmp, besteffort };

constexpr bool is_roce(FrameKind k) {
  return k != FrameKind::pfc && k != FrameKind::lldp && k != FrameKind::icmp && k != FrameKind::besteffort;
}

struct PfcDirective;
struct LldpDirective;
struct Mtu;

// Why a requester sent a packet; `none` for everything that is not a request.
// selective: the lone resend of a selective-repeat requester after a
// sequence-error NAK; read_retry: a READ re-issued from its first missing
// response after a hole in the responses.
enum class Cause : uint8_t { none, original, gbn, timeout, rnr, selective, read_retry };

inline constexpr size_t kNoMessage = static_cast<size_t>(-1);

struct FrameInfo {
  FrameKind kind = FrameKind::req;
  size_t qp = 0;          // scenario QP: one connection, even when a QPN is reused
  int req_side = 0;       // whose PSN space the BTH PSN belongs to
  size_t src_host = 0, dst_host = 0;
  uint32_t dest_qpn = 0;
  uint32_t psn = 0;
  uint8_t opcode = 0;
  bool ackreq = false;
  uint32_t psn_span = 1;  // PSNs the request consumes: the response count of a READ
  uint8_t syndrome = 0;   // AETH, for ACK/NAK
  uint16_t cm_attr = 0;   // MAD attribute ID, for CM
  Cause cause = Cause::none;
  size_t message = kNoMessage;  // scenario message, for requests
  // Link-local frames (kind pfc / lldp): the directive that sends them.
  const PfcDirective* pfc = nullptr;
  const LldpDirective* lldp = nullptr;
  // ICMP too-big (kind icmp): the `mtu` directive whose router sends it, the
  // router's name; the other fields are the dropped packet's.
  const Mtu* mtu = nullptr;
  std::string_view router;
};

struct Frame {
  size_t point = 0;
  Ns time = 0;  // simulated time; the file adds the scenario epoch
  std::span<const uint8_t> data;  // captured bytes
  uint32_t wire_len = 0;
  const FrameInfo* info = nullptr;
  bool mirror = false;      // the second copy a SPAN port records
  bool ce = false;          // ECN is CE in this copy
  bool icrc_bad = false;    // corrupted upstream: the ICRC no longer matches
  std::string_view lost_before;  // the node before which this transmission is lost, if it is
  bool paused = false;      // waited at this point in a busy period a PFC pause began
  uint64_t pause_id = 0;    // ... the XOFF that opened that pause: the PFC frame with this ctrl_id
  uint64_t ctrl_id = 0;     // a PFC frame's own id (1, 2, ...), for pause_id
  // For matching copies across points: the transmission (1, 2, ... in the
  // order hosts send; a resend is a new one, a mirror copy keeps it; 0 for
  // link-local frames), whether it is lost on the segment after this
  // point, before the next point, and how long it waited in a `queue` burst here.
  uint64_t packet_id = 0;
  bool lost_after = false;
  Ns queued = 0;
};

class FrameSink {
 public:
  virtual ~FrameSink() = default;
  virtual void frame(const Frame& f) = 0;
};

}  // namespace roceshark::gen
