// SPDX-License-Identifier: GPL-2.0-or-later
// The timing stage decides alone, in frame order, what every later stage
// reads: a record's time, which points are analysed, when the idle sweep runs.
#include "epan-ext/analysis/frame_timer.h"

#include <gtest/gtest.h>

namespace roceshark {
namespace {

struct Rec {
  uint32_t point = 0, frame = 0;
  uint64_t ts_ns = 0;
};

TEST(FrameTimer, RetimesOnlyWhatTheClockMoves) {
  FrameTimer t{Config{}};
  Rec copy;
  const Rec a{1, 1, 5'000};
  EXPECT_EQ(&t.timed(a, copy), &a);  // in order: the record itself
  const Rec back{1, 2, 4'000};       // 1 us back: held where the point's time was
  const Rec& b = t.timed(back, copy);
  EXPECT_EQ(&b, &copy);
  EXPECT_EQ(b.ts_ns, 5'000u);
  EXPECT_TRUE(t.clock().stepped());
  EXPECT_EQ(t.latest_ts(), 5'000u);
}

TEST(FrameTimer, AdmitsTheFirstMaxPoints) {
  Config cfg;
  cfg.max_points = 2;
  FrameTimer t{cfg};
  EXPECT_TRUE(t.admit_point(7));
  EXPECT_TRUE(t.admit_point(3));
  EXPECT_FALSE(t.admit_point(9));
  EXPECT_TRUE(t.admit_point(7));
  EXPECT_TRUE(t.admitted(3));
  EXPECT_FALSE(t.admitted(9));
}

TEST(FrameTimer, SweepsEveryQuarterOfTheIdleTime) {
  Config cfg;
  cfg.flow_idle_ns = 4'000;
  FrameTimer t{cfg};
  EXPECT_TRUE(t.sweep_due(100));  // the first record
  EXPECT_FALSE(t.sweep_due(1'099));
  EXPECT_TRUE(t.sweep_due(1'100));
  EXPECT_FALSE(t.sweep_due(2'000));
  cfg.flow_idle_ns = 0;  // roce.flow_idle_s:0, never forgotten
  FrameTimer never{cfg};
  EXPECT_FALSE(never.sweep_due(100));
}

}  // namespace
}  // namespace roceshark
