// SPDX-License-Identifier: GPL-2.0-or-later
// QP flow identity and pairing.
//
// A flow is one direction of an RC connection: (source IP, destination IP,
// BTH destination QP). It carries the requests its source sends and the
// responses its source returns for the other direction's requests. The two
// directions are paired by a CM exchange when the capture holds one, else by
// PSN consistency: an ACK's PSN falls in the PSN range of the requests it
// answers, and of no other unpaired flow's between the same hosts (two QPs
// with the same PSN ranges are told apart by nothing else: such a response
// is paired with neither, docs/analysis.md). A connection (both flows) gets
// one stream index, like tcp.stream.
#pragma once
#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "epan-ext/decode/address.h"
#include "epan-ext/analysis/request_sequence.h"
#include "epan-ext/analysis/verdict.h"

namespace roceshark {

struct FlowKey {
  Address src, dst;
  uint32_t qp = 0;
  bool operator==(const FlowKey&) const = default;
};

struct FlowKeyHash {
  size_t operator()(const FlowKey& k) const { return hash_address(k.dst, hash_address(k.src)) ^ (k.qp * 0x9E3779B97F4A7C15ull); }
};

struct Flow {
  FlowKey key;
  uint32_t stream = kNoId;
  uint32_t paired = kNoId;  // the reverse flow
  bool requests_seen = false;
  bool responses_seen = false;     // ACK/NAK/READ responses or CNPs
  bool psn_responses_seen = false; // responses that carry a PSN (not CNPs): last_response_psn is valid
  uint32_t first_psn = 0;   // requests, any point
  uint32_t highest_psn = 0;
  uint32_t last_response_psn = 0;
  std::optional<uint32_t> cm_start_psn;  // from the CM exchange that set the flow up
  RequestContext naks;      // NAKs about this flow's requests, from the paired flow
  uint32_t pmtu_cm_frame = 0;  // the CM REQ naks.pmtu comes from; 0 when segments showed it (or nothing)
  uint32_t largest_ip = 0;     // its largest IP packet, any point: what an ICMP MTU is compared with
  uint64_t last_resend_ts = 0;   // its latest resent request, any point: responses to it come again
  // DCQCN's notification point: the first ECN-CE request, whether a CNP
  // ever answered this (request) flow, and whether a response already
  // showed none did.
  uint64_t first_ce_ns = 0;
  uint32_t first_ce_psn = 0;
  bool ce_seen = false;
  bool cnp_seen = false;
  bool cnp_missing_noted = false;
  std::vector<uint32_t> points;  // indices of this flow's per-point states
  // The point of its latest packet and that state's index: most packets of
  // a flow follow one at the same point, so no hash lookup then.
  bool has_recent_point = false;
  uint32_t recent_point = 0, recent_state = 0;
  // The latest sequence NAK's copies, one per point it passed, until a late
  // original takes it back (EventSink::nak_reordered) or another NAK comes.
  struct NakCopy {
    uint32_t frame, point, stream;
    uint8_t priority;
    uint64_t ts_ns;
  };
  std::array<NakCopy, 4> nak_copies{};
  uint8_t nak_copy_count = 0;
  // PSNs of the latest reordering NAKs (| kValid): a copy of one at
  // another point is reordering's too.
  std::array<uint32_t, 4> reorder_naks{};
  uint8_t reorder_naks_next = 0;
  static constexpr uint32_t kValid = 0x80000000u;
  void note_reorder_nak(uint32_t psn) { reorder_naks[reorder_naks_next++ % reorder_naks.size()] = psn | kValid; }
  bool reorder_nak_for(uint32_t psn) const {
    return std::find(reorder_naks.begin(), reorder_naks.end(), psn | kValid) != reorder_naks.end();
  }
};

class FlowTable {
 public:
  // kNoId when the table is full.
  uint32_t find_or_add(const FlowKey& key, uint32_t limit);
  uint32_t find(const FlowKey& key) const;  // kNoId when not seen
  // The flows from `src` to `dst`, any QP.
  std::span<const uint32_t> between(const Address& src, const Address& dst) const;
  Flow& operator[](uint32_t id) { return flows_[id]; }
  const Flow& operator[](uint32_t id) const { return flows_[id]; }
  size_t size() const { return flows_.size(); }

  // Pair an unpaired flow whose response (or CNP) just arrived with the
  // flow of the requests it answers; `psn` is ignored for CNPs, which carry
  // none. Returns false, with the candidates in `fits`, when the PSN fits
  // the requests of two or more unpaired flows: nothing tells which it
  // answers, so it pairs with none (a later response may).
  bool pair_by_response(uint32_t id, bool has_psn, uint32_t psn, std::vector<uint32_t>& fits);
  // Pair a flow whose requests appear after its reverse flow's responses,
  // when exactly one unpaired reverse flow's responses end just before `psn`.
  void pair_by_request(uint32_t id, uint32_t psn);
  void pair(uint32_t a, uint32_t b);
  uint32_t new_stream() { return next_stream_++; }

 private:
  struct PairHash {
    size_t operator()(const std::pair<Address, Address>& p) const { return hash_address(p.second, hash_address(p.first)); }
  };
  std::vector<Flow> flows_;
  std::unordered_map<FlowKey, uint32_t, FlowKeyHash> by_key_;
  std::unordered_map<std::pair<Address, Address>, std::vector<uint32_t>, PairHash> by_hosts_;
  uint32_t next_stream_ = 0;
};

}  // namespace roceshark
