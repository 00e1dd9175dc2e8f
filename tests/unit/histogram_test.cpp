// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/common/histogram.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

namespace roceshark {
namespace {

TEST(Histogram, EmptyIsZero) {
  Histogram h;
  EXPECT_EQ(h.count(), 0u);
  EXPECT_EQ(h.quantile(0.99), 0u);
  EXPECT_EQ(h.min(), 0u);
}

TEST(Histogram, SmallValuesAreExact) {
  Histogram h;
  for (uint64_t v = 0; v < 32; ++v) h.add(v);
  EXPECT_EQ(h.quantile(0.5), 15u);
  EXPECT_EQ(h.quantile(1.0), 31u);
  EXPECT_EQ(h.min(), 0u);
  EXPECT_DOUBLE_EQ(h.mean(), 15.5);
}

TEST(Histogram, BucketsTileTheRange) {
  for (uint32_t i = 0; i + 1 < Histogram::bucket_of(UINT64_MAX); ++i) {
    EXPECT_EQ(Histogram::bucket_of(Histogram::bucket_low(i)), i);
    EXPECT_EQ(Histogram::bucket_of(Histogram::bucket_low(i) + Histogram::bucket_width(i) - 1), i);
    EXPECT_EQ(Histogram::bucket_low(i) + Histogram::bucket_width(i), Histogram::bucket_low(i + 1));
  }
}

TEST(Histogram, QuantilesWithinStatedError) {
  std::mt19937_64 rng(42);
  std::lognormal_distribution<double> dist(9.0, 1.0);  // ~8 us median, long tail
  std::vector<uint64_t> samples;
  Histogram h;
  for (int i = 0; i < 20000; ++i) {
    const auto v = static_cast<uint64_t>(dist(rng));
    samples.push_back(v);
    h.add(v);
  }
  std::sort(samples.begin(), samples.end());
  for (double q : {0.01, 0.5, 0.9, 0.99, 0.999}) {
    const auto rank = static_cast<size_t>(std::ceil(q * static_cast<double>(samples.size()))) - 1;
    const double truth = static_cast<double>(samples[rank]);
    EXPECT_LE(std::abs(static_cast<double>(h.quantile(q)) - truth), truth * Histogram::kRelativeError + 1) << q;
  }
  EXPECT_EQ(h.max(), samples.back());
  EXPECT_EQ(h.min(), samples.front());
}

TEST(Histogram, MergeEqualsAddingEverything) {
  Histogram a, b, all;
  for (uint64_t v = 1; v < 5000; v += 7) (v % 2 ? a : b).add(v), all.add(v);
  a.merge(b);
  EXPECT_EQ(a.count(), all.count());
  EXPECT_EQ(a.max(), all.max());
  EXPECT_EQ(a.min(), all.min());
  for (double q : {0.1, 0.5, 0.99}) EXPECT_EQ(a.quantile(q), all.quantile(q));
}

}  // namespace
}  // namespace roceshark
