// SPDX-License-Identifier: GPL-2.0-or-later
// Matching one packet's copies across capture points: hops, loss, order.
#include <gtest/gtest.h>

#include <memory>
#include <span>

#include "epan-ext/analysis/hop_matcher.h"
#include "epan-ext/report/hop_stats.h"

namespace roceshark::hop {
namespace {

constexpr uint64_t us = 1000, ms = 1'000'000;
constexpr uint32_t kA = 1, kB = 2, kC = 3;
constexpr uint32_t kNone = UINT32_MAX;

struct HopTest : ::testing::Test {
  Config cfg;
  EventLog log;
  std::unique_ptr<HopMatcher> m;
  uint32_t frame = 0;
  void SetUp() override { m = std::make_unique<HopMatcher>(cfg, &log); }
  void reset() {
    log = {};
    m = std::make_unique<HopMatcher>(cfg, &log);
  }
  // The losses the events add up to, every frame selected.
  HopLoss losses(const HopKey& k) const {
    FrameSet all;
    for (uint32_t f = 1; f <= frame; ++f) all.add(f);
    HopStats s;
    s.settle(log, all);
    const auto by_flow = s.flow_losses();
    return by_flow.contains(k) ? by_flow.at(k) : HopLoss{};
  }

  // One copy of packet `id` of `flow` at `point`; `tweak` edits its marking.
  std::optional<HopVerdict> see(uint64_t id, uint32_t point, uint64_t t, uint32_t flow = 0, uint32_t reverse = kNone,
                                void (*tweak)(Copy&) = nullptr) {
    Copy c;
    c.point = point;
    c.frame = ++frame;
    c.ts_ns = t;
    c.dscp = 26;
    c.ecn = 2;
    c.ttl = 64;
    if (tweak) tweak(c);
    return m->on_packet(id, flow, reverse, c);
  }
  void bursts(std::span<const uint64_t> latency, std::span<const bool> burst, std::span<const bool> start);
};

TEST_F(HopTest, SecondPointCopyNamesTheFirst) {
  EXPECT_FALSE(see(7, kA, 10 * us));
  auto v = see(7, kB, 12 * us);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->prev_point, kA);
  EXPECT_EQ(v->prev_frame, 1u);
  EXPECT_EQ(v->latency_ns, int64_t(2 * us));
  EXPECT_EQ(v->queue_ns, 0u);
  EXPECT_FALSE(v->remarked);
  EXPECT_FALSE(v->negative);
  EXPECT_EQ(v->first_point, kA);
  EXPECT_EQ(m->hops().at({kA, kB, 0}).min_latency_ns, int64_t(2 * us));
}

TEST_F(HopTest, SinglePointCaptureNeverMatches) {
  for (uint64_t i = 0; i < 1000; ++i) EXPECT_FALSE(see(i % 10, kA, i * us));  // retransmissions included
  EXPECT_FALSE(m->active());
  EXPECT_EQ(m->open_groups(), 0u);
  EXPECT_TRUE(m->hops().empty());
}

TEST_F(HopTest, PacketsBeforeTheSecondPointAppearsStillMatch) {
  see(1, kA, 0);
  see(2, kA, 1 * us);
  EXPECT_FALSE(m->active());
  auto v1 = see(1, kB, 2 * us);
  EXPECT_TRUE(m->active());
  ASSERT_TRUE(v1);
  EXPECT_EQ(v1->prev_frame, 1u);
  auto v2 = see(2, kB, 3 * us);
  ASSERT_TRUE(v2);
  EXPECT_EQ(v2->prev_frame, 2u);
}

TEST_F(HopTest, RetransmissionsMatchCopyToCopy) {
  // The same PSN sent twice: the k-th copy at A is the k-th at B.
  see(5, kA, 0);            // frame 1
  see(5, kB, 2 * us);       // frame 2
  see(5, kA, 100 * us);     // frame 3: the resend
  auto v = see(5, kB, 103 * us);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->prev_frame, 3u);
  EXPECT_EQ(v->latency_ns, int64_t(3 * us));
  EXPECT_EQ(v->queue_ns, 1 * us);  // above the hop's 2 us minimum
}

