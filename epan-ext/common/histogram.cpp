// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/common/histogram.h"

#include <algorithm>
#include <bit>
#include <cmath>

namespace roceshark {
namespace {
constexpr uint64_t kSub = uint64_t{1} << Histogram::kSubBits;
}

uint32_t Histogram::bucket_of(uint64_t v) {
  if (v < kSub) return static_cast<uint32_t>(v);
  const unsigned e = static_cast<unsigned>(std::bit_width(v)) - 1;
  return static_cast<uint32_t>((e - kSubBits + 1) * kSub + ((v >> (e - kSubBits)) - kSub));
}

uint64_t Histogram::bucket_low(uint32_t i) {
  if (i < kSub) return i;
  const unsigned shift = static_cast<unsigned>(i / kSub) - 1;
  return (i % kSub + kSub) << shift;
}

uint64_t Histogram::bucket_width(uint32_t i) { return i < kSub ? 1 : uint64_t{1} << (i / kSub - 1); }

void Histogram::add(uint64_t v) {
  const uint32_t b = bucket_of(v);
  if (b >= buckets_.size()) buckets_.resize(b + 1);
  ++buckets_[b];
  ++count_;
  sum_ += v;
  min_ = std::min(min_, v);
  max_ = std::max(max_, v);
}

void Histogram::merge(const Histogram& o) {
  if (o.buckets_.size() > buckets_.size()) buckets_.resize(o.buckets_.size());
  for (size_t i = 0; i < o.buckets_.size(); ++i) buckets_[i] += o.buckets_[i];
  count_ += o.count_;
  sum_ += o.sum_;
  min_ = std::min(min_, o.min_);
  max_ = std::max(max_, o.max_);
}

uint64_t Histogram::count_at_most(uint64_t v) const {
  uint64_t n = 0;
  for (uint32_t i = 0; i < buckets_.size() && bucket_low(i) + bucket_width(i) - 1 <= v; ++i) n += buckets_[i];
  return n;
}

uint64_t Histogram::quantile(double q) const {
  if (count_ == 0) return 0;
  const double clamped = std::clamp(q, 0.0, 1.0);
  const auto rank = std::max<uint64_t>(1, static_cast<uint64_t>(std::ceil(clamped * static_cast<double>(count_))));
  uint64_t seen = 0;
  for (uint32_t i = 0; i < buckets_.size(); ++i) {
    seen += buckets_[i];
    if (seen >= rank) return std::clamp(bucket_low(i) + bucket_width(i) / 2, min_, max_);
  }
  return max_;
}

}  // namespace roceshark
