// SPDX-License-Identifier: GPL-2.0-or-later
// What the analysis learns about frames after their verdicts, handed to the
// front end as it is learned: the engine emits these and keeps none of
// them. A front end stores them (EventLog, for Wireshark's later passes and
// taps) or aggregates them straight away.
#pragma once
#include <cstdint>
#include <vector>

#include "epan-ext/analysis/clock_offset.h"
#include "epan-ext/analysis/pause_tracker.h"

namespace roceshark {

namespace hop {
// Results per (upstream point, downstream point, direction = flow).
struct HopKey {
  uint32_t from, to;
  uint32_t flow;
  bool operator<(const HopKey& o) const { return std::tie(from, to, flow) < std::tie(o.from, o.to, o.flow); }
};

// The frame on which traffic both ways first proved two points' clocks
// differ (reported in synced mode, where latencies are then wrong).
struct Skew {
  uint32_t frame, a, b;
  uint64_t ts_ns;  // the frame's
};
}  // namespace hop

// A sequence-error NAK taken back: it asked for a PSN that was only late,
// and the late original passed `point` at `late_frame` after the NAK.
// `flow`, `point`, `priority` and `stream` are the NAK frame's own, as its
// verdict gave them (the request flow it is reported under).
struct NakReorder {
  uint32_t nak_frame, late_frame;
  uint32_t flow, point, stream;
  uint8_t priority;
  uint64_t nak_ts_ns;  // the NAK frame's time
};

class EventSink {
 public:
  virtual ~EventSink() = default;
  // `frame`'s packet (`len` bytes there, at `ts_ns`, PSN `psn`) passed
  // `key.from` and never reached `key.to`.
  virtual void hop_lost(const hop::HopKey& key, uint32_t frame, uint16_t len, uint64_t ts_ns, uint32_t psn) = 0;
  // ... after all: `lost_frame`'s packet reached `key.to` late, at `frame`
  // (overtaken on the hop, not lost).
  virtual void hop_reordered(const hop::HopKey& key, uint32_t lost_frame, uint32_t frame) = 0;
  // ... after all: the responder acknowledged `lost_frame`'s PSN at
  // `ack_frame` before any resend of it, so it arrived and the capture at
  // `key.to` missed its copy.
  virtual void hop_missed(const hop::HopKey& key, uint32_t lost_frame, uint32_t ack_frame) = 0;
  virtual void nak_reordered(const NakReorder& n) = 0;
  virtual void clock_skew(const hop::Skew& s) = 0;
  virtual void episode_ended(const pfc::Episode& e) = 0;
  virtual void propagation(const pfc::Propagation& p) = 0;
  // What stands when the frames so far end: the episodes still open (as
  // they stand) and the clock estimates. Each call replaces the last.
  virtual void at_end(std::vector<pfc::Episode> open, std::vector<hop::ClockEstimator::Estimate> clocks) = 0;
};

}  // namespace roceshark