// Copies that bytes cannot tell apart (IPv6, or IPv4 ID 0): PSN 101's
// original (id 2) is lost between A and B, so B's only copy of it is the
// resend. Each copy says whether its point's sequence analysis calls it a
// resend.
struct Identical {
  HopTest& t;
  std::optional<HopVerdict> see(uint64_t id, uint32_t point, uint64_t at, bool resend = false) {
    Copy c;
    c.point = point, c.frame = ++t.frame, c.ts_ns = at, c.ttl = 64, c.resend = resend;
    return t.m->on_packet(id, 0, kNone, c);
  }
};

TEST_F(HopTest, ResendThatIsTheOnlyDownstreamCopyMatchesTheUpstreamResend) {
  Identical i{*this};
  i.see(1, kA, 0);                      // frame 1: 100
  i.see(2, kA, 1 * us);                 // frame 2: 101, lost before B
  i.see(3, kA, 2 * us);                 // frame 3: 102
  i.see(1, kB, 3 * us);                 // frame 4
  i.see(3, kB, 5 * us);                 // frame 5: 101 taken as lost
  i.see(2, kA, 50 * us, true);          // frame 6: go-back-N resend of 101
  i.see(3, kA, 51 * us, true);          // frame 7: and of 102
  auto v = i.see(2, kB, 53 * us, true);  // frame 8: B's only copy of 101, a resend there
  ASSERT_TRUE(v);
  EXPECT_EQ(v->prev_frame, 6u);
  EXPECT_EQ(v->latency_ns, int64_t(3 * us));
  EXPECT_FALSE(v->overtaken);
  auto w = i.see(3, kB, 54 * us, true);  // frame 9: B's second copy of 102
  ASSERT_TRUE(w);
  EXPECT_EQ(w->prev_frame, 7u);
  EXPECT_EQ(w->latency_ns, int64_t(3 * us));
  EXPECT_TRUE(log.lost_after(2));   // the original is the loss
  EXPECT_FALSE(log.lost_after(6));  // not the resend
  const HopLoss h = losses({kA, kB, 0});
  EXPECT_EQ(h.lost, 1u);
  EXPECT_EQ(h.reordered, 0u);
}

TEST_F(HopTest, OfSeveralUpstreamResendsTheOneStillInFlightMatches) {
  // 101's original and first resend are both lost before B: B's one copy is
  // the second resend, the upstream copy that has not yet reached B.
  Identical i{*this};
  i.see(1, kA, 0);                       // frame 1
  i.see(2, kA, 1 * us);                  // frame 2: lost
  i.see(3, kA, 2 * us);                  // frame 3
  i.see(1, kB, 3 * us);
  i.see(3, kB, 5 * us);
  i.see(2, kA, 50 * us, true);           // frame 6: first resend, lost
  i.see(3, kA, 51 * us, true);           // frame 7
  i.see(3, kB, 54 * us, true);           // frame 8: 6 taken as lost
  i.see(2, kA, 100 * us, true);          // frame 9: second resend
  auto v = i.see(2, kB, 103 * us, true);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->prev_frame, 9u);
  EXPECT_EQ(v->latency_ns, int64_t(3 * us));
  EXPECT_FALSE(v->overtaken);
  EXPECT_TRUE(log.lost_after(2));
  EXPECT_TRUE(log.lost_after(6));
  EXPECT_EQ(losses({kA, kB, 0}).reordered, 0u);
}

TEST_F(HopTest, OvertakenOriginalStillMatchesTheOriginal) {
  // Reordering, not loss: B's late copy of 101 is an original there too.
  Identical i{*this};
  i.see(1, kA, 0);
  i.see(2, kA, 1 * us);                  // frame 2
  i.see(3, kA, 2 * us);
  i.see(1, kB, 3 * us);
  i.see(3, kB, 5 * us);                  // 2 taken as lost ...
  auto v = i.see(2, kB, 6 * us);         // ... and arrives: overtaken
  ASSERT_TRUE(v);
  EXPECT_EQ(v->prev_frame, 2u);
  EXPECT_TRUE(v->overtaken);
  EXPECT_EQ(losses({kA, kB, 0}).lost, 0u);
}

