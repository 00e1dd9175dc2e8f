// SPDX-License-Identifier: GPL-2.0-or-later
// Time as the analysis counts it (docs/analysis.md, "Time that runs
// backwards"): at each capture point it never goes back and stays below
// 2^62 ns, whatever the capture's timestamps, so no duration is negative,
// no sum wraps and no loop over time runs away.
//
// - A step back of up to kHoldNs (a multi-queue tap's jitter) holds the
//   point's time where it was until the stamps catch up: nothing drifts.
// - A longer step back (an NTP step, files appended with mergecap -a) or a
//   jump past 2^62 starts a new stretch, laid right after the last one: the
//   durations inside each stretch are kept, the one across it is taken as 0.
// - A capture stamped past 2^62 ns (year 2116) from its first frame is
//   counted from kRebasedStartNs; the report says so.
// Every step is counted per point for the capture-quality notes. Points
// past roce.max_points are not analysed: their frames keep their stamps
// (below 2^62), with no state kept for them.
#pragma once
#include <cstdint>
#include <map>

namespace roceshark {

class PointClock {
 public:
  static constexpr uint64_t kMaxNs = uint64_t{1} << 62;
  static constexpr uint64_t kHoldNs = 1'000'000;
  static constexpr uint64_t kRebasedStartNs = uint64_t{1} << 40;

  explicit PointClock(uint32_t max_points = UINT32_MAX) : max_points_(max_points) {}

  struct Steps {
    uint64_t back = 0;         // frames stamped before an earlier frame of the point
    uint64_t stretches = 0;    // of them, steps that started a new stretch
    uint64_t largest_ns = 0;   // the longest step back (or jump past kMaxNs)
    uint32_t first_frame = 0;  // the first frame stamped back
  };

  // The analysis time of `frame`, stamped `raw` at `point`.
  uint64_t at(uint32_t point, uint32_t frame, uint64_t raw);
  // The analysis time of the first frame: the capture's start, the origin
  // of every time "from the start of the capture".
  uint64_t start_ns() const { return start_ns_; }
  // Whether any frame's time has digits below the microsecond: then times
  // are printed in nanoseconds.
  bool nanoseconds() const { return ns_; }
  // Whether the frame of the last at() was stamped back (or too far ahead).
  bool stepped() const { return stepped_; }
  // The stretches the last at()'s point has started so far: what was
  // learned of its flows before the current one belongs to another recording.
  uint32_t stretch() const { return last_ ? last_->stretches : 0; }
  uint32_t point() const { return last_point_; }
  // Points whose stamps went back, in point order.
  const std::map<uint32_t, Steps>& steps() const { return steps_; }
  bool rebased() const { return rebase_ != 0; }

 private:
  struct Point {
    uint64_t max_raw = 0;  // the latest stamp of the current stretch
    uint64_t now = 0;      // the point's time: max_raw's, in the analysis' time
    uint32_t stretches = 0;
  };
  void step(uint32_t point, uint32_t frame, uint64_t ns, bool stretch);
  uint64_t time_of(uint32_t point, uint32_t frame, uint64_t raw);

  uint32_t max_points_;
  std::map<uint32_t, Point> points_;
  std::map<uint32_t, Steps> steps_;
  bool started_ = false;
  bool stepped_ = false;
  bool ns_ = false;
  uint64_t start_ns_ = 0;
  uint64_t rebase_ = 0;  // subtracted from every stamp: non-zero only for captures stamped past kMaxNs
  uint32_t last_point_ = UINT32_MAX;
  Point* last_ = nullptr;  // most frames are of the point before
};

}  // namespace roceshark
