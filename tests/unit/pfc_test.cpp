// SPDX-License-Identifier: GPL-2.0-or-later
// PFC windows, storms, held packets and the configuration smells.
#include <gtest/gtest.h>

#include "epan-ext/pfc_analyzer.h"

namespace roceshark::pfc {
namespace {

constexpr uint64_t us = 1000, ms = 1'000'000;
constexpr Mac kNic = {0x02, 0, 0, 0, 0, 0x0b};
constexpr Mac kOther = {0x02, 0, 0, 0, 0, 0x0c};

struct PfcTest : ::testing::Test {
  Config cfg;
  std::unique_ptr<PfcAnalyzer> a;
  uint32_t frame = 0;
  void SetUp() override { a = std::make_unique<PfcAnalyzer>(cfg); }
  void reset() { a = std::make_unique<PfcAnalyzer>(cfg); }

  const PauseVerdict& pause(uint64_t t, uint8_t prio, uint16_t quanta, uint32_t point = 0, Mac from = kNic) {
    PauseFrame f;
    f.frame = ++frame;
    f.ts_ns = t;
    f.point = point;
    f.src = from;
    f.dst = kPfcDestination;
    f.enable = static_cast<uint16_t>(1u << prio);
    f.quanta[prio] = quanta;
    return a->process(f);
  }
  PacketPfc packet(uint64_t t, uint8_t prio, Mac to = kNic, uint32_t point = 0, uint32_t flow = 1, bool loss = false,
                   bool congestion = false) {
    ++frame;
    RoceSighting r;
    r.point = point, r.ts_ns = t, r.dst = to, r.priority = prio, r.frame_len = 1100, r.flow = flow, r.data = true;
    r.loss_evidence = loss, r.congestion = congestion;
    return a->on_roce(r);
  }
  std::vector<Episode> episodes() const { return a->tracker().episodes(); }
};

TEST(Quanta, OneQuantumIs512BitTimes) {
  EXPECT_EQ(quanta_to_ns(1, 100), 5u);  // 5.12 ns, rounded
  EXPECT_EQ(quanta_to_ns(0xFFFF, 100), 335539u);
  EXPECT_EQ(quanta_to_ns(0xFFFF, 25), 1342157u);
  EXPECT_EQ(quanta_to_ns(0xFFFF, 400), 83885u);
  EXPECT_EQ(quanta_to_ns(0, 100), 0u);
}

TEST_F(PfcTest, PerClassTimeAtThePointsSpeed) {
  cfg.point_gbps = {{1, 25.0}};
  reset();
  EXPECT_EQ(pause(0, 3, 1000, 0).pause_ns[3], 5120u);
  EXPECT_EQ(pause(0, 3, 1000, 1).pause_ns[3], 20480u);
}

TEST_F(PfcTest, HoldsTrafficTowardsThePausingMacOnThatPriorityOnly) {
  const uint32_t f = pause(0, 3, 0xFFFF).frame;
  const PacketPfc held = packet(100 * us, 3);
  EXPECT_TRUE(held.held);
  EXPECT_EQ(held.pause_frame, f);
  EXPECT_FALSE(packet(100 * us, 4).held);           // other priority
  EXPECT_FALSE(packet(100 * us, 3, kOther).held);   // other direction
  EXPECT_FALSE(packet(100 * us, 3, kNic, 1).held);  // other link
}

TEST_F(PfcTest, BacklogDrainsBackToBackAfterTheWindow) {
  pause(0, 3, 2000);  // 10.24 us
  EXPECT_TRUE(packet(10 * us + 500, 3).held);  // first out after expiry
  EXPECT_TRUE(packet(10 * us + 700, 3).held);  // right behind it
  EXPECT_FALSE(packet(50 * us, 3).held);       // a later packet was not waiting
}

TEST_F(PfcTest, RefreshMergesAndCountsTimeOnce) {
  pause(0, 3, 0xFFFF);                // 0 .. 335.5 us
  pause(100 * us, 3, 0xFFFF);         // refresh: 100 .. 435.5 us
  const auto e = episodes();
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].paused_ns, 100 * us + 335539);
  EXPECT_EQ(e[0].frames, 2u);
}

TEST_F(PfcTest, XonEndsTheWindowEarly) {
  pause(0, 3, 0xFFFF);
  EXPECT_TRUE(pause(50 * us, 3, 0).xon & (1u << 3));
  const auto e = episodes();
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].paused_ns, 50 * us);
  EXPECT_EQ(e[0].end_ns, 50 * us);
  EXPECT_FALSE(packet(200 * us, 3).held);
}

