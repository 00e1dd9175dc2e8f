// SPDX-License-Identifier: GPL-2.0-or-later
// The analysis' time (epan-ext/analysis/point_clock.h): whatever the stamps,
// per point it never goes back and stays below 2^62 ns.
#include "epan-ext/analysis/point_clock.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <random>

namespace roceshark {
namespace {

constexpr uint64_t kEpoch = 1'700'000'000'000'000'000ull;

TEST(PointClock, OrderedStampsAreTheirOwnTime) {
  PointClock c;
  EXPECT_EQ(c.at(0, 1, kEpoch), kEpoch);
  EXPECT_EQ(c.at(1, 2, kEpoch - 5000), kEpoch - 5000);  // another point's clock: its own
  EXPECT_EQ(c.at(0, 3, kEpoch + 100), kEpoch + 100);
  EXPECT_FALSE(c.stepped());
  EXPECT_TRUE(c.steps().empty());
  EXPECT_FALSE(c.rebased());
}

TEST(PointClock, ShortStepBackHoldsTimeWithoutDrift) {
  PointClock c;
  c.at(0, 1, kEpoch + 1000);
  EXPECT_EQ(c.at(0, 2, kEpoch + 400), kEpoch + 1000);  // 600 ns back: held
  EXPECT_TRUE(c.stepped());
  EXPECT_EQ(c.at(0, 3, kEpoch + 900), kEpoch + 1000);
  EXPECT_EQ(c.at(0, 4, kEpoch + 1500), kEpoch + 1500);  // caught up: the stamp again
  EXPECT_FALSE(c.stepped());
  const PointClock::Steps& s = c.steps().at(0);
  EXPECT_EQ(s.back, 2u);
  EXPECT_EQ(s.stretches, 0u);
  EXPECT_EQ(s.largest_ns, 600u);
  EXPECT_EQ(s.first_frame, 2u);
}

TEST(PointClock, LongStepBackStartsAStretchLaidAfterTheLast) {
  PointClock c;
  c.at(0, 1, kEpoch);
  c.at(0, 2, kEpoch + 2'000'000);
  // An NTP step of 1 s back: durations inside the new stretch are kept.
  EXPECT_EQ(c.at(0, 3, kEpoch - 1'000'000'000), kEpoch + 2'000'000);
  EXPECT_EQ(c.at(0, 4, kEpoch - 1'000'000'000 + 700), kEpoch + 2'000'700);
  EXPECT_EQ(c.steps().at(0).stretches, 1u);
  EXPECT_EQ(c.steps().at(0).largest_ns, 1'002'000'000u);
}

TEST(PointClock, StampsPastTwoToTheSixtyFourNeverWrap) {
  PointClock c;
  const uint64_t near = UINT64_MAX - 5000;
  uint64_t last = c.at(0, 1, near);
  EXPECT_TRUE(c.rebased());
  EXPECT_EQ(last, PointClock::kRebasedStartNs);
  for (uint32_t f = 2; f < 20; ++f) {
    const uint64_t t = c.at(0, f, near + uint64_t{f} * 1000);  // wraps past 2^64 at f = 6
    EXPECT_GE(t, last);
    EXPECT_LT(t, PointClock::kMaxNs);
    last = t;
  }
  // In order before the wrap: the intervals are kept.
  EXPECT_EQ(c.at(1, 30, near + 2000), PointClock::kRebasedStartNs + 2000);
}

TEST(PointClock, AJumpPastTheLimitIsAStep) {
  PointClock c;
  c.at(0, 1, kEpoch);
  EXPECT_EQ(c.at(0, 2, kEpoch + (uint64_t{1} << 62)), kEpoch);
  EXPECT_TRUE(c.stepped());
  EXPECT_EQ(c.at(0, 3, kEpoch + (uint64_t{1} << 62) + 10), kEpoch + 10);
}

TEST(PointClock, RandomStampsStayMonotonicAndBounded) {
  PointClock c;
  std::mt19937_64 rng(7);
  uint64_t last[4] = {};
  for (uint32_t f = 1; f < 20000; ++f) {
    const uint32_t p = f % 4;
    const uint64_t t = c.at(p, f, rng());
    EXPECT_LT(t, PointClock::kMaxNs);
    EXPECT_GE(t, last[p]);
    last[p] = t;
  }
}

}  // namespace
}  // namespace roceshark
