// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/pause.h"

#include <gtest/gtest.h>

namespace roceshark::gen {
namespace {

constexpr int64_t k25G = 25'000, k100G = 100'000, k400G = 400'000;

TEST(Pause, OneQuantumIs512BitTimes) {
  EXPECT_EQ(pause_ps(1, k100G), 5'120);   // 5.12 ns
  EXPECT_EQ(pause_ps(1, k25G), 20'480);   // 20.48 ns
  EXPECT_EQ(pause_ps(1, k400G), 1'280);   // 1.28 ns
  EXPECT_EQ(pause_ps(0, k100G), 0);
  EXPECT_EQ(rate_mbps(25), k25G);
  EXPECT_EQ(rate_mbps(400), k400G);
}

TEST(Pause, NanosecondsRoundUp) {
  // 0xFFFF quanta: 335,539.2 ns at 100G; a held frame may not leave before the end.
  EXPECT_EQ(pause_ps(0xFFFF, k100G), 335'539'200);
  EXPECT_EQ(pause_ns(0xFFFF, k100G), 335'540);
  EXPECT_EQ(pause_ns(0xFFFF, k25G), 1'342'157);   // 1,342,156.8 ns
  EXPECT_EQ(pause_ns(0xFFFF, k400G), 83'885);     // 83,884.8 ns
  EXPECT_EQ(pause_ns(1000, k100G), 5'120);        // exact: no rounding
  EXPECT_EQ(pause_ns(1, k400G), 2);               // 1.28 ns
  EXPECT_EQ(pause_ns(0, k400G), 0);
  // The same quanta last four times as long at a quarter of the speed.
  EXPECT_EQ(pause_ps(0x2000, k25G), 4 * pause_ps(0x2000, k100G));
  EXPECT_EQ(pause_ps(0x2000, k100G), 4 * pause_ps(0x2000, k400G));
}

std::array<uint16_t, 8> quanta(uint8_t cls, uint16_t q) {
  std::array<uint16_t, 8> a{};
  a[cls] = q;
  return a;
}

TEST(PauseWindows, XoffOpensAWindowForItsClassOnly) {
  PauseWindows w;
  EXPECT_FALSE(w.paused(3, 0));
  EXPECT_EQ(w.opener(3), 0u);
  w.apply(1 << 3, quanta(3, 1000), 100, k100G, 7);
  EXPECT_TRUE(w.paused(3, 100));
  EXPECT_TRUE(w.paused(3, 100 + 5'119));
  EXPECT_FALSE(w.paused(3, 100 + 5'120));  // the window is [t, t + 5.12 us)
  EXPECT_EQ(w.until(3), 100 + 5'120);
  EXPECT_EQ(w.opener(3), 7u);
  EXPECT_FALSE(w.paused(4, 200));  // other classes run
  EXPECT_FALSE(w.until(4));
}

TEST(PauseWindows, ClassesNotEnabledIgnoreTheirTimes) {
  PauseWindows w;
  std::array<uint16_t, 8> q{};
  q.fill(0xFFFF);
  w.apply(1 << 5, q, 0, k100G, 1);
  EXPECT_TRUE(w.paused(5, 1));
  for (uint8_t c : {uint8_t{0}, uint8_t{1}, uint8_t{2}, uint8_t{3}, uint8_t{4}, uint8_t{6}, uint8_t{7}})
    EXPECT_FALSE(w.paused(c, 1)) << int{c};
}

TEST(PauseWindows, RefreshReplacesTheWindowAndKeepsTheOpener) {
  PauseWindows w;
  w.apply(1 << 3, quanta(3, 0xFFFF), 0, k100G, 1);
  w.apply(1 << 3, quanta(3, 0xFFFF), 100'000, k100G, 2);  // a storm's next frame
  EXPECT_EQ(w.until(3), 100'000 + 335'540);
  EXPECT_EQ(w.opener(3), 1u);  // one pause, opened by the first XOFF
  EXPECT_TRUE(w.paused(3, 400'000));  // past the first window's end
  // A shorter refresh shortens it: the newest pause time counts.
  w.apply(1 << 3, quanta(3, 100), 200'000, k100G, 3);
  EXPECT_EQ(w.until(3), 200'000 + 512);
  EXPECT_FALSE(w.paused(3, 200'512));
  EXPECT_EQ(w.opener(3), 1u);
}

TEST(PauseWindows, AnXoffAfterTheWindowExpiredOpensANewPause) {
  PauseWindows w;
  w.apply(1 << 3, quanta(3, 1000), 0, k100G, 1);      // until 5,120
  w.apply(1 << 3, quanta(3, 1000), 5'120, k100G, 2);  // at the very end: still a refresh
  EXPECT_EQ(w.opener(3), 1u);
  w.apply(1 << 3, quanta(3, 1000), 10'241, k100G, 3);  // 1 ns after the end (10,240): a new pause
  EXPECT_EQ(w.opener(3), 3u);
  w.apply(1 << 3, quanta(3, 0), 11'000, k100G, 4);     // XON
  EXPECT_EQ(w.opener(3), 3u);
  w.apply(1 << 3, quanta(3, 1000), 11'000, k100G, 5);  // after an XON, even at once: a new pause
  EXPECT_EQ(w.opener(3), 5u);
}

TEST(PauseWindows, XonEndsTheWindowAtOnce) {
  PauseWindows w;
  w.apply(1 << 3 | 1 << 4, quanta(3, 0xFFFF), 0, k100G, 1);  // class 4 enabled with 0: XON for it
  EXPECT_TRUE(w.paused(3, 10));
  EXPECT_FALSE(w.paused(4, 10));
  w.apply(1 << 3, quanta(3, 0), 50, k100G, 2);
  EXPECT_FALSE(w.paused(3, 50));
  EXPECT_FALSE(w.until(3));
  EXPECT_EQ(w.opener(3), 1u);  // still names the pause that held frames
}

TEST(PauseWindows, LinkSpeedSetsTheLength) {
  PauseWindows slow, fast;
  slow.apply(1 << 3, quanta(3, 0x2000), 0, k25G, 1);
  fast.apply(1 << 3, quanta(3, 0x2000), 0, k400G, 1);
  EXPECT_EQ(slow.until(3), 167'773);  // 167,772.16 ns
  EXPECT_EQ(fast.until(3), 10'486);   // 10,485.76 ns
}

}  // namespace
}  // namespace roceshark::gen