TEST_F(HopTest, CopiesOutsideTheWindowAreForgotten) {
  cfg.match_window_ns = 1 * ms;
  reset();
  see(9, kA, 0);
  see(8, kB, 0);  // activates matching
  EXPECT_FALSE(see(9, kB, 2 * ms));
  // Open state stays bounded by the window, however long the capture.
  for (uint64_t i = 0; i < 20000; ++i) see(100 + i, i % 2 ? kA : kB, 2 * ms + i * 10 * us);
  EXPECT_LE(m->open_groups(), 1 * ms / (10 * us) + 2);
}

TEST_F(HopTest, HostileRepetitionStaysBounded) {
  // One packet a hundred thousand times at two points: copies beyond the
  // cap are not matched, and nothing grows with the repetition.
  size_t matched = 0;
  for (uint64_t i = 0; i < 100000; ++i) matched += see(42, i % 2 ? kB : kA, i).has_value();
  EXPECT_EQ(m->open_groups(), 1u);
  EXPECT_LE(matched, 16u);
  EXPECT_GT(matched, 0u);
  EXPECT_EQ(m->copies_unmatched(), 100000u - 16);  // Cap::copies: a limit in the report
}

// Sixteen copies of one packet (sixteen points of one path) are within the
// cap; the seventeenth is not matched and is counted (Cap::copies).
TEST_F(HopTest, CopiesPastTheCapAreCounted) {
  for (uint32_t p = 0; p < 16; ++p) see(7, 10 + p, p * us);
  EXPECT_EQ(m->copies_unmatched(), 0u);
  EXPECT_FALSE(see(7, 40, 20 * us).has_value());
  EXPECT_EQ(m->copies_unmatched(), 1u);
}

TEST_F(HopTest, LossBetweenPointsIsTheGapInTheFlowsOrder) {
  see(1, kA, 0);             // frame 1
  see(2, kA, 1 * us);        // frame 2: never reaches B
  see(1, kB, 2 * us);        // frame 3
  see(3, kA, 2500);          // frame 4
  EXPECT_FALSE(log.lost_after(2));  // not yet known: B might still see it
  see(3, kB, 4500);          // frame 5: a later packet arrived, so 2 was lost
  EXPECT_TRUE(log.lost_after(2));
  EXPECT_FALSE(log.lost_after(1));
  EXPECT_FALSE(log.lost_after(4));
  const HopLoss h = losses({kA, kB, 0});
  EXPECT_EQ(h.lost, 1u);
  EXPECT_EQ(h.first_loss_frame, 2u);
}

TEST_F(HopTest, UnmatchedTailIsNotCountedAsLoss) {
  see(1, kA, 0);
  see(1, kB, 2 * us);
  see(2, kA, 10 * us);  // the capture ends before B sees it
  EXPECT_EQ(losses({kA, kB, 0}).lost, 0u);
  EXPECT_FALSE(log.lost_after(3));
}


// Requests 100, 101 and 102 pass A (frames 1, 2, 4); B sees 100 and 102
// (3, 5), so 101 (frame 2) is taken as lost; it is a resend when `resend`.
void lose_101(HopTest& t, bool resend = false) {
  const auto req = [&](uint64_t id, uint32_t point, uint64_t at, uint32_t psn, bool again = false) {
    Copy c;
    c.point = point, c.frame = ++t.frame, c.ts_ns = at, c.ttl = 64;
    c.psn = psn, c.original_request = !again;
    t.m->on_packet(id, 0, kNone, c);
  };
  req(1, kA, 0, 100);
  req(2, kA, 1 * us, 101, resend);
  req(1, kB, 2 * us, 100);
  req(3, kA, 2 * us, 102);
  req(3, kB, 4 * us, 102);
}

