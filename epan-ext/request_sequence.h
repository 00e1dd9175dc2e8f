// SPDX-License-Identifier: GPL-2.0-or-later
// Sequence verdicts for the requests of one flow at one capture point.
//
// A packet is compared with `highest`, the furthest PSN seen here, and with
// the in-order window after it (one PSN, or the span a READ's responses
// take). Ahead of the window is a gap; at or behind `highest` is a
// retransmission, a run of which ends when it passes `run_end`. The cause of
// a run is decided at its first packet: the flow's NAK that asked for it, a
// quiet period of at least the timeout, or unknown.
#pragma once
#include <cstdint>
#include <optional>

#include "epan-ext/config.h"
#include "epan-ext/packet.h"
#include "epan-ext/psn_index.h"
#include "epan-ext/verdict.h"

namespace roceshark {

// The latest NAK of one kind the responder sent about this flow, at any point.
struct NakEvent {
  bool valid = false;
  uint32_t psn = 0;
  uint64_t ts_ns = 0;
  uint32_t frame = 0;
  uint32_t rnr_wait_ns = 0;  // RNR NAK: the timer the requester must wait
};

struct RequestContext {
  NakEvent seq_nak;          // PSN sequence error
  NakEvent rnr_nak;
  uint64_t last_nak_ts = 0;  // any NAK, for "no NAK in between"
  bool any_nak = false;
  uint32_t pmtu = 0;         // learned path MTU, 0 until known
};

struct SeqResult {
  SeqClass seq = SeqClass::in_order;
  bool has_expected = false;
  bool qp_reuse = false;
  uint32_t expected_psn = 0;
  uint32_t gap = 0;
  uint32_t original_frame = 0;
  uint32_t nak_frame = 0;
  uint64_t quiet_ns = 0;  // silence before the run this retransmission belongs to
};

class RequestSequence {
 public:
  SeqResult classify(const PacketInfo& p, const RequestContext& ctx, const Config& cfg);
  // Forget everything; a CM exchange may say which PSN comes first.
  void restart(std::optional<uint32_t> start_psn);

 private:
  SeqResult start(const PacketInfo& p, bool reuse);
  SeqClass run_cause(const PacketInfo& p, const RequestContext& ctx, const Config& cfg);
  void advance(const PacketInfo& p, const RequestContext& ctx);
  void remember(const PacketInfo& p);

  bool started_ = false;
  std::optional<uint32_t> start_psn_;
  uint32_t highest_ = 0;
  uint32_t window_lo_ = 0;  // next PSNs in order: [window_lo_, window_hi_]
  uint32_t window_hi_ = 0;
  uint64_t last_ts_ = 0;

  SeqClass run_ = SeqClass::none;
  uint32_t run_end_ = 0;
  uint32_t run_last_ = 0;
  uint32_t run_nak_frame_ = 0;
  uint64_t run_quiet_ns_ = 0;
  uint32_t nak_used_frame_ = 0;  // a NAK starts at most one run here

  FirstSeenIndex first_seen_;
  RecentPackets recent_;
};

}  // namespace roceshark
