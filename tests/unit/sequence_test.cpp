// SPDX-License-Identifier: GPL-2.0-or-later
// Request classification through the engine's public API.
#include <gtest/gtest.h>

#include "epan-ext/analysis/analyzer.h"
#include "epan-ext/analysis/stored_analysis.h"
#include "packets.h"

namespace roceshark {
namespace {

using test::Wire;
constexpr uint64_t us = 1000;

struct SequenceTest : ::testing::Test {
  StoredAnalysis a;
  Wire w;
  SeqClass req(uint64_t t, uint32_t psn, bool ack_req = false) { return a.process(w.req(t, psn, ack_req)).seq; }
  Verdict last_req(uint64_t t, uint32_t psn) { return a.process(w.req(t, psn)); }
};

TEST_F(SequenceTest, InOrderStream) {
  for (uint32_t i = 0; i < 10; ++i) EXPECT_EQ(req(i * us, 1000 + i), SeqClass::in_order);
  const Verdict& v = last_req(10 * us, 1010);
  EXPECT_TRUE(v.has_expected);
  EXPECT_EQ(v.expected_psn, 1010u);
}

TEST_F(SequenceTest, FirstPacketHasNoExpectation) {
  const Verdict& v = last_req(0, 77);
  EXPECT_EQ(v.seq, SeqClass::in_order);
  EXPECT_FALSE(v.has_expected);
}

TEST_F(SequenceTest, GapCountsMissingPsns) {
  req(0, 10);
  const Verdict& v = last_req(us, 14);
  EXPECT_EQ(v.seq, SeqClass::gap);
  EXPECT_EQ(v.gap, 3u);
  EXPECT_EQ(v.expected_psn, 11u);
}

TEST_F(SequenceTest, PsnWrapIsInOrder) {
  uint32_t psn = 0xFFFFFC;
  for (int i = 0; i < 8; ++i, psn = (psn + 1) & 0xFFFFFF) EXPECT_EQ(req(i * us, psn), SeqClass::in_order) << i;
}

TEST_F(SequenceTest, GapAcrossTheWrap) {
  req(0, 0xFFFFFE);
  const Verdict& v = last_req(us, 1);
  EXPECT_EQ(v.seq, SeqClass::gap);
  EXPECT_EQ(v.gap, 2u);  // 0xFFFFFF and 0
}

TEST_F(SequenceTest, BehindTheHighestIsRetransmission) {
  req(0, 10);
  req(us, 11);
  req(2 * us, 12);
  const Verdict& v = last_req(200 * us, 11);
  EXPECT_EQ(v.seq, SeqClass::retransmission);
  EXPECT_EQ(v.original_frame, 2u);
}

TEST_F(SequenceTest, GoBackNAfterSequenceNak) {
  req(0, 100);
  req(us, 102);  // 101 lost before this point
  req(2 * us, 103);
  const uint32_t nak = a.process(w.resp(5 * us, 101, test::kSynNakSeq)).frame;
  for (uint32_t psn = 101; psn <= 103; ++psn) {
    const Verdict& v = last_req((6 + psn - 101) * us, psn);
    EXPECT_EQ(v.seq, SeqClass::gbn_resend) << psn;
    EXPECT_EQ(v.nak_frame, nak);
  }
  EXPECT_EQ(req(10 * us, 104), SeqClass::in_order);  // the run ends past the old highest
}

TEST_F(SequenceTest, NakAtTheWrap) {
  req(0, 0xFFFFFE);
  req(us, 0);  // 0xFFFFFF lost upstream
  a.process(w.resp(3 * us, 0xFFFFFF, test::kSynNakSeq));
  EXPECT_EQ(req(4 * us, 0xFFFFFF), SeqClass::gbn_resend);
  EXPECT_EQ(req(5 * us, 0), SeqClass::gbn_resend);
  EXPECT_EQ(req(6 * us, 1), SeqClass::in_order);
}

TEST_F(SequenceTest, ANakStartsOneRunOnly) {
  req(0, 1);
  req(us, 3);
  a.process(w.resp(2 * us, 2, test::kSynNakSeq));
  EXPECT_EQ(req(3 * us, 2), SeqClass::gbn_resend);
  EXPECT_EQ(req(4 * us, 3), SeqClass::gbn_resend);
  EXPECT_EQ(req(200 * us, 2), SeqClass::retransmission);  // no new NAK, quiet period below the timeout
}

TEST_F(SequenceTest, TimeoutAfterQuietPeriod) {
  req(0, 1);
  req(us, 2);
  const Verdict& v = last_req(us + 4'000 * us, 2);
  EXPECT_EQ(v.seq, SeqClass::timeout_retransmission);
  EXPECT_EQ(v.quiet_ns, 4'000 * us);
}

TEST_F(SequenceTest, TimeoutThresholdIsInclusive) {
  req(0, 1);
  EXPECT_EQ(req(a.config().timeout_ns - 1, 1), SeqClass::retransmission);
  req(a.config().timeout_ns, 2);
  EXPECT_EQ(req(2 * a.config().timeout_ns, 2), SeqClass::timeout_retransmission);
}

TEST_F(SequenceTest, RnrRetry) {
  req(0, 50, true);
  a.process(w.resp(2 * us, 50, test::syn_rnr(1)));  // 10 us timer
  const Verdict& v = last_req(15 * us, 50);
  EXPECT_EQ(v.seq, SeqClass::rnr_retry);
  EXPECT_NE(v.nak_frame, 0u);
}

TEST_F(SequenceTest, MirrorDuplicateIsNotARetransmission) {
  PacketInfo p = w.req(0, 9);
  p.icrc = IcrcState::good;
  p.icrc_value = 0x1234;
  a.process(p);
  PacketInfo copy = p;
  copy.frame = ++w.frame;
  copy.ts_ns += 2 * us;
  const Verdict& v = a.process(copy);
  EXPECT_EQ(v.seq, SeqClass::duplicate);
  EXPECT_EQ(v.original_frame, 1u);
  EXPECT_EQ(req(3 * us, 10), SeqClass::in_order);  // the flow's state is unchanged
}

TEST_F(SequenceTest, DifferentIcrcIsNotADuplicate) {
  PacketInfo p = w.req(0, 9);
  p.icrc = IcrcState::good;
  p.icrc_value = 1;
  a.process(p);
  PacketInfo other = w.req(2 * us, 9);
  other.icrc = IcrcState::good;
  other.icrc_value = 2;
  EXPECT_EQ(a.process(other).seq, SeqClass::retransmission);
}

TEST_F(SequenceTest, CopyAfterANakIsAResend) {
  req(0, 9);
  a.process(w.resp(us, 9, test::kSynNakSeq));
  EXPECT_EQ(req(2 * us, 9), SeqClass::gbn_resend);
}

TEST_F(SequenceTest, CopyOutsideTheWindowIsAResend) {
  req(0, 9);
  EXPECT_EQ(req(a.config().duplicate_window_ns + 1, 9), SeqClass::retransmission);
}

TEST_F(SequenceTest, ZeroLengthPayload) {
  EXPECT_EQ(a.process(w.req(0, 5, true, test::kSendOnly, 0)).seq, SeqClass::in_order);
  EXPECT_EQ(a.process(w.req(us, 6, true, test::kSendOnly, 0)).seq, SeqClass::in_order);
  // Two zero-length SENDs with the same PSN within the window: one is a mirror copy.
  EXPECT_EQ(a.process(w.req(2 * us, 6, true, test::kSendOnly, 0)).seq, SeqClass::duplicate);
}

TEST_F(SequenceTest, QpReuseByPsnJumpRestartsTheSequence) {
  req(0, 100);
  req(us, 101);
  const Verdict& v = last_req(10'000 * us, 0x500000);
  EXPECT_TRUE(v.qp_reuse);
  EXPECT_EQ(v.seq, SeqClass::in_order);
  EXPECT_EQ(req(10'001 * us, 0x500001), SeqClass::in_order);
  EXPECT_EQ(req(10'002 * us, 101), SeqClass::in_order);  // a jump back is a reuse too, not a resend
}

TEST_F(SequenceTest, ReadRequestConsumesItsResponsePsns) {
  PacketInfo read = w.req(0, 10, true, test::kReadRequest, 0);
  read.dma_len = 4096;  // 4 responses at a 1024 PMTU, 1..16 depending on PMTU
  a.process(read);
  EXPECT_EQ(req(us, 14), SeqClass::in_order);
  PacketInfo read2 = w.req(2 * us, 15, true, test::kReadRequest, 0);
  read2.dma_len = 256;
  a.process(read2);
  EXPECT_EQ(req(3 * us, 17), SeqClass::gap);  // one response packet: 16 expected
}

TEST_F(SequenceTest, InterleavedQpsAreIndependent) {
  Wire other = w;
  other.qp_b = 0x33;
  a.process(w.req(0, 10));
  PacketInfo p = other.req(us, 500);
  p.frame = ++w.frame;
  EXPECT_EQ(a.process(p).seq, SeqClass::in_order);
  EXPECT_EQ(req(2 * us, 11), SeqClass::in_order);
  p = other.req(3 * us, 501);
  p.frame = ++w.frame;
  const Verdict& v = a.process(p);
  EXPECT_EQ(v.seq, SeqClass::in_order);
  EXPECT_NE(v.stream, a.find(1)->stream);
}

}  // namespace
}  // namespace roceshark
