// SPDX-License-Identifier: GPL-2.0-or-later
// Clock offsets between points from traffic both ways (minimum delay).
#include <gtest/gtest.h>

#include "epan-ext/analysis/clock_offset.h"

namespace roceshark::hop {
namespace {

constexpr int64_t us = 1000;
constexpr uint32_t kA = 1, kB = 2;
constexpr uint32_t kFwd = 0, kRev = 1, kNone = UINT32_MAX;

struct ClockTest : ::testing::Test {
  Config cfg;
  // B's clock runs `skew` ahead of A's; forward hops take `fwd`, reverse `rev`
  // (plus `jitter` on every other sample).
  void feed(ClockEstimator& c, int64_t skew, int64_t fwd, int64_t rev, int64_t jitter = 0, int n = 8) {
    for (int i = 0; i < n; ++i) {
      const int64_t t = 1'000'000 + i * 100 * us, j = i % 2 ? jitter : 0;
      c.observe(kA, t, kB, t + fwd + j + skew, kFwd, kRev);
      c.observe(kB, t + 50 * us + skew, kA, t + 50 * us + rev + j, kRev, kFwd);
    }
  }
};

TEST_F(ClockTest, SymmetricPathsGiveTheOffsetExactly) {
  cfg.clock_mode = ClockMode::estimate;
  ClockEstimator c(cfg);
  feed(c, 37 * us, 2 * us, 2 * us);
  auto e = c.estimates();
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].a, kA);
  EXPECT_EQ(e[0].b, kB);
  EXPECT_EQ(e[0].offset_ns, 37 * us);
  EXPECT_EQ(e[0].uncertainty_ns, 2 * us);
  EXPECT_EQ(e[0].samples, 16u);
  EXPECT_EQ(c.offset(kB), 37 * us);
  EXPECT_EQ(c.offset(kA), 0);
}

TEST_F(ClockTest, AsymmetricPathsStayWithinTheUncertainty) {
  cfg.clock_mode = ClockMode::estimate;
  ClockEstimator c(cfg);
  feed(c, -20 * us, 1 * us, 5 * us, 3 * us);
  auto e = c.estimates();
  ASSERT_EQ(e.size(), 1u);
  // Minimum delays 1 and 5 us: the offset is known to within their mean.
  EXPECT_EQ(e[0].offset_ns, -20 * us - 2 * us);
  EXPECT_EQ(e[0].uncertainty_ns, 3 * us);
  EXPECT_LE(std::abs(e[0].offset_ns - (-20 * us)), e[0].uncertainty_ns);
}

TEST_F(ClockTest, SyncedModeAppliesNoOffset) {
  ClockEstimator c(cfg);  // clock_mode synced
  feed(c, 37 * us, 2 * us, 2 * us);
  EXPECT_EQ(c.offset(kB), 0);
  EXPECT_EQ(c.estimates().size(), 1u);  // still reported, for the user to judge
}

TEST_F(ClockTest, OneWayTrafficGivesNoEstimateAndNoOrder) {
  cfg.clock_mode = ClockMode::estimate;
  ClockEstimator c(cfg);
  for (int i = 0; i < 8; ++i) c.observe(kA, 1000 + i, kB, 3000 + i, kFwd, kNone);
  EXPECT_TRUE(c.estimates().empty());
  EXPECT_EQ(c.offset(kB), 0);
  EXPECT_EQ(c.order(kA, kB, kFwd), 0);
}

TEST_F(ClockTest, BothWaysSayWhichPointIsUpstream) {
  ClockEstimator c(cfg);
  feed(c, 500 * us, 2 * us, 3 * us);  // B's clock far ahead: timestamps alone would mislead the reverse flow
  EXPECT_EQ(c.order(kA, kB, kFwd), 1);
  EXPECT_EQ(c.order(kB, kA, kFwd), -1);
  EXPECT_EQ(c.order(kB, kA, kRev), 1);
  EXPECT_EQ(c.order(kA, kB, kRev), -1);
}

TEST_F(ClockTest, AnOffsetBeyondTheHopLatenciesIsProvenOnce) {
  ClockEstimator c(cfg);
  int proofs = 0;
  for (int i = 0; i < 8; ++i) {
    const int64_t t = 1'000'000 + i * 100 * us;
    proofs += c.observe(kA, t, kB, t + 2 * us + 37 * us, kFwd, kRev);
    proofs += c.observe(kB, t + 50 * us + 37 * us, kA, t + 50 * us + 2 * us, kRev, kFwd);
  }
  EXPECT_EQ(proofs, 1);
  ASSERT_TRUE(c.estimate(kB, kA));
  EXPECT_TRUE(c.estimate(kA, kB)->proven());
}

TEST_F(ClockTest, AnOffsetWithinTheHopLatenciesIsNotProven) {
  ClockEstimator c(cfg);
  int proofs = 0;
  for (int i = 0; i < 8; ++i) {
    const int64_t t = 1'000'000 + i * 100 * us;
    proofs += c.observe(kA, t, kB, t + 2 * us + 1 * us, kFwd, kRev);  // 1 us off, hops of 2 us
    proofs += c.observe(kB, t + 50 * us + 1 * us, kA, t + 50 * us + 2 * us, kRev, kFwd);
  }
  EXPECT_EQ(proofs, 0);
  EXPECT_FALSE(c.estimate(kA, kB)->proven());
}

}  // namespace
}  // namespace roceshark::hop
