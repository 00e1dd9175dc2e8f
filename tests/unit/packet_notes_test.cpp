// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/analysis/packet_notes.h"

#include <gtest/gtest.h>

namespace roceshark {
namespace {

const NoteContext kAt{0xabcd, "leaf-1", false, 0};

// A go-back-N resend is a loss (the catalogue's flag, no text of its own)
// and a resend after the NAK, which carries the expert info.
TEST(PacketNotes, AGoBackNResendIsALossAfterItsNak) {
  Verdict v;
  v.seq = SeqClass::gbn_resend, v.nak_frame = 42;
  const auto notes = request_notes(v, kAt);
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[0].field, check_item(checks::kind("loss")));
  EXPECT_FALSE(notes[0].expert);
  EXPECT_EQ(notes[1].field, fact_item(Fact::gbn_resend));
  EXPECT_EQ(notes[1].expert, fact_item(Fact::gbn_resend));
  EXPECT_EQ(notes[1].text, "Go-back-N resend on QP 0x00abcd at leaf-1 after the NAK in frame 42");
}

// A resend whose NAK a late original took back is also reordering's.
TEST(PacketNotes, AResendAfterATakenBackNakIsMarkedReorderNak) {
  Verdict v;
  v.seq = SeqClass::gbn_resend, v.nak_frame = 42;
  NoteContext c = kAt;
  c.nak_taken_back = true;
  const auto notes = request_notes(v, c);
  ASSERT_EQ(notes.size(), 3u);
  EXPECT_EQ(notes[1].field, check_item(checks::kind("reorder_nak")));
  EXPECT_FALSE(notes[1].expert);
}

// A resend the engine called go-back-N before its QP showed its mode is
// shown selective once the QP has shown selective repeat (a later pass).
TEST(PacketNotes, AResendOfAQpShownSelectiveIsSelective) {
  Verdict v;
  v.seq = SeqClass::gbn_resend, v.nak_frame = 42;
  NoteContext c = kAt;
  EXPECT_EQ(shown_seq(v, c), SeqClass::gbn_resend);
  c.selective_qp = true;
  EXPECT_EQ(shown_seq(v, c), SeqClass::selective_resend);
  const auto notes = request_notes(v, c);
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[1].field, fact_item(Fact::selective_resend));
  EXPECT_EQ(notes[1].text, "Selective resend on QP 0x00abcd at leaf-1 after the NAK in frame 42");
  v.seq = SeqClass::timeout_retransmission;  // only a NAK resend changes
  EXPECT_EQ(shown_seq(v, c), SeqClass::timeout_retransmission);
}

// A response whose QP pairing nothing tells: its own flag and expert info.
TEST(PacketNotes, AnAmbiguousPairingIsSaid) {
  Verdict v;
  v.role = Role::response, v.pair_ambiguous = true;
  v.pkt.has_aeth = true, v.pkt.psn = 1003;
  const auto notes = response_notes(v, kAt);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].field, fact_item(Fact::ambiguous_pair));
  EXPECT_EQ(notes[0].expert, fact_item(Fact::ambiguous_pair));
  EXPECT_EQ(notes[0].text,
            "Ambiguous pairing on QP 0x00abcd at leaf-1: PSN 1003 fits the requests of more than one QP between "
            "these hosts and no CM exchange tells which; credited to none (no RTT, no NAK for either)");
}

// The gap is a number field; its expert info is the PSN gap's.
TEST(PacketNotes, AGapCountsTheMissingPsns) {
  Verdict v;
  v.seq = SeqClass::gap, v.gap = 3;
  const auto notes = request_notes(v, kAt);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].field, fact_item(Fact::gap));
  EXPECT_EQ(notes[0].value, 3u);
  EXPECT_EQ(notes[0].expert, fact_item(Fact::psn_gap));
  EXPECT_EQ(notes[0].text, "PSN gap on QP 0x00abcd at leaf-1: 3 PSN(s) missing");
}

TEST(PacketNotes, TimeoutSaysHowLongTheFlowWasQuiet) {
  Verdict v;
  v.seq = SeqClass::timeout_retransmission, v.quiet_ns = 1'234'567;
  const auto notes = request_notes(v, kAt);
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[1].text, "Timeout retransmission on QP 0x00abcd at leaf-1 after 1234.6 us without a NAK");
}

// A PSN sequence error NAK is a loss, unless a late original took it back:
// then it is reordering's, and the loss expert info is not raised.
TEST(PacketNotes, ASequenceErrorNakIsALossUnlessItsOriginalCameLate) {
  Verdict v;
  v.role = Role::response, v.nak = NakCode::psn_sequence_error, v.pkt.has_aeth = true, v.pkt.psn = 7;
  v.pkt.syndrome = 0x60;  // NAK, PSN sequence error
  auto notes = response_notes(v, kAt);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].field, check_item(checks::kind("loss"), 1));
  EXPECT_STREQ(notes[0].name, nak_name(NakCode::psn_sequence_error));
  EXPECT_EQ(notes[0].expert, check_item(checks::kind("loss"), 1));
  EXPECT_EQ(notes[0].text, "NAK PSN sequence error on QP 0x00abcd at leaf-1: a request was lost");

  NoteContext c = kAt;
  c.late_original = 99;
  notes = response_notes(v, c);
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_FALSE(notes[0].expert);
  EXPECT_EQ(notes[1].expert, check_item(checks::kind("reorder_nak")));
  EXPECT_EQ(notes[1].text,
            "NAK caused by reordering on QP 0x00abcd at leaf-1, not by a loss: PSN 7 arrived late, in frame 99 "
            "(enable out-of-order placement, or keep adaptive routing off this priority)");
}

TEST(PacketNotes, AnOrdinaryPacketSaysNothing) {
  Verdict v;
  v.role = Role::request, v.seq = SeqClass::in_order;
  EXPECT_TRUE(request_notes(v, kAt).empty());
  v.role = Role::response;
  EXPECT_TRUE(response_notes(v, kAt).empty());
  EXPECT_TRUE(cnp_notes(v, kAt).empty());
  EXPECT_TRUE(icrc_notes(v, kAt).empty());
}

// The snaplen cut the ICRC: an expert info on the packet's own item.
TEST(PacketNotes, AnUncheckedIcrcHasNoFieldOfItsOwn) {
  Verdict v;
  v.pkt.icrc = IcrcState::not_captured, v.first_unchecked = true;
  const auto notes = icrc_notes(v, kAt);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_FALSE(notes[0].field);
  EXPECT_EQ(notes[0].text, "ICRC not captured at leaf-1 (snaplen): not checked on this flow");
}

}  // namespace
}  // namespace roceshark