TEST_F(PfcTest, XonWithNoPauseChangesNothing) {
  pause(0, 3, 0);
  EXPECT_TRUE(episodes().empty());
  EXPECT_FALSE(packet(1 * us, 3).held);
}

TEST_F(PfcTest, GapsUnderTheStormGapJoinAnEpisode) {
  pause(0, 3, 2000);           // ends at 10.24 us
  pause(60 * us, 3, 2000);     // gap 49.8 us < 100 us: same episode
  pause(300 * us, 3, 2000);    // gap 229.5 us: a new one
  const auto e = episodes();
  ASSERT_EQ(e.size(), 2u);
  EXPECT_EQ(e[0].frames, 2u);
  EXPECT_EQ(e[0].paused_ns, 2 * 10240u);  // the gap is not paused time
}

TEST_F(PfcTest, StormStartsAtTheFrameThatCrossesTheThreshold) {
  uint32_t marked = 0;
  for (uint64_t t = 0; t <= 2 * ms; t += 100 * us) {
    const PauseVerdict& v = pause(t, 3, 0xFFFF);
    if (v.storm_start) {
      EXPECT_EQ(marked, 0u);
      marked = v.frame;
      EXPECT_EQ(t, cfg.storm_ns);  // exactly at the threshold counts
    }
    EXPECT_EQ(static_cast<bool>(v.storm), t >= cfg.storm_ns);
  }
  EXPECT_NE(marked, 0u);
  const auto e = episodes();
  ASSERT_EQ(e.size(), 1u);
  EXPECT_TRUE(e[0].storm);
  EXPECT_EQ(e[0].start_ns, 0u);  // the storm's true start
  EXPECT_EQ(e[0].storm_frame, marked);
}

TEST_F(PfcTest, JustUnderTheThresholdIsNoStorm) {
  pause(0, 3, 0xFFFF);
  EXPECT_FALSE(pause(cfg.storm_ns - 1, 3, 0).storm);
  EXPECT_FALSE(episodes()[0].storm);
}

TEST_F(PfcTest, StallIsTheUnionOfPauseTimeThatHeldTheFlow) {
  pause(0, 3, 0xFFFF);
  EXPECT_EQ(packet(100 * us, 3).stall_ns, 100 * us);
  EXPECT_EQ(packet(150 * us, 3).stall_ns, 50 * us);  // only what it adds
  EXPECT_EQ(packet(150 * us, 3, kNic, 0, 2).stall_ns, 150 * us);  // another flow gets its own
}

TEST_F(PfcTest, WrongClassIsReportedOnce) {
  packet(0, 3);  // RoCE on priority 3
  const PauseVerdict& v = pause(10 * us, 4, 100);
  EXPECT_EQ(v.wrong_class_first, 1u << 4);
  EXPECT_EQ(v.wrong_class_roce, 1u << 3);
  EXPECT_EQ(pause(20 * us, 4, 100).wrong_class_first, 0u);
}

TEST_F(PfcTest, WrongClassFoundByTheRoceSide) {
  pause(0, 4, 100);
  EXPECT_EQ(packet(10 * us, 3).wrong_class_pfc, 1u << 4);
  EXPECT_EQ(packet(11 * us, 3).wrong_class_pfc, 0u);
}

TEST_F(PfcTest, RightClassIsNotWrong) {
  packet(0, 3);
  EXPECT_EQ(pause(10 * us, 3, 100).wrong_class_first, 0u);
}

TEST_F(PfcTest, LossOnAPriorityWithoutPfc) {
  EXPECT_TRUE(packet(0, 0, kNic, 0, 1, true).lossy_first);
  EXPECT_FALSE(packet(1 * us, 0, kNic, 0, 1, true).lossy_first);  // once per point and priority
  EXPECT_TRUE(packet(2 * us, 0, kNic, 1, 1, true).lossy_first);
  pause(3 * us, 5, 100);
  EXPECT_FALSE(packet(4 * us, 5, kNic, 0, 1, true).lossy_first);  // priority 5 has PFC
}

TEST_F(PfcTest, PauseWithoutEcnBeforeIt) {
  const PauseVerdict& first = pause(0, 3, 100);
  EXPECT_EQ(first.no_ecn, 1u << 3);
  EXPECT_EQ(first.no_ecn_first, 1u << 3);
  packet(10 * ms, 3, kOther, 0, 1, false, true);  // CE seen on the link
  EXPECT_EQ(pause(10 * ms + 100 * us, 3, 100).no_ecn, 0u);
  const PauseVerdict& late = pause(20 * ms, 3, 100);  // CE 10 ms ago: too long
  EXPECT_EQ(late.no_ecn, 1u << 3);
  EXPECT_EQ(late.no_ecn_first, 0u);  // reported once for this MAC and priority
}

