// SPDX-License-Identifier: GPL-2.0-or-later
// `-z roce,hops` aggregation, fed by the `roce` tap: per hop (upstream point,
// downstream point) and per QP end to end. Losses, late arrivals, clock
// skews and estimates are the engine's events (it alone sees what never
// arrived), settled at draw time: each counts only if the filter selected
// its frame (a clock estimate: if it selected RoCE frames at both points).
#pragma once
#include <cstdint>
#include <map>
#include <set>
#include <tuple>
#include <unordered_set>
#include <vector>

#include "epan-ext/analysis/ecn_compare.h"
#include "epan-ext/analysis/event_log.h"
#include "epan-ext/report/frame_set.h"
#include "epan-ext/report/time_span.h"
#include "epan-ext/common/histogram.h"
#include "epan-ext/analysis/tap_record.h"

namespace roceshark::hop {

struct HopRow {
  uint64_t matched = 0;
  uint64_t remarked = 0, ce_set = 0, ttl_changed = 0, bursts = 0, negative = 0;
  uint32_t first_remark_frame = 0, first_burst_frame = 0;
  uint64_t vlan_changed = 0;
  uint32_t first_vlan_frame = 0;
  uint16_t largest_passed = 0;  // the longest frame (its length upstream) that crossed the hop
  int64_t min_latency_ns = INT64_MAX, max_latency_ns = INT64_MIN;
  Histogram latency_ns;  // negative latencies count as 0 (and in `negative`)
  Histogram queue_ns;
};

struct QpPathRow {
  uint32_t first_point = 0;
  std::map<uint32_t, Histogram> e2e_ns;  // from first_point, by the point reached
  uint64_t retransmissions = 0;
  std::map<uint32_t, uint64_t> retrans_first_seen;  // by the point that first saw the resend
};

struct HopLoss {
  uint64_t lost = 0;
  uint32_t first_loss_frame = 0;     // upstream frame of the first loss
  triage::TimeSpan when;             // of the losses, upstream
  uint64_t reordered = 0;            // overtaken on this hop: arrived after a later packet of the flow
  uint32_t first_reorder_frame = 0;  // downstream frame of the first
};

// Losses on a hop split by size: the frames longer than any that crossed it.
// When they are most of its losses, the size explains them (an MTU).
struct SizeSplit {
  static constexpr size_t kFrames = 5;
  uint16_t largest_passed = 0;
  uint64_t lost = 0;            // every loss on the hop
  uint64_t above = 0;           // lost, and longer than largest_passed
  uint16_t smallest_above = 0;  // the shortest of those
  std::set<uint32_t> flows;     // theirs
  std::vector<uint32_t> frames;  // the first of them (upstream frames)
  triage::TimeSpan when;         // of them, upstream
};

class HopStats {
 public:
  void add(const TapRecord& r);
  void clear() { *this = HopStats{}; }
  // (from, to)
  const std::map<std::pair<uint32_t, uint32_t>, HopRow>& hops() const { return hops_; }
  const std::map<uint32_t, QpPathRow>& qps() const { return qps_; }  // by flow
  // ECN marking per hop and priority, from ECN-capable packets.
  const EcnThresholds& ecn() const { return ecn_; }
  const AnalysisFacts* facts() const { return facts_; }

  // Takes in the log's events about frames up to `upto` not taken in yet;
  // true when a loss count changed.
  bool settle(const EventLog& log, const FrameSet& selected, uint32_t upto = UINT32_MAX);
  // Losses per hop and flow, and per hop summed over its flows.
  std::map<HopKey, HopLoss> flow_losses() const;
  std::map<std::pair<uint32_t, uint32_t>, HopLoss> losses() const;
  std::map<std::pair<uint32_t, uint32_t>, SizeSplit> sizes() const;
  const std::vector<Skew>& skews() const { return skews_; }
  // By downstream point: copies its tap missed (an ACK proved they arrived).
  const std::map<uint32_t, uint64_t>& missed() const { return missed_; }
  const std::vector<ClockEstimator::Estimate>& clock_estimates() const { return clocks_; }

 private:
  struct FlowLoss {
    struct Lost {
      uint16_t len;
      uint64_t ts_ns;  // upstream
    };
    std::map<uint32_t, Lost> lost_frames;  // selected upstream frames still taken as lost
    uint64_t reordered = 0;
    uint32_t first_reorder_frame = 0;
  };
  std::map<std::pair<uint32_t, uint32_t>, HopRow> hops_;
  std::map<uint32_t, QpPathRow> qps_;
  EcnThresholds ecn_;
  const AnalysisFacts* facts_ = nullptr;
  std::unordered_set<uint32_t> points_;  // where the filter selected analysed RoCE frames
  std::map<HopKey, FlowLoss> lost_;
  size_t hop_events_ = 0, skew_events_ = 0;  // the log's events taken in so far
  std::vector<Skew> skews_;
  std::vector<ClockEstimator::Estimate> clocks_;
  std::map<uint32_t, uint64_t> missed_;
};

}  // namespace roceshark::hop
