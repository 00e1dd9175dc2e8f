// SPDX-License-Identifier: GPL-2.0-or-later
// The time one QP spent stalled, from intervals that may overlap (a pause
// that outlasts the transport timer is both a pause stall and a timeout
// wait): overlaps count once. Intervals arrive roughly in time order, so
// only the last few are kept apart; older ones are settled into the total.
#pragma once
#include <algorithm>
#include <cstdint>
#include <utility>
#include <vector>

namespace roceshark::triage {

class StallIntervals {
 public:
  void add(uint64_t start, uint64_t end) {
    if (end <= start) return;
    auto it = std::lower_bound(recent_.begin(), recent_.end(), std::pair{start, end});
    // Merge with the neighbours it touches.
    if (it != recent_.begin() && std::prev(it)->second >= start) --it;
    auto last = it;
    while (last != recent_.end() && last->first <= end) {
      start = std::min(start, last->first);
      end = std::max(end, last->second);
      ++last;
    }
    it = recent_.erase(it, last);
    recent_.insert(it, {start, end});
    if (recent_.size() > kKept) {
      settled_ += recent_.front().second - recent_.front().first;
      recent_.erase(recent_.begin());
    }
  }
  uint64_t total() const {
    uint64_t t = settled_;
    for (const auto& [s, e] : recent_) t += e - s;
    return t;
  }

 private:
  static constexpr size_t kKept = 16;
  std::vector<std::pair<uint64_t, uint64_t>> recent_;  // disjoint, by start
  uint64_t settled_ = 0;
};

}  // namespace roceshark::triage
