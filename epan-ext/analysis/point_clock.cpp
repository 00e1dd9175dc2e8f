// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/analysis/point_clock.h"

#include <algorithm>

namespace roceshark {

void PointClock::step(uint32_t point, uint32_t frame, uint64_t ns, bool stretch) {
  stepped_ = true;
  Steps& s = steps_[point];
  if (!s.back) s.first_frame = frame;
  ++s.back;
  s.stretches += stretch;
  s.largest_ns = std::max(s.largest_ns, ns);
}

uint64_t PointClock::at(uint32_t point, uint32_t frame, uint64_t raw) {
  const bool first = !started_;
  const uint64_t t = time_of(point, frame, raw);
  if (first) start_ns_ = t;
  ns_ |= t % 1000 != 0;
  return t;
}

uint64_t PointClock::time_of(uint32_t point, uint32_t frame, uint64_t raw) {
  stepped_ = false;
  if (!started_) {
    started_ = true;
    if (raw >= kMaxNs) rebase_ = raw - kRebasedStartNs;
  }
  if (point != last_point_) {
    if (points_.size() >= max_points_ && !points_.contains(point)) {
      const uint64_t t = raw - rebase_;  // mod 2^64
      return t < kMaxNs ? t : kMaxNs - 1;
    }
    auto [it, added] = points_.try_emplace(point);
    last_ = &it->second, last_point_ = point;
    if (added) {
      Point& p = *last_;
      p.max_raw = raw;
      p.now = raw - rebase_;  // mod 2^64
      // A point whose first stamp lies past the limit (or before the
      // rebased start) begins where the analysis' time starts.
      if (raw < rebase_ || p.now >= kMaxNs) {
        step(point, frame, raw < rebase_ ? rebase_ - raw : p.now - kMaxNs, true);
        p.now = kRebasedStartNs;
      }
      return p.now;
    }
  }
  Point& p = *last_;
  if (raw < p.max_raw) {
    const uint64_t back = p.max_raw - raw;
    if (back <= kHoldNs) {
      step(point, frame, back, false);
      return p.now;
    }
    step(point, frame, back, true);
    p.max_raw = raw, ++p.stretches;
    return p.now;
  }
  const uint64_t ahead = raw - p.max_raw;
  if (ahead >= kMaxNs - p.now) {
    step(point, frame, ahead, true);
    p.max_raw = raw, ++p.stretches;
    return p.now;
  }
  p.max_raw = raw;
  return p.now += ahead;
}

}  // namespace roceshark
