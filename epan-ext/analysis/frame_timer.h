// SPDX-License-Identifier: GPL-2.0-or-later
// The timing stage (docs/analysis-split.md, "R"): what every later stage
// reads and only every point's frames in frame order can decide. The
// analysis' time of each record (PointClock), which points are analysed
// (roce.max_points), and when the sweep for idle flow points runs. It runs
// before the per-connection analysis, so that host-pair shards can share
// its answers; today the Analyzer calls it first, on the same thread.
#pragma once
#include <cstdint>
#include <unordered_set>

#include "epan-ext/analysis/point_clock.h"
#include "epan-ext/common/config.h"

namespace roceshark {

class FrameTimer {
 public:
  explicit FrameTimer(const Config& cfg)
      : clock_(cfg.max_points), max_points_(cfg.max_points), idle_ns_(cfg.flow_idle_ns) {}

  // The analysis' time of a record stamped `raw` at `point`.
  uint64_t at(uint32_t point, uint32_t frame, uint64_t raw) { return ts_ns_ = clock_.at(point, frame, raw); }
  // The record stamped with the analysis' time; a copy only when that differs.
  template <typename Record>
  const Record& timed(const Record& r, Record& copy) {
    if (at(r.point, r.frame, r.ts_ns) == r.ts_ns) return r;
    copy = r;
    copy.ts_ns = ts_ns_;
    return copy;
  }
  // The latest record's time.
  uint64_t latest_ts() const { return ts_ns_; }
  const PointClock& clock() const { return clock_; }

  // Whether frames at `point` are analysed: the first roce.max_points
  // points asked for.
  bool admit_point(uint32_t point) {
    if (admitted_.contains(point)) return true;
    if (admitted_.size() >= max_points_) return false;
    admitted_.insert(point);
    return true;
  }
  bool admitted(uint32_t point) const { return admitted_.contains(point); }

  // Whether the sweep for flow points idle past roce.flow_idle_s runs
  // before the RoCE record at `ts`: every quarter of that time of capture.
  bool sweep_due(uint64_t ts) {
    if (!idle_ns_ || ts < next_sweep_ns_) return false;
    next_sweep_ns_ = ts + idle_ns_ / 4;
    return true;
  }

 private:
  PointClock clock_;
  uint32_t max_points_;
  uint64_t idle_ns_;
  uint64_t ts_ns_ = 0;
  std::unordered_set<uint32_t> admitted_;
  uint64_t next_sweep_ns_ = 0;
};

}  // namespace roceshark
