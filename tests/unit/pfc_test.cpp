// SPDX-License-Identifier: GPL-2.0-or-later
// PFC windows, storms, held packets and the configuration smells.
#include <gtest/gtest.h>

#include <limits>

#include "epan-ext/analysis/event_log.h"
#include "epan-ext/analysis/pfc_analyzer.h"

namespace roceshark::pfc {
namespace {

constexpr uint64_t us = 1000, ms = 1'000'000;
constexpr Mac kNic = {0x02, 0, 0, 0, 0, 0x0b};
constexpr Mac kOther = {0x02, 0, 0, 0, 0, 0x0c};
constexpr Mac kHost = {0x02, 0, 0, 0, 0, 0x0a};      // the transmitter at the other end of kNic's link
constexpr Mac kRouter = {0x02, 0, 0, 1, 0, 0x01};    // a switch's router MAC
constexpr Mac kPort = {0x02, 0, 0, 1, 0x10, 0x01};   // ... and the MAC its port sends PFC from

struct PfcTest : ::testing::Test {
  Config cfg;
  EventLog log;
  std::unique_ptr<PfcAnalyzer> a;
  uint32_t frame = 0;
  void SetUp() override { a = std::make_unique<PfcAnalyzer>(cfg, &log); }
  void reset() {
    log = {};
    a = std::make_unique<PfcAnalyzer>(cfg, &log);
  }

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
                   bool congestion = false, Mac from = kHost) {
    ++frame;
    RoceSighting r;
    r.point = point, r.ts_ns = t, r.src = from, r.dst = to, r.priority = prio, r.frame_len = 1100, r.flow = flow;
    r.data = true;
    r.loss_evidence = loss, r.congestion = congestion;
    return a->on_roce(r);
  }
  // A packet from `from` to `to` (the MACs at the point), on priority 3 at point 0.
  PacketPfc sent(uint64_t t, Mac from, Mac to, uint32_t flow = 1) { return packet(t, 3, to, 0, flow, false, false, from); }
  std::vector<Episode> episodes() {
    log.at_end(a->open_episodes(), {});
    return log.episodes();
  }
};

TEST(Quanta, OneQuantumIs512BitTimes) {
  EXPECT_EQ(quanta_to_ns(1, 100), 5u);  // 5.12 ns, rounded
  EXPECT_EQ(quanta_to_ns(0xFFFF, 100), 335539u);
  EXPECT_EQ(quanta_to_ns(0xFFFF, 25), 1342157u);
  EXPECT_EQ(quanta_to_ns(0xFFFF, 400), 83885u);
  EXPECT_EQ(quanta_to_ns(0, 100), 0u);
}

TEST(Quanta, SpeedsOutsideAnyLinkNeverConvertOutOfRange) {
  EXPECT_EQ(quanta_to_ns(0xFFFF, 0), 0u);
  EXPECT_EQ(quanta_to_ns(0xFFFF, -1), 0u);
  EXPECT_EQ(quanta_to_ns(0xFFFF, std::numeric_limits<double>::quiet_NaN()), 0u);
  EXPECT_EQ(quanta_to_ns(0xFFFF, std::numeric_limits<double>::infinity()), 0u);
  EXPECT_EQ(quanta_to_ns(0xFFFF, 1e-300), UINT64_MAX);
}

TEST_F(PfcTest, PerClassTimeAtThePointsSpeed) {
  cfg.point_gbps = {{1, 25.0}};
  reset();
  EXPECT_EQ(pause(0, 3, 1000, 0).pause_ns[3], 5120u);
  EXPECT_EQ(pause(0, 3, 1000, 1).pause_ns[3], 20480u);
}

// 2000 quanta at 100G: a window of 10.24 us. A 1100-byte frame takes 88 ns.
constexpr uint64_t kEnd = 20 * us + 10240;  // of a pause at 20 us

TEST_F(PfcTest, SilentThroughTheWindowThenReleasedIsHeld) {
  EXPECT_FALSE(sent(10 * us, kHost, kOther).held);  // before: proves nothing
  const uint32_t f = pause(20 * us, 3, 2000, 0, kNic).frame;
  const PacketPfc first = sent(kEnd + 88, kHost, kOther);  // the first out after expiry
  EXPECT_TRUE(first.held);
  EXPECT_EQ(first.pause_frame, f);
  EXPECT_EQ(first.stall_ns, 10240u);
  EXPECT_TRUE(sent(kEnd + 176, kHost, kOther, 2).held);  // another flow of the backlog, right behind
  EXPECT_FALSE(sent(kEnd + 5 * us, kHost, kOther).held);  // after the drain: it was not waiting
}

TEST_F(PfcTest, FlowingThroughTheWindowIsNotHeld) {
  pause(20 * us, 3, 2000, 0, kNic);
  EXPECT_FALSE(sent(25 * us, kOther, kHost, 2).held);  // keeps flowing: the other way
  // Its next packet comes right at the end: timing alone would take it for
  // backlog, but its side kept flowing.
  EXPECT_FALSE(sent(kEnd + 88, kOther, kHost, 2).held);
  EXPECT_TRUE(sent(kEnd + 176, kHost, kOther).held);  // the silent side is released
  EXPECT_FALSE(sent(kEnd + 264, kOther, kHost, 2).held);
}

TEST_F(PfcTest, NoTrafficAtAllIsNotHeldNorCounted) {
  pause(20 * us, 3, 2000, 0, kNic);
  const PacketPfc later = sent(60 * us, kHost, kOther);  // nothing in the window, nothing released
  EXPECT_FALSE(later.held);
  EXPECT_FALSE(later.unattributed);
  EXPECT_EQ(later.stall_ns, 0u);
}

TEST_F(PfcTest, FramesOnTheWireWhenThePauseArrivedProveNothing) {
  pause(20 * us, 3, 2000, 0, kNic);
  EXPECT_FALSE(sent(20 * us + 100, kHost, kOther).held);  // still in flight: not flowing evidence
  EXPECT_TRUE(sent(kEnd + 88, kHost, kOther).held);
}

TEST_F(PfcTest, OtherPriorityAndOtherLinkAreNotHeld) {
  pause(20 * us, 3, 2000, 0, kNic);
  EXPECT_FALSE(packet(kEnd + 88, 4).held);           // other priority
  EXPECT_FALSE(packet(kEnd + 88, 3, kNic, 1).held);  // other link
  EXPECT_TRUE(packet(kEnd + 176, 3).held);
}

TEST_F(PfcTest, ThePausersOwnFramesGoTheOtherWay) {
  pause(20 * us, 3, 2000, 0, kNic);
  EXPECT_FALSE(sent(kEnd + 88, kNic, kHost).held);
}

// L2-bridged: the frames keep the hosts' MACs, the switch port (kPort)
// pauses host kHost's transmitter; kHost sends to kOther, kOther to kHost.
TEST_F(PfcTest, BridgedFabricHoldsWhatThePauseSilenced) {
  sent(10 * us, kHost, kOther);
  sent(11 * us, kOther, kHost, 2);
  pause(20 * us, 3, 2000, 0, kPort);
  for (uint64_t t = 22 * us; t < kEnd; t += 2 * us) EXPECT_FALSE(sent(t, kOther, kHost, 2).held);
  EXPECT_TRUE(sent(kEnd + 88, kHost, kOther).held);      // no MAC of it is the pauser's
  EXPECT_FALSE(sent(kEnd + 120, kOther, kHost, 2).held);  // the other way, still flowing
  EXPECT_TRUE(sent(kEnd + 176, kHost, kOther).held);
}

// Routed, PFC from the port MAC while frames go to the router MAC.
TEST_F(PfcTest, PortMacDifferentFromTheRouterMac) {
  pause(20 * us, 3, 2000, 0, kPort);
  for (uint64_t t = 22 * us; t < kEnd; t += 2 * us) EXPECT_FALSE(sent(t, kRouter, kHost, 2).held);
  const PacketPfc held = sent(kEnd + 88, kHost, kRouter);
  EXPECT_TRUE(held.held);
  EXPECT_EQ(held.stall_ns, 10240u);
  // The answer to what was released comes back from the router: the other way.
  EXPECT_FALSE(sent(kEnd + 150, kRouter, kHost, 2).held);
}

TEST_F(PfcTest, WhatASideShowsHoldsForLaterPausesOfThatPort) {
  pause(20 * us, 3, 2000, 0, kPort);
  sent(25 * us, kRouter, kHost, 2);  // flows through the first pause
  pause(100 * us, 3, 2000, 0, kPort);
  // Nothing flowed in the second window, but the router's side did before.
  EXPECT_FALSE(sent(100 * us + 10240 + 88, kRouter, kHost, 2).held);
}

TEST_F(PfcTest, ConflictingSidesAreUnattributed) {
  constexpr Mac kThird = {0x02, 0, 0, 0, 0, 0x0d};
  pause(20 * us, 3, 2000, 0, kPort);
  sent(25 * us, kThird, kHost, 2);                   // kThird's side flows towards kHost's
  EXPECT_TRUE(sent(kEnd + 88, kHost, kOther).held);  // kHost's side was silenced
  // kOther received what was released, kThird sent through the window: both
  // on the far side, yet a frame between them crosses the link.
  const PacketPfc odd = sent(kEnd + 176, kOther, kThird, 3);
  EXPECT_FALSE(odd.held);
  EXPECT_TRUE(odd.unattributed);
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

// 64 ports of one class at one point pausing at once are all judged; a
// 65th drops the oldest window (Cap::pause_windows), which is counted so
// that the report says INCOMPLETE. Windows that ended are not counted.
TEST_F(PfcTest, LivePauseWindowsPastTheCapAreCounted) {
  const auto port = [](uint32_t i) { return Mac{0x02, 0, 0, 2, static_cast<uint8_t>(i >> 8), static_cast<uint8_t>(i)}; };
  for (uint32_t i = 0; i < 64; ++i) pause(i * us, 3, 0xffff, 0, port(i));
  EXPECT_EQ(a->live_dropped(), 0u);
  pause(64 * us, 3, 0xffff, 0, port(64));
  EXPECT_EQ(a->live_dropped(), 1u);
  pause(65 * us, 3, 0xffff, 1, port(65));  // another point: its own windows
  EXPECT_EQ(a->live_dropped(), 1u);
  reset();
  for (uint32_t i = 0; i < 200; ++i) pause(i * ms, 3, 10, 0, port(i));  // one at a time, each over
  EXPECT_EQ(a->live_dropped(), 0u);
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

// Short XOFF/XON pairs every 50 us: one episode (gaps under storm_gap),
// paused 10% of it. Each XOFF announces 335 us; only what was asserted up
// to the frame counts, so the announced pause does not make it a storm.
TEST_F(PfcTest, PauseChatterIsNoStorm) {
  int starts = 0;
  for (uint64_t t = 0; t < 3 * ms; t += 50 * us) {
    const PauseVerdict& v = pause(t, 3, 0xFFFF);
    EXPECT_EQ(v.storm, 0u) << t;
    EXPECT_EQ(static_cast<bool>(v.chatter), t >= cfg.storm_ns) << t;
    starts += v.chatter_start != 0;
    pause(t + 5 * us, 3, 0);
  }
  EXPECT_EQ(starts, 1);
  const auto e = episodes();
  ASSERT_EQ(e.size(), 1u);
  EXPECT_FALSE(e[0].storm);
  EXPECT_TRUE(e[0].chatter);
  EXPECT_EQ(e[0].paused_ns, 60 * 5 * us);
}

// Paused 90 us of every 100 us: exactly roce.storm_share_pct (90) is a
// storm, 89 us is chatter.
TEST_F(PfcTest, StormNeedsThePausedShare) {
  for (uint64_t on : {90 * us, 89 * us}) {
    reset();
    bool storm = false, chatter = false;
    for (uint64_t t = 0; t <= 2 * ms; t += 100 * us) {
      const PauseVerdict& v = pause(t, 3, 0xFFFF);
      storm |= v.storm_start != 0, chatter |= v.chatter != 0;
      pause(t + on, 3, 0);
    }
    EXPECT_EQ(storm, on == 90 * us) << on;
    EXPECT_EQ(chatter, on != 90 * us) << on;
    const auto e = episodes();
    ASSERT_EQ(e.size(), 1u);
    EXPECT_EQ(e[0].storm, on == 90 * us);
    EXPECT_EQ(e[0].chatter, on != 90 * us);
  }
}

// An episode shorter than storm_ns is neither, whatever its share.
TEST_F(PfcTest, ShortEpisodesAreNeitherStormNorChatter) {
  for (uint64_t t = 0; t < 500 * us; t += 50 * us) pause(t, 3, 100), pause(t + 1 * us, 3, 0);
  const auto e = episodes();
  ASSERT_EQ(e.size(), 1u);
  EXPECT_FALSE(e[0].storm);
  EXPECT_FALSE(e[0].chatter);
}

TEST_F(PfcTest, StallIsTheUnionOfPauseTimeThatHeldTheFlow) {
  pause(0, 3, 0xFFFF);
  pause(100 * us, 3, 0);  // XON
  EXPECT_EQ(packet(100 * us + 88, 3).stall_ns, 100 * us);
  EXPECT_EQ(packet(100 * us + 176, 3).stall_ns, 0u);  // counted once per flow
  EXPECT_EQ(packet(100 * us + 264, 3, kNic, 0, 2).stall_ns, 100 * us);  // another flow gets its own
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
  ASSERT_EQ(log.propagations().size(), 1u);
  EXPECT_EQ(log.propagations()[0].to_point, 1u);
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
  ASSERT_EQ(log.propagations().size(), 1u);
  EXPECT_EQ(log.propagations()[0].delay_ns, 301 * us);
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
  EXPECT_EQ(packet(650 * us + 10240 + 88, 3).pause_frame, next);
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