TEST_F(HopTest, LossTheResponderAcknowledgedBeforeAnyResendWasTheTapsMiss) {
  lose_101(*this);  // B's tap missed it
  ASSERT_TRUE(log.lost_after(2));
  m->acknowledged(0, 100, 90, kA);  // covers 100 only: 101 is still lost
  EXPECT_TRUE(log.lost_after(2));
  EXPECT_EQ(losses({kA, kB, 0}).lost, 1u);
  m->acknowledged(0, 102, 91, kB);  // at B: B's clock says nothing of A's resends
  EXPECT_TRUE(log.lost_after(2));
  m->acknowledged(0, 102, 92, kA);  // at A, no resend of 101 passed before it: the responder had it
  EXPECT_FALSE(log.lost_after(2));
  const HopLoss h = losses({kA, kB, 0});
  EXPECT_EQ(h.lost, 0u);
  EXPECT_EQ(h.reordered, 0u);  // not overtaken either
  ASSERT_EQ(log.hop_changes().size(), 2u);
  EXPECT_TRUE(log.hop_changes()[1].missed);
}

TEST_F(HopTest, CopiesTheTapMissedAreCountedAtTheDownstreamPoint) {
  lose_101(*this);
  m->acknowledged(0, 102, 92, kA);
  FrameSet all;
  for (uint32_t f = 1; f <= frame; ++f) all.add(f);
  HopStats s;
  s.settle(log, all);
  ASSERT_EQ(s.missed().size(), 1u);
  EXPECT_EQ(s.missed().at(kB), 1u);
  HopStats none;  // the filter dropped the lost frame: nothing to say
  none.settle(log, FrameSet{});
  EXPECT_TRUE(none.missed().empty());
}

// B's tap misses 65 requests of one flow in a row: 64 suspects are kept,
// the oldest is let go and stays a loss although the ACK proves every one
// arrived (Cap::suspects); the count makes the report INCOMPLETE.
TEST_F(HopTest, SuspectsPastTheCapAreCounted) {
  const auto req = [&](uint64_t id, uint32_t point, uint64_t at) {
    Copy c;
    c.point = point, c.frame = ++frame, c.ts_ns = at, c.ttl = 64;
    c.psn = static_cast<uint32_t>(id), c.original_request = true;
    m->on_packet(id, 0, kNone, c);
  };
  req(0, kA, 0);
  req(0, kB, 1 * us);
  for (uint64_t id = 1; id <= 65; ++id) req(id, kA, id * us);
  req(66, kA, 70 * us);
  req(66, kB, 71 * us);
  EXPECT_EQ(losses({kA, kB, 0}).lost, 65u);
  EXPECT_EQ(m->suspects_dropped(), 1u);
  m->acknowledged(0, 66, 200, kA);
  EXPECT_EQ(losses({kA, kB, 0}).lost, 1u);  // the one let go
}

TEST_F(HopTest, LossWhosePsnWasResentStandsWhateverTheAck) {
  lose_101(*this);
  m->resent(0, 101);  // the requester resent it: the first copy was lost
  m->acknowledged(0, 102, 90, kA);
  EXPECT_TRUE(log.lost_after(2));
  EXPECT_EQ(losses({kA, kB, 0}).lost, 1u);
}

TEST_F(HopTest, LostResendIsNotProvenArrivedByAnAck) {
  // The ACK may answer the original; the resend's own copy was still lost.
  lose_101(*this, true);
  m->acknowledged(0, 102, 90, kA);
  EXPECT_TRUE(log.lost_after(2));
}

TEST_F(HopTest, SuspectsOfAReusedQpAreForgotten) {
  lose_101(*this);
  m->forget_suspects(0);      // a new connection on the QP: its ACKs say nothing of the old PSNs
  m->acknowledged(0, 500, 90, kA);
  EXPECT_TRUE(log.lost_after(2));
}

TEST_F(HopTest, MarkingChangesAreReportedOncePerHop) {
  see(1, kA, 0);
  auto v = see(1, kB, 2 * us, 0, kNone, [](Copy& c) { c.dscp = 0, c.ecn = 3, c.ttl = 63; });
  ASSERT_TRUE(v);
  EXPECT_TRUE(v->remarked);
  EXPECT_TRUE(v->remark_first);
  EXPECT_EQ(v->prev_dscp, 26);
  EXPECT_TRUE(v->ce_set);
  EXPECT_EQ(v->ttl_delta, -1);
  see(2, kA, 10 * us);
  v = see(2, kB, 12 * us, 0, kNone, [](Copy& c) { c.dscp = 0; });
  ASSERT_TRUE(v);
  EXPECT_TRUE(v->remarked);
  EXPECT_FALSE(v->remark_first);
  EXPECT_FALSE(v->ce_set);
}

