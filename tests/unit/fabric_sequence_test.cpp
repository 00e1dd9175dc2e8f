// SPDX-License-Identifier: GPL-2.0-or-later
// Sequence verdicts real fabrics and NICs need: reordering, identical
// resends against mirror copies, selective repeat, READ retries.
#include <gtest/gtest.h>

#include "epan-ext/analysis/analyzer.h"
#include "epan-ext/analysis/stored_analysis.h"
#include "packets.h"

namespace roceshark {
namespace {

using test::Wire;
constexpr uint64_t us = 1000;

struct FabricTest : ::testing::Test {
  StoredAnalysis a;
  Wire w;
  Verdict req(uint64_t t, uint32_t psn, bool ack_req = false) { return a.process(w.req(t, psn, ack_req)); }
  Verdict resp(uint64_t t, uint32_t psn, uint8_t syn = test::kSynAck) { return a.process(w.resp(t, psn, syn)); }
  // Responses seen at the point, so a NAK would pass here, and the
  // round trip from here to the responder and back.
  void bidirectional(uint64_t rtt = 2 * us) {
    req(0, 1, true);
    resp(rtt, 1);
  }
};

TEST_F(FabricTest, LateOriginalIsOutOfOrderNotLoss) {
  bidirectional();
  EXPECT_EQ(req(20 * us, 3).seq, SeqClass::gap);
  const Verdict& v = req(20 * us + 300, 2);
  EXPECT_EQ(v.seq, SeqClass::out_of_order);
  EXPECT_EQ(v.gap, 1u);  // one PSN behind the highest
  EXPECT_FALSE(is_loss_sign(v));
  EXPECT_EQ(req(21 * us, 4).seq, SeqClass::in_order);
}

// A late original asking for an ACK is not what the next ACK names: the
// PSNs that overtook it went first.
TEST_F(FabricTest, AckNamesTheOvertakingRequestNotTheLateOne) {
  bidirectional();
  const Verdict& newest = req(20 * us, 3, true);
  const uint32_t newest_frame = newest.frame;
  EXPECT_EQ(req(20 * us + 300, 2, true).seq, SeqClass::out_of_order);
  const Verdict& ack = resp(22 * us, 3);
  EXPECT_EQ(ack.request_frame, newest_frame);
}

TEST_F(FabricTest, ReorderWindowEdge) {
  bidirectional();
  req(20 * us, 3);
  EXPECT_EQ(req(20 * us + a.config().reorder_window_ns, 2).seq, SeqClass::out_of_order);
  req(200 * us, 5);
  EXPECT_EQ(req(200 * us + a.config().reorder_window_ns + 1, 4).seq, SeqClass::retransmission);
}

TEST_F(FabricTest, FillAfterItsNakIsAResend) {
  bidirectional();
  req(20 * us, 3);
  resp(22 * us, 2, test::kSynNakSeq);
  const Verdict& v = req(40 * us, 2);
  EXPECT_EQ(v.seq, SeqClass::gbn_resend);
  EXPECT_FALSE(v.reorder_nak);
  EXPECT_TRUE(is_loss_sign(v));
}

TEST_F(FabricTest, FillFasterThanARoundTripIsTheLateOriginalEvenAfterItsNak) {
  bidirectional(10 * us);
  req(20 * us, 3);
  const Verdict& nak = resp(21 * us, 2, test::kSynNakSeq);
  EXPECT_FALSE(nak.reorder_nak);  // not known yet
  const Verdict& v = req(23 * us, 2);
  EXPECT_EQ(v.seq, SeqClass::out_of_order);
  EXPECT_TRUE(v.reorder_nak);
  EXPECT_EQ(v.nak_frame, nak.frame);
  // The go-back-N that NAK forces is real, and reordering's doing.
  const Verdict& r = req(40 * us, 2);
  EXPECT_EQ(r.seq, SeqClass::gbn_resend);
  EXPECT_TRUE(r.reorder_nak);
  EXPECT_FALSE(is_loss_sign(r));
}

// A late original more than a round trip after the hole, after its own
// NAK, cannot be told from the resend (docs/analysis.md, the limit); its
// next copy must then not pass for a mirror copy: it may be the resend.
TEST_F(FabricTest, CopyOfAFillAfterItsNakIsNoMirrorCopy) {
  bidirectional();
  req(20 * us, 3);
  const Verdict& nak = resp(21 * us, 2, test::kSynNakSeq);
  EXPECT_EQ(req(30 * us, 2).seq, SeqClass::gbn_resend);  // the late original, taken for the resend
  const Verdict& v = req(31 * us, 2);                     // the resend
  EXPECT_EQ(v.seq, SeqClass::gbn_resend);
  EXPECT_TRUE(v.ambiguous);
  EXPECT_EQ(v.nak_frame, nak.frame);
  EXPECT_EQ(req(31 * us + 100, 3).seq, SeqClass::gbn_resend);
}

TEST_F(FabricTest, NakForAPsnThatArrivedOutOfOrderIsCausedByReordering) {
  bidirectional();
  req(20 * us, 3);
  req(20 * us + 300, 2);
  const Verdict& nak = resp(21 * us, 2, test::kSynNakSeq);
  EXPECT_TRUE(nak.reorder_nak);
  EXPECT_FALSE(is_loss_sign(nak));
  const Verdict& r = req(40 * us, 2);  // the resend the NAK forced
  EXPECT_EQ(r.seq, SeqClass::gbn_resend);
  EXPECT_TRUE(r.reorder_nak);
}

TEST_F(FabricTest, OneDirectionalFillWithANewerIpIdIsAResend) {
  PacketInfo p = w.req(0, 1);
  p.has_ip_id = true, p.ip_id = 100;
  a.process(p);
  p = w.req(us, 3);
  p.has_ip_id = true, p.ip_id = 102;  // 101 was PSN 2, lost before the point
  EXPECT_EQ(a.process(p).seq, SeqClass::gap);
  p = w.req(8 * us, 2);
  p.has_ip_id = true, p.ip_id = 103;
  const Verdict& v = a.process(p);
  EXPECT_EQ(v.seq, SeqClass::retransmission);
  EXPECT_FALSE(v.ambiguous);
}

TEST_F(FabricTest, OneDirectionalFillWithAnOlderIpIdIsTheLateOriginal) {
  PacketInfo p = w.req(0, 1);
  p.has_ip_id = true, p.ip_id = 100;
  a.process(p);
  p = w.req(us, 3);
  p.has_ip_id = true, p.ip_id = 102;
  a.process(p);
  p = w.req(4 * us, 2);
  p.has_ip_id = true, p.ip_id = 101;
  EXPECT_EQ(a.process(p).seq, SeqClass::out_of_order);
}

TEST_F(FabricTest, OneDirectionalFillWithNothingToTellIsAmbiguous) {
  req(0, 1);
  req(us, 3);
  const Verdict& v = req(8 * us, 2);
  EXPECT_EQ(v.seq, SeqClass::retransmission);
  EXPECT_TRUE(v.ambiguous);
  EXPECT_EQ(req(10 * us, 4).seq, SeqClass::in_order);
}

TEST_F(FabricTest, OneDirectionalFillFasterThanAnyRoundTripIsOutOfOrder) {
  req(0, 1);
  req(us, 3);
  EXPECT_EQ(req(us + kFastestRoundTripNs - 1, 2).seq, SeqClass::out_of_order);
}

// The receiver NAKs PSN 10 as 11 arrives; the NAK passes the point before
// the sender's next originals; the byte-identical resends of 12..15 follow
// them by 6 us. They are the go-back-N run, not mirror copies.
TEST_F(FabricTest, ByteIdenticalResendsAfterAnEarlyNakAreNotMirrorCopies) {
  bidirectional();
  req(20 * us, 11);  // 2..10: 10 lost before the point
  const Verdict& nak = resp(21 * us, 10, test::kSynNakSeq);
  for (uint32_t psn = 12; psn <= 15; ++psn) req((22 + psn - 12) * us, psn);
  int resends = 0;
  for (uint32_t psn = 10; psn <= 15; ++psn) {
    const Verdict& v = req((28 + psn - 10) * us, psn);
    EXPECT_EQ(v.seq, SeqClass::gbn_resend) << psn;
    EXPECT_EQ(v.nak_frame, nak.frame) << psn;
    resends += is_retransmission(v.seq);
  }
  EXPECT_EQ(resends, 6);
}

TEST_F(FabricTest, CopyWithATtlRewriteIsAMirrorCopyEvenWhenSpaced) {
  PacketInfo p = w.req(0, 9);
  p.ttl = 64;
  a.process(p);
  req(us, 10);
  PacketInfo copy = p;
  copy.frame = ++w.frame;
  copy.ts_ns = 30 * us;
  copy.ttl = 63;  // the switch's egress copy
  const Verdict& v = a.process(copy);
  EXPECT_EQ(v.seq, SeqClass::duplicate);
  EXPECT_EQ(v.original_frame, 1u);
}

TEST_F(FabricTest, IdenticalCopyWithinARoundTripIsAMirrorCopy) {
  req(0, 9);
  req(100, 10);
  EXPECT_EQ(req(kFastestRoundTripNs - 1, 9).seq, SeqClass::duplicate);
}

// A NAK for 9 needs 10 at the receiver: its resend comes a round trip after
// 10 passed here at the soonest (mirror_bridged: copies 2 us late, 89 ns apart).
TEST_F(FabricTest, CopySoonerThanARoundTripAfterTheNextPsnIsAMirrorCopy) {
  req(0, 9);
  req(1500, 10);
  const Verdict& v = req(kFastestRoundTripNs + 100, 9);  // a round trip after 9, not after 10
  EXPECT_EQ(v.seq, SeqClass::duplicate);
}

TEST_F(FabricTest, CopyARoundTripAfterTheNextPsnMayBeAResend) {
  req(0, 9);
  req(100, 10);
  const Verdict& v = req(100 + kFastestRoundTripNs, 9);
  EXPECT_EQ(v.seq, SeqClass::retransmission);
  EXPECT_TRUE(v.ambiguous);
}

// ... unless a timer or RNR wait could have passed since the original.
TEST_F(FabricTest, CopyARetryWaitAfterItsOriginalMayBeATimerResend) {
  req(0, 9);
  req(10 * us, 10);
  const Verdict& v = req(kShortestRetryWaitNs + kFastestRoundTripNs, 9);
  EXPECT_EQ(v.seq, SeqClass::retransmission);  // 192 ns after 10, but 10.2 us after 9
  req(20 * us, 11);
  req(30 * us, 12);
  const Verdict& t = req(30 * us + 500, 11);  // 500 ns after 12, 10 us after 11
  EXPECT_EQ(t.seq, SeqClass::retransmission);
  EXPECT_TRUE(t.ambiguous);
}

// A NAK that passes between a packet and its copy is no cause for a copy
// that came sooner than any resend could (gbn_nak_mirror).
TEST_F(FabricTest, CopySoonerThanARoundTripIsAMirrorCopyEvenAfterANak) {
  bidirectional();
  req(20 * us, 3);
  resp(20 * us + 300, 2, test::kSynNakSeq);
  EXPECT_EQ(req(21 * us, 3).seq, SeqClass::duplicate);
}

TEST_F(FabricTest, IdenticalCopyWithNothingToTellIsAnAmbiguousRetransmission) {
  req(0, 9);
  req(us, 10);
  const Verdict& v = req(8 * us, 9);  // one-directional, no rewrite, something came between
  EXPECT_EQ(v.seq, SeqClass::retransmission);
  EXPECT_TRUE(v.ambiguous);
}

TEST_F(FabricTest, IdenticalCopyWhereNaksWouldShowIsAMirrorCopy) {
  bidirectional();
  req(20 * us, 2);
  req(21 * us, 3);
  EXPECT_EQ(req(28 * us, 2).seq, SeqClass::duplicate);
}

TEST_F(FabricTest, ProvenMirrorAtAPointCoversItsLaterCopies) {
  req(0, 9);
  req(us, 10);
  EXPECT_EQ(req(us + 500, 10).seq, SeqClass::duplicate);  // adjacent and within a round trip: proven
  req(2 * us, 11);
  req(3 * us, 12);
  EXPECT_EQ(req(8 * us, 11).seq, SeqClass::duplicate);
}

TEST_F(FabricTest, SelectiveRepeatIsLearnedFromTheRunShape) {
  bidirectional();
  for (uint32_t psn = 2; psn <= 6; ++psn)
    if (psn != 3) req((20 + psn) * us, psn);  // 3 lost before the point
  resp(30 * us, 3, test::kSynNakSeq);
  EXPECT_EQ(req(40 * us, 3).seq, SeqClass::gbn_resend);  // the first run: the shape is not known yet
  EXPECT_EQ(req(41 * us, 7).seq, SeqClass::in_order);     // no 4, 5, 6 again: selective
  EXPECT_EQ(a.recovery_mode(a.find(1)->flow), RecoveryMode::selective);
  req(42 * us, 9);  // 8 lost
  resp(50 * us, 8, test::kSynNakSeq);
  const Verdict& v = req(60 * us, 8);
  EXPECT_EQ(v.seq, SeqClass::selective_resend);
  EXPECT_TRUE(is_retransmission(v.seq));
}

TEST_F(FabricTest, GoBackNIsLearnedFromTheRunShape) {
  bidirectional();
  req(20 * us, 2);
  req(21 * us, 4);
  req(22 * us, 5);
  resp(30 * us, 3, test::kSynNakSeq);
  req(40 * us, 3);
  EXPECT_EQ(req(41 * us, 4).seq, SeqClass::gbn_resend);
  EXPECT_EQ(a.recovery_mode(a.find(1)->flow), RecoveryMode::go_back_n);
}

TEST_F(FabricTest, ReadRetryInsideTheResponsePsns) {
  PacketInfo read = w.req(0, 100, true, test::kReadRequest, 0);
  read.dma_len = 16384;  // 4 responses at 4096
  a.process(read);
  a.process(w.resp(2 * us, 100, test::kSynAck, 0, test::kReadRespFirst));
  const Verdict& hole = a.process(w.resp(3 * us, 102, test::kSynAck, 0, test::kReadRespMiddle));
  EXPECT_EQ(hole.seq, SeqClass::gap);  // 101 lost on the response path
  EXPECT_EQ(hole.gap, 1u);
  a.process(w.resp(4 * us, 103, test::kSynAck, 0, test::kReadRespLast));
  PacketInfo retry = w.req(6 * us, 101, true, test::kReadRequest, 0);
  retry.dma_len = 12288;
  const Verdict& v = a.process(retry);
  EXPECT_EQ(v.seq, SeqClass::read_retry);
  EXPECT_TRUE(is_loss_sign(v));
  // Its responses come again, byte for byte: resends, not mirror copies.
  EXPECT_NE(a.process(w.resp(8 * us, 101, test::kSynAck, 0, test::kReadRespFirst)).seq, SeqClass::duplicate);
  EXPECT_NE(a.process(w.resp(9 * us, 102, test::kSynAck, 0, test::kReadRespMiddle)).seq, SeqClass::duplicate);
  EXPECT_NE(a.process(w.resp(10 * us, 103, test::kSynAck, 0, test::kReadRespLast)).seq, SeqClass::duplicate);
  EXPECT_EQ(a.process(w.req(11 * us, 104)).seq, SeqClass::in_order);
}

TEST_F(FabricTest, ReadRetryBehindALaterRequest) {
  PacketInfo read = w.req(0, 100, true, test::kReadRequest, 0);
  read.dma_len = 16384;
  a.process(read);
  req(us, 104);
  PacketInfo retry = w.req(30 * us, 102, true, test::kReadRequest, 0);
  retry.dma_len = 8192;
  EXPECT_EQ(a.process(retry).seq, SeqClass::read_retry);
  EXPECT_EQ(req(31 * us, 104).seq, SeqClass::retransmission);  // redone after it
}

// A duplicate ATOMIC is not executed again: the responder answers it from
// its saved ATOMIC ACK, byte for byte, at the ATOMIC's own PSN.
TEST_F(FabricTest, AtomicAckDrawnAgainByTheTimerResend) {
  bidirectional();
  a.process(w.req(3 * us, 2, false, test::kFetchAdd, 0));
  req(3 * us + 100, 3, true);
  EXPECT_FALSE(a.process(w.resp(5 * us, 2, test::kSynAck, 2, test::kAtomicAck)).duplicate_ack);
  resp(5 * us + 100, 3);  // its ATOMIC ACK lost after the point: the timer resends the ATOMIC and 3
  constexpr uint64_t timer = 1500 * us;
  EXPECT_EQ(a.process(w.req(timer, 2, false, test::kFetchAdd, 0)).seq, SeqClass::timeout_retransmission);
  req(timer + 100, 3, true);
  const Verdict& again = a.process(w.resp(timer + 2 * us, 2, test::kSynAck, 2, test::kAtomicAck));
  EXPECT_NE(again.seq, SeqClass::duplicate);
  EXPECT_TRUE(again.duplicate_ack);
  EXPECT_TRUE(resp(timer + 2 * us + 100, 3).duplicate_ack);  // 3 was acknowledged before the older ATOMIC ACK
}

// The ACK of 3 passes before any answer to the ATOMIC at 2: the requester
// knows the ATOMIC ACK was lost and re-issues 2 at once (implied NAK), byte
// for byte. No NAK, no timer: still no mirror copy.
TEST_F(FabricTest, AtomicRetriedOnALaterAckIsNoMirrorCopy) {
  bidirectional();
  const auto atomic = [&](uint64_t t) {
    PacketInfo p = w.req(t, 2, false, test::kFetchAdd, 0);
    p.has_atomic_eth = true;
    return a.process(p);
  };
  atomic(3 * us);
  req(3 * us + 100, 3, true);
  resp(6 * us, 3);
  const Verdict& v = atomic(9 * us);
  EXPECT_EQ(v.seq, SeqClass::retransmission);
  EXPECT_FALSE(v.ambiguous);
}

// A later ACK covers an earlier WRITE: nothing to retry, so the copy is one.
TEST_F(FabricTest, WriteCopyAfterALaterAckIsAMirrorCopy) {
  bidirectional();
  req(3 * us, 2);
  req(3 * us + 100, 3, true);
  resp(6 * us, 3);
  EXPECT_EQ(req(9 * us, 2).seq, SeqClass::duplicate);
}

// A responder answers a go-back-N run's first duplicate and each duplicate
// with AckReq: two resends, two ACKs, byte for byte when its IP ID is 0.
TEST_F(FabricTest, IdenticalAcksOfTwoResendsAreNoMirrorCopies) {
  bidirectional();
  req(3 * us, 2);
  req(3 * us + 100, 3, true);
  resp(5 * us, 3);
  constexpr uint64_t timer = 1500 * us;
  EXPECT_EQ(req(timer, 2).seq, SeqClass::timeout_retransmission);
  EXPECT_EQ(req(timer + 100, 3, true).seq, SeqClass::timeout_retransmission);
  EXPECT_TRUE(resp(timer + 2 * us, 3).duplicate_ack);
  const Verdict& second = resp(timer + 2 * us + 90, 3);
  EXPECT_NE(second.seq, SeqClass::duplicate);
  EXPECT_TRUE(second.duplicate_ack);
  EXPECT_EQ(resp(timer + 2 * us + 180, 3).seq, SeqClass::duplicate);  // a third: no resend left to draw it
}

TEST_F(FabricTest, NakAtThePsnWrapAfterReordering) {
  bidirectional();
  Wire far = w;
  far.qp_b = 0x44;
  PacketInfo p = far.req(30 * us, 0xFFFFFD);
  p.frame = ++w.frame;
  a.process(p);
  p = far.req(31 * us, 0);  // 0xFFFFFE and 0xFFFFFF skipped across the wrap
  p.frame = ++w.frame;
  EXPECT_EQ(a.process(p).gap, 2u);
  p = far.req(31 * us + 200, 0xFFFFFF);
  p.frame = ++w.frame;
  const Verdict& v = a.process(p);
  EXPECT_EQ(v.seq, SeqClass::out_of_order);  // faster than any round trip: the late original
  EXPECT_EQ(v.gap, 1u);
}

}  // namespace
}  // namespace roceshark
