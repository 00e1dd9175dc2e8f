// SPDX-License-Identifier: GPL-2.0-or-later
// A mergeable log-linear histogram for latency percentiles (HDR style).
// Values below 32 are exact; above, each power of two is cut into 32 equal
// buckets, so a bucket is at most 1/32 of its value wide and a reported
// quantile (the bucket's midpoint, clamped to the exact min and max) is
// within 1/64 (1.6%) of the true sample at that rank.
#pragma once
#include <cstdint>
#include <vector>

namespace roceshark {

class Histogram {
 public:
  static constexpr unsigned kSubBits = 5;
  static constexpr double kRelativeError = 1.0 / (2 << kSubBits);

  void add(uint64_t v);
  void merge(const Histogram& other);
  uint64_t count() const { return count_; }
  uint64_t min() const { return count_ ? min_ : 0; }
  uint64_t max() const { return max_; }
  double mean() const { return count_ ? static_cast<double>(sum_) / static_cast<double>(count_) : 0.0; }
  uint64_t sum() const { return sum_; }
  // Samples in buckets that lie wholly at or below `v`: a Prometheus
  // bucket's count, low by at most the samples of one bucket (kRelativeError).
  uint64_t count_at_most(uint64_t v) const;
  // q in [0, 1]; 0 with no samples.
  uint64_t quantile(double q) const;

  static uint32_t bucket_of(uint64_t v);
  static uint64_t bucket_low(uint32_t i);
  static uint64_t bucket_width(uint32_t i);

 private:
  std::vector<uint64_t> buckets_;  // grown to the highest bucket used
  uint64_t count_ = 0;
  uint64_t sum_ = 0;
  uint64_t min_ = UINT64_MAX;
  uint64_t max_ = 0;
};

}  // namespace roceshark
