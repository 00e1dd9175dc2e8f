// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/report/timeline.h"

#include <algorithm>

namespace roceshark::triage {

void Timeline::start(uint64_t ts_ns) { start_ns_ = ts_ns; }

int Timeline::add_row() {
  if (rows_.size() >= kMaxRows) {
    ++dropped_;
    return -1;
  }
  rows_.push_back({});
  return static_cast<int>(rows_.size() - 1);
}

void Timeline::reach(uint64_t ts_ns) {
  const uint64_t off = ts_ns > start_ns_ ? ts_ns - start_ns_ : 0;
  while (off / bin_ns_ >= kBins) {
    for (Row& r : rows_)
      for (auto& series : r) {
        for (uint32_t i = 0; i < kBins / 2; ++i) series[i] = series[2 * i] + series[2 * i + 1];
        std::fill(series.begin() + kBins / 2, series.end(), 0);
      }
    bin_ns_ *= 2;
    used_ = (used_ + 1) / 2;
  }
  used_ = std::max(used_, static_cast<uint32_t>(off / bin_ns_) + 1);
}

uint32_t Timeline::bin(uint64_t ts_ns) const {
  const uint64_t off = ts_ns > start_ns_ ? ts_ns - start_ns_ : 0;
  return static_cast<uint32_t>(off / bin_ns_);
}

void Timeline::count(int row, uint64_t ts_ns) {
  reach(ts_ns);
  if (row >= 0) ++rows_[static_cast<size_t>(row)][retransmissions][bin(ts_ns)];
}

void Timeline::spread(int row, Series s, uint64_t start_ns, uint64_t end_ns) {
  start_ns = std::max(start_ns, start_ns_);
  if (end_ns <= start_ns) return;
  reach(end_ns - 1);
  if (row < 0) return;
  auto& series = rows_[static_cast<size_t>(row)][s];
  for (uint64_t t = start_ns; t < end_ns;) {
    const uint32_t b = bin(t);
    const uint64_t bin_end = start_ns_ + (static_cast<uint64_t>(b) + 1) * bin_ns_;
    const uint64_t upto = std::min(end_ns, bin_end);
    series[b] += upto - t;
    t = upto;
  }
}

}  // namespace roceshark::triage