TEST_F(HopTest, EcnClearedBetweenPointsIsBleachingReportedOncePerHop) {
  struct Case {
    uint8_t there, here;
    bool bleached;
  };
  // ECT(0) -> Not-ECT and CE -> ECT(0) clear it; CE set, kept or ECT(1) <-> ECT(0) do not.
  const Case cases[] = {{2, 0, true}, {3, 2, true}, {3, 0, true}, {1, 0, true},
                        {2, 3, false}, {3, 3, false}, {2, 1, false}, {0, 0, false}};
  uint64_t id = 100;
  for (const Case& k : cases) {
    reset();
    static uint8_t there, here;
    there = k.there, here = k.here;
    see(++id, kA, 0, 0, kNone, [](Copy& c) { c.ecn = there; });
    auto v = see(id, kB, 2 * us, 0, kNone, [](Copy& c) { c.ecn = here; });
    ASSERT_TRUE(v);
    EXPECT_EQ(v->ecn_bleached, k.bleached) << int{k.there} << " -> " << int{k.here};
    EXPECT_EQ(v->bleach_first, k.bleached);
    EXPECT_EQ(v->prev_ecn, k.there);
    EXPECT_FALSE(v->remarked);  // DSCP and PCP kept
  }
  reset();
  for (int i = 0; i < 2; ++i) {
    see(++id, kA, i * 10 * us);
    auto v = see(id, kB, i * 10 * us + 2 * us, 0, kNone, [](Copy& c) { c.ecn = 0; });
    ASSERT_TRUE(v);
    EXPECT_TRUE(v->ecn_bleached);
    EXPECT_EQ(v->bleach_first, i == 0);  // then the hop already has its expert info
  }
}

TEST_F(HopTest, VlanTagStrippedAddedOrMovedIsAVlanChangeNotARemark) {
  struct Case {
    uint16_t vid_there;
    int8_t pcp_there;
    uint16_t vid_here;
    int8_t pcp_here;
    bool vlan_changed, remarked;
    const char* verb;
  };
  // Stripped, added, another VLAN id (PCP kept or not): a VLAN change. A
  // PCP rewritten within one tag, or a priority tag's PCP: a remark.
  const Case cases[] = {{100, 3, 0, -1, true, false, "stripped"}, {0, -1, 100, 3, true, false, "added"},
                        {100, 3, 200, 3, true, false, "changed"}, {100, 3, 200, 0, true, false, "changed"},
                        {100, 3, 100, 0, false, true, ""},        {0, 3, 0, 3, false, false, ""},
                        {0, 3, 0, -1, true, false, "stripped"}};
  uint64_t id = 200;
  for (const Case& k : cases) {
    reset();
    static Case now;
    now = k;
    see(++id, kA, 0, 0, kNone, [](Copy& c) { c.vlan = now.vid_there, c.pcp = now.pcp_there; });
    auto v = see(id, kB, 2 * us, 0, kNone, [](Copy& c) { c.vlan = now.vid_here, c.pcp = now.pcp_here; });
    ASSERT_TRUE(v);
    EXPECT_EQ(v->vlan_changed, k.vlan_changed) << k.vid_there << "/" << int{k.pcp_there} << " -> " << k.vid_here;
    EXPECT_EQ(v->vlan_first, k.vlan_changed);
    EXPECT_EQ(v->remarked, k.remarked);
    if (k.vlan_changed) {
      const VlanChange c = vlan_change(*v, k.pcp_here);
      EXPECT_STREQ(c.verb(), k.verb);
      const VlanChange back = VlanChange::of(c.key());
      EXPECT_EQ(back.before.vid, k.vid_there);
      EXPECT_EQ(back.before.pcp, k.pcp_there);
      EXPECT_EQ(back.after.vid, k.vid_here);
      EXPECT_EQ(back.after.pcp, k.pcp_here);
    }
  }
  EXPECT_EQ((VlanChange{{100, 3}, {0, -1}}.text()), "VLAN tag stripped: VLAN 100 PCP 3 -> untagged");
}

