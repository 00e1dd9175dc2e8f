// SPDX-License-Identifier: GPL-2.0-or-later
// Sequence verdicts for the requests of one flow at one capture point.
//
// A packet is compared with `highest`, the furthest PSN seen here, and with
// the in-order window after it (one PSN, or the span a READ's responses
// take). Ahead of the window is a gap, and the skipped PSNs are a hole. At
// or behind `highest`, a PSN never seen here that fills a recent hole with
// nothing to cause a resend is out of order; anything else there is a
// retransmission, a run of which ends when it passes `run_end`. The cause of
// a run is decided at its first packet: the flow's NAK that asked for it, a
// quiet period of at least the timeout, or unknown. The rules and their
// reasons are in docs/analysis.md.
#pragma once
#include <array>
#include <cstdint>
#include <optional>

#include "epan-ext/common/config.h"
#include "epan-ext/decode/packet.h"
#include "epan-ext/decode/psn.h"
#include "epan-ext/analysis/psn_index.h"
#include "epan-ext/analysis/verdict.h"

namespace roceshark {

// The latest NAK of one kind the responder sent about this flow, at any point.
struct NakEvent {
  bool valid = false;
  uint32_t psn = 0;
  uint64_t ts_ns = 0;
  uint32_t frame = 0;
  uint32_t rnr_wait_ns = 0;  // RNR NAK: the timer the requester must wait
  bool reorder = false;      // sequence NAK caused by reordering, not loss
};

// How the requester answers sequence-error NAKs, from the shape of its runs.
enum class RecoveryMode : uint8_t { unknown, go_back_n, selective };
const char* recovery_mode_name(RecoveryMode m);

struct RequestContext {
  NakEvent seq_nak;          // PSN sequence error
  // The one before: two NAKs in quick succession (the second for a PSN the
  // receiver dropped while it waited) can both pass before the first's resends.
  NakEvent prev_seq_nak;
  NakEvent rnr_nak;
  uint64_t last_nak_ts = 0;  // any NAK, for "no NAK in between"
  bool any_nak = false;
  // The newest response that is no NAK: one for a later PSN tells the
  // requester an unanswered READ or ATOMIC before it was lost (implied NAK).
  uint64_t last_answer_ts = 0;
  uint32_t last_answer_psn = 0;
  bool any_answer = false;
  uint32_t pmtu = 0;         // learned path MTU, 0 until known
  RecoveryMode mode = RecoveryMode::unknown;
};

// What this point has shown beyond the flow's requests.
struct PointView {
  bool responses_seen = false;  // the flow's NAKs pass here: a resend's cause would be visible
  bool mirrored = false;        // a proven mirror copy was recorded here before
  uint64_t rtt_floor_ns = 0;    // the fastest request -> response round trip here, 0 unknown
  // This very transmission passed the other points once each, by then
  // (the latest time), and no second copy there; 0 if not so.
  uint64_t passed_elsewhere_ns = 0;
};

// No RoCE round trip is faster than this (two NIC traversals and the
// responder's turnaround), so no resend follows its original sooner.
inline constexpr uint64_t kFastestRoundTripNs = 2'000;
// Nor does a timer or RNR retry come sooner than this after its original:
// the shortest transport timeout is 4.096 us x 2^1, the shortest RNR timer
// 10 us (InfiniBand spec, "Local ACK Timeout", "RNR NAK Timer").
inline constexpr uint64_t kShortestRetryWaitNs = 8'192;

struct SeqResult {
  SeqClass seq = SeqClass::in_order;
  bool has_expected = false;
  bool qp_reuse = false;
  bool ambiguous = false;      // a copy or a late packet the capture cannot call
  bool mirror_proven = false;  // a mirror copy no resend could be
  bool reorder_nak = false;    // resend answering, or late packet proving, a NAK reordering caused
  bool run_start = false;      // the first packet of a recovery run
  uint32_t expected_psn = 0;
  uint32_t gap = 0;  // gap: PSNs missing; out of order: PSNs behind the highest
  uint32_t original_frame = 0;
  uint32_t nak_frame = 0;
  uint64_t quiet_ns = 0;  // silence before the run this retransmission belongs to
  RecoveryMode learned = RecoveryMode::unknown;  // the requester's mode, when this packet shows it
};

class RequestSequence {
 public:
  SeqResult classify(const PacketInfo& p, const RequestContext& ctx, const PointView& here, const Config& cfg);
  // Forget everything; a CM exchange may say which PSN comes first.
  void restart(std::optional<uint32_t> start_psn);
  // Whether `psn` reached this point out of order (a NAK for it was caused by reordering).
  bool arrived_out_of_order(uint32_t psn) const;
  bool seen(uint32_t psn) const { return first_seen_.find(psn) != 0; }
  // Never seen here, in a recent hole: what a late original would be.
  bool fills_hole(uint32_t psn) const { return hole_of(psn) && !seen(psn); }
  // A late original may also come after its resend filled its hole here.
  bool may_be_late_original(uint32_t n) const {
    return fills_hole(n) || (run_fill_frame_ && psn::at_or_after(highest_, n) && first_seen_.find(n) == run_fill_frame_);
  }
  // The NAK `nak_frame` (a copy of it) was taken back: the run answering
  // it is reordering's doing from here on.
  void nak_taken_back(uint32_t nak_frame) {
    if (nak_frame && run_nak_frame_ == nak_frame) run_reorder_ = true;
  }

