// SPDX-License-Identifier: GPL-2.0-or-later
// Per-QP time series for the report's pictures: retransmissions, recovery
// time and pause time per time bin. The span is not known until the end,
// so bins start 1 us wide and double (merging pairs) whenever an event falls
// past the last one: at most kBins per row, whatever the capture's length.
// Rows are made for the first kMaxRows QPs with something to show.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace roceshark::triage {

class Timeline {
 public:
  static constexpr uint32_t kBins = 128;
  static constexpr uint32_t kMaxRows = 64;
  enum Series : uint8_t { retransmissions, stalled_ns, paused_ns };
  static constexpr size_t kSeries = 3;

  // The first frame's time: bin 0 starts there.
  void start(uint64_t ts_ns);
  // Every frame: the bins widen until its time falls in one.
  void reach(uint64_t ts_ns);
  // A new row, or -1 when kMaxRows are taken (counted in dropped()).
  int add_row();
  void count(int row, uint64_t ts_ns);  // one retransmission
  // Time spread over the bins the interval covers.
  void spread(int row, Series s, uint64_t start_ns, uint64_t end_ns);

  uint64_t start_ns() const { return start_ns_; }
  uint64_t bin_ns() const { return bin_ns_; }
  uint32_t bins_used() const { return used_; }
  uint64_t dropped() const { return dropped_; }
  const std::array<uint64_t, kBins>& row(int r, Series s) const { return rows_[static_cast<size_t>(r)][s]; }
  size_t rows() const { return rows_.size(); }

 private:
  uint32_t bin(uint64_t ts_ns) const;

  using Row = std::array<std::array<uint64_t, kBins>, kSeries>;
  std::vector<Row> rows_;
  uint64_t start_ns_ = 0;
  uint64_t bin_ns_ = 1000;
  uint32_t used_ = 0;
  uint64_t dropped_ = 0;
};

}  // namespace roceshark::triage