// Losses split by size: the long frames lost, the short ones passing.
TEST_F(HopTest, LostFramesLongerThanAnyThatPassedAreSplitOut) {
  // Flow 0 alternates 4,170-byte frames (lost before B) and 570-byte ones;
  // one 570-byte frame is lost too (congestion, not size).
  HopStats s;
  const auto passed = [&](const std::optional<HopVerdict>& h) {
    ASSERT_TRUE(h);
    Verdict v;
    v.frame = h->frame, v.flow = 0, v.point = kB, v.role = Role::request;
    TapRecord r{};
    r.verdict = &v, r.hop = &*h;
    s.add(r);
  };
  uint64_t id = 300;
  for (int i = 0; i < 4; ++i) {
    const uint64_t t = i * 10 * us;
    see(++id, kA, t, 0, kNone, [](Copy& c) { c.len = 4170; });
    see(++id, kA, t + 1 * us, 0, kNone, [](Copy& c) { c.len = 570; });
    if (i == 2) continue;
    passed(see(id, kB, t + 3 * us, 0, kNone, [](Copy& c) { c.len = 570; }));
  }
  FrameSet all;
  for (uint32_t f = 1; f <= frame; ++f) all.add(f);
  s.settle(log, all);
  const auto sizes = s.sizes();
  ASSERT_TRUE(sizes.contains({kA, kB}));
  const SizeSplit& z = sizes.at({kA, kB});
  EXPECT_EQ(z.largest_passed, 570);
  EXPECT_EQ(z.lost, 5u);
  EXPECT_EQ(z.above, 4u);
  EXPECT_EQ(z.smallest_above, 4170);
  EXPECT_EQ(z.frames, (std::vector<uint32_t>{1, 4, 7, 9}));
  EXPECT_EQ(m->largest_passed(kA, kB), 570);
  EXPECT_EQ(m->largest_passed(kB, kA), 0);
}

// Packets i = 0.. at kA every 100 us, each latency[i] us later at kB (the
// hop's minimum is 2 us): which are in a microburst of 10 us, which start one.
void HopTest::bursts(std::span<const uint64_t> latency, std::span<const bool> burst, std::span<const bool> start) {
  cfg.microburst_ns = 10 * us;
  reset();
  for (size_t i = 0; i < latency.size(); ++i) {
    const uint64_t t = i * 100 * us;
    see(i, kA, t);
    auto v = see(i, kB, t + latency[i] * us);
    ASSERT_TRUE(v);
    EXPECT_EQ(v->queue_ns, (latency[i] - 2) * us) << i;
    EXPECT_EQ(v->microburst, burst[i]) << i;
    EXPECT_EQ(v->burst_start, start[i]) << i;
  }
}

TEST_F(HopTest, MicroburstIsQueueingAboveTheHopsMinimum) {
  const uint64_t latency[] = {2, 2, 30, 40, 2, 25};
  const bool burst[] = {false, false, true, true, false, true};
  const bool start[] = {false, false, true, false, false, true};
  bursts(latency, burst, start);
}

// Jitter around the threshold: a dip to 8 us of queueing (above half of the
// 10 us threshold) does not end the burst; a drain to 3 us does.
TEST_F(HopTest, BurstEndsWhenTheQueueDrainsToHalfTheThreshold) {
  const uint64_t latency[] = {2, 14, 10, 14, 5, 14};  // queueing 0, 12, 8, 12, 3, 12 us
  const bool burst[] = {false, true, false, true, false, true};
  const bool start[] = {false, true, false, false, false, true};
  bursts(latency, burst, start);
}