TEST_F(PfcTest, PauseFollowingAStormElsewhereIsPropagation) {
  for (uint64_t t = 0; t <= 2 * ms; t += 100 * us) pause(t, 3, 0xFFFF, 0);
  const PauseVerdict& up = pause(2 * ms + 50 * us, 3, 0xFFFF, 1, kOther);
  EXPECT_EQ(up.propagation, 1u << 3);
  EXPECT_EQ(up.propagation_point, 0u);
  ASSERT_EQ(a->propagations().size(), 1u);
  EXPECT_EQ(a->propagations()[0].to_point, 1u);
  EXPECT_EQ(pause(9 * ms, 3, 100, 2, kOther).propagation, 0u);  // long after the storm
}

TEST_F(PfcTest, APauseThatBeganBeforeTheStormWasKnownIsLinkedLater) {
  // leaf (point 0) pauses from 0; the host link (point 1) from 300 us; the
  // leaf's pause becomes a storm only at 1 ms.
  uint32_t linked = 0;
  for (uint64_t t = 0; t <= 1500 * us; t += 100 * us) {
    pause(t, 3, 0xFFFF, 0);
    if (t >= 300 * us) {
      const PauseVerdict& up = pause(t + 1 * us, 3, 0xFFFF, 1, kOther);
      if (up.propagation) {
        EXPECT_EQ(linked, 0u);  // once
        linked = up.frame;
        EXPECT_GE(t, cfg.storm_ns);
      }
    }
  }
  ASSERT_NE(linked, 0u);
  ASSERT_EQ(a->propagations().size(), 1u);
  EXPECT_EQ(a->propagations()[0].delay_ns, 301 * us);
}

TEST_F(PfcTest, BadFramesAreFlaggedAndReadAsFarAsPossible) {
  PauseFrame f;
  f.frame = ++frame;
  f.dst = kOther;
  f.enable = 0x0108;  // reserved bit 8, class 3
  f.quanta[3] = 10;
  const PauseVerdict& v = a->process(f);
  EXPECT_TRUE(v.reserved_bits);
  EXPECT_TRUE(v.nonstandard_dst);
  EXPECT_EQ(v.enabled, 1u << 3);
  PauseFrame cut;
  cut.frame = ++frame;
  cut.dst = kPfcDestination;
  cut.enable = 0x0018;  // classes 3 and 4
  cut.captured = 4;     // only classes 0-3 made it into the capture
  cut.quanta[3] = 10;
  const PauseVerdict& t = a->process(cut);
  EXPECT_TRUE(t.truncated);
  EXPECT_EQ(t.enabled, 1u << 3);
}

TEST_F(PfcTest, RuntsAndOtherMulticastDestinationsPauseNothing) {
  PauseFrame runt;
  runt.frame = ++frame;
  runt.dst = kPfcDestination;
  runt.enable = 1u << 3;
  runt.quanta[3] = 0xFFFF;
  runt.wire_len = 30;
  EXPECT_TRUE(a->process(runt).ignored);
  EXPECT_FALSE(packet(1 * us, 3).held);
  PauseFrame bcast = runt;
  bcast.frame = ++frame;
  bcast.wire_len = 60;
  bcast.dst = {0xff, 0xff, 0xff, 0xff, 0xff, 0xff};
  EXPECT_TRUE(a->process(bcast).ignored);
  EXPECT_FALSE(packet(2 * us, 3).held);
  EXPECT_TRUE(episodes().empty());
}

TEST_F(PfcTest, PauseFrameIsTheOneThatOpenedThePause) {
  const uint32_t first = pause(0, 3, 0xFFFF).frame;
  for (uint64_t t = 100 * us; t < 600 * us; t += 100 * us) pause(t, 3, 0xFFFF);
  pause(600 * us, 3, 0);  // XON releases the backlog
  EXPECT_EQ(packet(600 * us + 200, 3).pause_frame, first);
  // After a gap (even one that keeps the episode going), the next pause is its own.
  const uint32_t next = pause(650 * us, 3, 2000).frame;
  EXPECT_EQ(packet(651 * us, 3).pause_frame, next);
  EXPECT_EQ(episodes().size(), 1u);
}

TEST_F(PfcTest, ManyPausingMacsEachKeepTheirOwnWindow) {
  // Many pausing MACs: each frame touches its own window only (no scan).
  for (uint32_t i = 0; i < 20000; ++i) {
    Mac m = kNic;
    m[3] = static_cast<uint8_t>(i >> 8);
    m[4] = static_cast<uint8_t>(i);
    pause(i * us, 3, 100, 0, m);
  }
  EXPECT_EQ(episodes().size(), 20000u);
}

}  // namespace
}  // namespace roceshark::pfc
