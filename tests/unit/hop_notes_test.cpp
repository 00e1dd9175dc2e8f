// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/analysis/hop_notes.h"

#include <gtest/gtest.h>

namespace roceshark::hop {
namespace {

// Every flag a hop verdict sets is a note, in tree order; only the first of
// its kind on the hop carries the expert info's text.
TEST(HopNotes, FlagsInOrderTextOnlyOnTheFirst) {
  HopVerdict h;
  Verdict v;
  v.pkt.dscp = 0, v.pkt.pcp = 3, v.pfc.priority = 3;
  h.remarked = true, h.remark_first = true, h.prev_dscp = 26, h.prev_pcp = 3;
  h.microburst = true, h.burst_start = false, h.queue_ns = 12'345;
  h.be_share_pct = 80, h.be_fill_pct = 99, h.be_wait_ns = 0, h.be_starved_first = true;
  const std::vector<HopNote> notes = hop_notes(h, v, "nic-a", "leaf-1");
  ASSERT_EQ(notes.size(), 3u);
  EXPECT_EQ(notes[0].kind, checks::kind("dscp_remarked"));
  EXPECT_TRUE(notes[0].expert);
  EXPECT_EQ(notes[0].text,
            "Remarked between nic-a and leaf-1: DSCP 26 PCP 3 there, DSCP 0 PCP 3 here (a mid-path device rewrites "
            "marking)");
  EXPECT_EQ(notes[1].kind, checks::kind("starved_by_besteffort"));
  EXPECT_EQ(notes[1].text,
            "RoCE queued 12.3 us between nic-a and leaf-1 while best-effort took 80% of the bytes leaving (link 99% "
            "full) and waited 0.0 us on average: best-effort is served first");
  EXPECT_EQ(notes[2].kind, checks::kind("microburst"));
  EXPECT_FALSE(notes[2].expert);
  EXPECT_TRUE(notes[2].text.empty());
}

TEST(HopNotes, AnUneventfulHopSaysNothing) {
  HopVerdict h;
  h.ce_set = true;  // a field of its own, not a check
  EXPECT_TRUE(hop_notes(h, Verdict{}, "a", "b").empty());
}

// Which clock is ahead, by how much and how sure, as the pair's traffic both ways shows.
TEST(HopNotes, SkewSaysWhichClockIsAhead) {
  const ClockEstimator::Estimate e{0, 1, -2'500, 120, 40};
  EXPECT_EQ(skew_text(e, "tor", "spine"),
            "spine's clock is 2.50 us (+/- 0.12) behind tor's, as traffic both ways shows: hop latencies between them "
            "are off by as much; try roce.clock:estimate");
  EXPECT_EQ(lost_too_big_text("leaf-1", "spine-1", 4200, 1518),
            "Lost between leaf-1 and spine-1, and longer (4200 bytes) than any frame that crossed (at most 1518): an "
            "MTU between them is below this frame");
}

// A lost packet is a loss; longer than anything that crossed the hop, the
// size is its likely cause; with nothing across yet, or not longer, it is not.
TEST(HopNotes, ALostPacketLongerThanAnyThatCrossedBlamesTheMtu) {
  std::vector<HopNote> notes = lost_notes(4200, 1518, "leaf-1", "spine-1");
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[0].kind, checks::kind("hop_loss"));
  EXPECT_EQ(notes[0].text, lost_after_text("leaf-1"));
  EXPECT_EQ(notes[1].kind, checks::kind("mtu_mismatch"));
  EXPECT_EQ(notes[1].text, lost_too_big_text("leaf-1", "spine-1", 4200, 1518));
  EXPECT_EQ(lost_notes(1518, 1518, "leaf-1", "spine-1").size(), 1u);
  EXPECT_EQ(lost_notes(4200, 0, "leaf-1", "spine-1").size(), 1u);
  EXPECT_EQ(lost_notes(70000, 65535, "a", "b").size(), 1u);  // lengths past 16 bits compare capped
}

}  // namespace
}  // namespace roceshark::hop