// Adaptive routing: packet 2 takes a longer way and arrives after 3. A
// hop's queue keeps a flow in order, so its 28 us above the minimum were
// spent elsewhere: no burst, and no sample of the queue's ECN marking.
TEST_F(HopTest, OvertakenPacketsExtraLatencyIsNotTheHopsQueueing) {
  cfg.microburst_ns = 10 * us;
  reset();
  HopStats s;
  const auto add = [&](const std::optional<HopVerdict>& h) {
    Verdict v;
    v.frame = h->frame, v.flow = 0, v.point = kB, v.role = Role::request;
    TapRecord r{};
    r.verdict = &v, r.hop = &*h;
    s.add(r);
  };
  see(1, kA, 0);
  see(2, kA, 1 * us);
  see(3, kA, 2 * us);
  auto v1 = see(1, kB, 2 * us);
  auto v3 = see(3, kB, 4 * us);
  auto v2 = see(2, kB, 31 * us);
  ASSERT_TRUE(v1 && v2 && v3);
  EXPECT_EQ(v2->queue_ns, 28 * us);
  EXPECT_FALSE(v2->microburst);
  for (const auto& v : {v1, v3, v2}) add(v);
  EXPECT_EQ(s.hops().at({kA, kB}).queue_ns.max(), 0u);
  EXPECT_EQ(s.ecn().at({kA, kB, 0}).samples(), 2u);
  EXPECT_EQ(losses({kA, kB, 0}).reordered, 1u);

  see(4, kA, 40 * us);
  auto v4 = see(4, kB, 67 * us);  // queued in the hop: a burst, and its first packet
  ASSERT_TRUE(v4);
  EXPECT_TRUE(v4->microburst);
  EXPECT_TRUE(v4->burst_start);
}

TEST_F(HopTest, DownstreamCopyStampedFirstIsNotLoss) {
  // Timestamp jitter larger than the hop: packet 2's copy at B comes first.
  cfg.path_order = {kA, kB};
  reset();
  see(1, kA, 10 * us);
  see(1, kB, 12 * us);  // sets flow 0's direction along the path: A -> B
  see(2, kB, 20 * us);
  EXPECT_FALSE(see(2, kA, 20 * us + 500));  // A is upstream: nothing to report here
  see(3, kA, 30 * us);
  ASSERT_TRUE(see(3, kB, 32 * us));
  EXPECT_EQ(losses({kA, kB, 0}).lost, 0u);
  EXPECT_FALSE(log.lost_after(4));
}

TEST_F(HopTest, PathOrderPlacesAPointWhoseClockIsBehind) {
  // C's clock lags: without a path order its copy would follow B's.
  cfg.path_order = {kA, kC, kB};
  reset();
  see(1, kA, 0);
  see(1, kB, 4 * us);
  auto v = see(1, kC, 5 * us);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->prev_point, kA);
  EXPECT_EQ(v->latency_ns, int64_t(5 * us));
}

TEST_F(HopTest, TrafficBothWaysOrdersPointsWhateverTheClocks) {
  // B's clock is 50 us ahead. Flow 0 runs A -> B (2 us), flow 1 B -> A (3 us).
  // Synced mode takes the clocks as they are, so flow 1's hop is negative,
  // but both directions still say which point is upstream.
  const uint64_t skew = 50 * us;
  for (uint64_t i = 0; i < 4; ++i) {
    const uint64_t t = i * 100 * us;
    see(10 + i, kA, t, 0, 1);
    see(10 + i, kB, t + 2 * us + skew, 0, 1);
    see(20 + i, kB, t + 40 * us + skew, 1, 0);
    auto back = see(20 + i, kA, t + 43 * us, 1, 0);
    ASSERT_TRUE(back) << i;  // both directions have a sample from the start
    EXPECT_EQ(back->prev_point, kB);
    EXPECT_EQ(back->latency_ns, int64_t(3 * us) - int64_t(skew));
    EXPECT_TRUE(back->negative);
    EXPECT_EQ(back->negative_first, i == 0);
  }
}

TEST_F(HopTest, EstimatedClocksCorrectTheLatency) {
  cfg.clock_mode = ClockMode::estimate;
  reset();
  const uint64_t skew = 50 * us;
  std::optional<HopVerdict> back;
  for (uint64_t i = 0; i < 4; ++i) {
    const uint64_t t = i * 100 * us;
    see(10 + i, kA, t, 0, 1);
    see(10 + i, kB, t + 2 * us + skew, 0, 1);
    see(20 + i, kB, t + 40 * us + skew, 1, 0);
    back = see(20 + i, kA, t + 43 * us, 1, 0);
  }
  ASSERT_TRUE(back);
  EXPECT_FALSE(back->negative);
  // Offset estimate 49.5 +/- 2.5 us: the 3 us hop reads as 2.5 us.
  EXPECT_EQ(back->latency_ns, int64_t(2500));
}

}  // namespace
}  // namespace roceshark::hop