 private:
  struct Hole {
    uint32_t lo = 0, n = 0;  // PSNs [lo, lo + n) skipped
    uint64_t ts_ns = 0;      // when the packet past them arrived
    bool has_ip_id = false;
    uint16_t ip_id = 0;      // of that packet
  };
  // A READ seen here, for re-issued READs: its responses take the PSNs
  // after its own, as many as the path MTU (perhaps learned later) makes.
  struct Read {
    uint32_t psn = 0, dma_len = 0;
  };

  SeqResult start(const PacketInfo& p, bool reuse);
  SeqClass run_cause(const PacketInfo& p, const RequestContext& ctx, RecoveryMode mode, const Config& cfg);
  // The sequence NAK that asks for `p`: the latest, else the one before it.
  const NakEvent* seq_nak_for(const PacketInfo& p, const RequestContext& ctx, const Config& cfg) const;
  bool nak_asks_for(const NakEvent& nak, const PacketInfo& p, uint64_t wait_ns, const Config& cfg) const;
  const Hole* hole_of(uint32_t psn) const;
  bool in_read_span(uint32_t psn, uint32_t pmtu) const;
  std::optional<SeqResult> copy_verdict(const PacketInfo& p, const RequestContext& ctx, const PointView& here,
                                        const Config& cfg) const;
  std::optional<SeqResult> late_verdict(const PacketInfo& p, const RequestContext& ctx, const PointView& here,
                                        const Config& cfg);
  RecoveryMode learn_mode(const PacketInfo& p, bool continues) const;
  void advance(const PacketInfo& p, const RequestContext& ctx);
  void remember(const PacketInfo& p);

  bool started_ = false;
  std::optional<uint32_t> start_psn_;
  uint32_t highest_ = 0;
  bool highest_has_ip_id_ = false;
  uint16_t highest_ip_id_ = 0;
  uint32_t window_lo_ = 0;  // next PSNs in order: [window_lo_, window_hi_]
  uint32_t window_hi_ = 0;
  uint64_t last_ts_ = 0;
  uint32_t last_frame_ = 0;  // the flow's previous packet here

  SeqClass run_ = SeqClass::none;
  uint32_t run_end_ = 0;
  uint32_t run_first_ = 0;
  uint32_t run_last_ = 0;
  uint32_t run_length_ = 0;
  uint32_t run_nak_frame_ = 0;
  uint64_t run_quiet_ns_ = 0;
  bool run_reorder_ = false;
  uint32_t nak_used_frame_ = 0;  // a NAK starts at most one run here
  // A run's first packet when it filled a hole after the NAK for its PSN:
  // it may have been the late original, and its next copy the resend.
  uint32_t run_fill_frame_ = 0;
  uint64_t run_fill_nak_ts_ = 0;  // when the NAK it answered passed

  std::array<Hole, 8> holes_{};
  uint32_t holes_next_ = 0;
  std::array<Read, 4> reads_{};
  uint32_t reads_next_ = 0;
  std::array<uint32_t, 8> late_psns_{};  // PSNs that arrived out of order, with kLateValid
  uint32_t late_next_ = 0;

  FirstSeenIndex first_seen_;
  RecentPackets recent_;
};

}  // namespace roceshark
