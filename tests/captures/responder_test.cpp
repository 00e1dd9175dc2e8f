// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/responder.h"

#include <gtest/gtest.h>

#include "captures/gen/aeth.h"

namespace roceshark::gen {
namespace {

Incoming pkt(uint32_t psn, bool first, bool last, bool ackreq, size_t message = kNoMessage) {
  Incoming in;
  in.psn = psn;
  in.first = first;
  in.last = last;
  in.ackreq = ackreq;
  in.message = message;
  return in;
}
Incoming only(uint32_t psn, size_t message = kNoMessage) { return pkt(psn, true, true, true, message); }

TEST(Responder, InOrderAckCarriesPsnAndMsn) {
  Responder r(100, 0);
  auto out = r.on_request(only(100), 0);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].kind, Reply::Kind::ack);
  EXPECT_EQ(out[0].psn, 100u);
  EXPECT_EQ(out[0].syndrome, aeth::kAckInvalidCredit);
  EXPECT_EQ(out[0].msn, 1u);
  EXPECT_EQ(r.epsn(), 101u);
}

TEST(Responder, MsnCountsMessagesNotPackets) {
  Responder r(0, 0);
  EXPECT_TRUE(r.on_request(pkt(0, true, false, false), 0).empty());
  EXPECT_TRUE(r.on_request(pkt(1, false, false, false), 0).empty());
  auto out = r.on_request(pkt(2, false, true, true), 0);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].msn, 1u);
  EXPECT_EQ(r.on_request(only(3), 0)[0].msn, 2u);
}

TEST(Responder, AckReqInTheMiddleAcksWithoutCompleting) {
  Responder r(0, 0);
  auto out = r.on_request(pkt(0, true, false, true), 0);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].psn, 0u);
  EXPECT_EQ(out[0].msn, 0u);
}

TEST(Responder, OneNakPerHoleThenSilenceUntilFilled) {
  Responder r(10, 0);
  auto nak = r.on_request(only(12), 0);
  ASSERT_EQ(nak.size(), 1u);
  EXPECT_EQ(nak[0].kind, Reply::Kind::nak);
  EXPECT_EQ(nak[0].syndrome, aeth::kNakPsnSeqError);
  EXPECT_EQ(nak[0].psn, 10u);  // the expected PSN
  EXPECT_TRUE(r.on_request(only(13), 0).empty());
  EXPECT_TRUE(r.on_request(only(14), 0).empty());
  EXPECT_EQ(r.epsn(), 10u);
  EXPECT_EQ(r.on_request(only(10), 0)[0].kind, Reply::Kind::ack);  // the resend
  EXPECT_EQ(r.on_request(only(12), 0)[0].kind, Reply::Kind::nak);  // a new hole: 11 is missing
}

TEST(Responder, DuplicatesAreAckedWithEpsnMinusOne) {
  Responder r(0, 0);
  r.on_request(pkt(0, true, false, false), 0);
  r.on_request(pkt(1, false, false, false), 0);
  r.on_request(pkt(2, false, true, true), 0);
  // A timeout resend of all three: the first duplicate is answered, then
  // only the duplicate that asks for it.
  auto a = r.on_request(pkt(0, true, false, false), 0);
  ASSERT_EQ(a.size(), 1u);
  EXPECT_EQ(a[0].psn, 2u);
  EXPECT_TRUE(r.on_request(pkt(1, false, false, false), 0).empty());
  auto c = r.on_request(pkt(2, false, true, true), 0);
  ASSERT_EQ(c.size(), 1u);
  EXPECT_EQ(c[0].psn, 2u);
  EXPECT_EQ(c[0].msn, 1u);  // not counted twice
  EXPECT_EQ(r.epsn(), 3u);
}

TEST(Responder, CoalescingSendsOneAckForTheNewest) {
  Responder r(0, 3000);
  EXPECT_TRUE(r.on_request(only(0), 100).empty());
  EXPECT_EQ(r.flush_deadline(), 3100);
  EXPECT_TRUE(r.on_request(only(1), 200).empty());
  EXPECT_TRUE(r.on_request(only(2), 300).empty());
  EXPECT_EQ(r.flush_deadline(), 3100);  // the window does not slide
  auto a = r.on_flush(3100);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->psn, 2u);
  EXPECT_EQ(a->msn, 3u);
  EXPECT_FALSE(r.flush_deadline());
  EXPECT_FALSE(r.on_flush(3200));
}

TEST(Responder, NakReplacesAPendingAck) {
  Responder r(0, 3000);
  r.on_request(only(0), 0);
  auto nak = r.on_request(only(2), 10);
  ASSERT_EQ(nak.size(), 1u);
  EXPECT_EQ(nak[0].psn, 1u);
  EXPECT_FALSE(r.flush_deadline());
}

TEST(Responder, ReadIsAnsweredByItsResponseAfterPendingAcks) {
  Responder r(0, 3000);
  r.on_request(only(0), 0);
  Incoming rd = only(1);
  rd.read = true;
  rd.span = 4;
  rd.read_length = 4000;
  auto out = r.on_request(rd, 10);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].kind, Reply::Kind::ack);  // flushed first: responses stay in PSN order
  EXPECT_EQ(out[1].kind, Reply::Kind::read_response);
  EXPECT_EQ(out[1].psn, 1u);
  EXPECT_EQ(out[1].read_span, 4u);
  EXPECT_EQ(out[1].msn, 2u);
  EXPECT_EQ(r.epsn(), 5u);  // a READ consumes one PSN per response packet
  // A duplicate READ is executed again.
  auto again = r.on_request(rd, 20);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].kind, Reply::Kind::read_response);
}

Incoming atomic(uint32_t psn, bool cmp_swap, uint64_t swap_add, uint64_t compare = 0) {
  Incoming in = only(psn);
  in.atomic = cmp_swap;
  in.atomic_args = {swap_add, compare};
  return in;
}

TEST(Responder, AtomicRunsOnceAndDuplicatesGetItsSavedAck) {
  Responder r(10, 0);
  auto first = r.on_request(atomic(10, false, 5), 0);
  ASSERT_EQ(first.size(), 1u);
  EXPECT_EQ(first[0].kind, Reply::Kind::atomic_ack);
  EXPECT_EQ(first[0].original, 0u);
  EXPECT_EQ(first[0].msn, 1u);
  EXPECT_EQ(r.on_request(atomic(11, true, 100, 5), 0)[0].original, 5u);  // compares equal: swaps
  EXPECT_EQ(r.on_request(atomic(12, true, 7, 5), 0)[0].original, 100u);  // not equal: keeps 100
  EXPECT_EQ(r.on_request(only(13), 0)[0].psn, 13u);
  // The resent FetchAdd at 10 is not added again: the same reply, MSN included.
  auto again = r.on_request(atomic(10, false, 5), 0);
  ASSERT_EQ(again.size(), 1u);
  EXPECT_EQ(again[0].kind, Reply::Kind::atomic_ack);
  EXPECT_EQ(again[0].psn, 10u);
  EXPECT_EQ(again[0].original, 0u);
  EXPECT_EQ(again[0].msn, 1u);
  EXPECT_EQ(r.on_request(atomic(14, false, 1), 0)[0].original, 100u);
}

TEST(Responder, AtomicAnswersAfterAPendingAck) {
  Responder r(0, 1000);
  EXPECT_TRUE(r.on_request(only(0), 0).empty());  // held for coalescing
  auto out = r.on_request(atomic(1, false, 1), 10);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].kind, Reply::Kind::ack);
  EXPECT_EQ(out[0].psn, 0u);
  EXPECT_EQ(out[1].kind, Reply::Kind::atomic_ack);
}

TEST(Responder, ForcedRnrOnceThenAccepts) {
  Responder r(50, 0);
  ForcedReply f;
  f.message = 7;
  f.rnr = true;
  f.rnr_timer = 8;
  r.force(f);
  auto rnr = r.on_request(pkt(50, true, false, false, 7), 0);
  ASSERT_EQ(rnr.size(), 1u);
  EXPECT_EQ(rnr[0].syndrome, aeth::rnr_nak(8));
  EXPECT_EQ(rnr[0].psn, 50u);
  EXPECT_TRUE(r.on_request(pkt(51, false, true, true, 7), 0).empty());  // dropped, no seq NAK
  EXPECT_TRUE(r.on_request(pkt(50, true, false, false, 7), 0).empty());  // the retry is accepted
  EXPECT_EQ(r.on_request(pkt(51, false, true, true, 7), 0)[0].kind, Reply::Kind::ack);
  EXPECT_TRUE(r.unused_forced().empty());
}

TEST(Responder, ForcedErrorNakIsFatal) {
  Responder r(0, 0);
  ForcedReply f;
  f.message = 1;
  f.code = NakCode::rem_access;
  f.line = 9;
  r.force(f);
  EXPECT_EQ(r.unused_forced(), std::vector<int>{9});
  auto nak = r.on_request(only(0, 1), 0);
  ASSERT_EQ(nak.size(), 1u);
  EXPECT_EQ(nak[0].syndrome, aeth::kNakRemoteAccess);
  EXPECT_TRUE(nak[0].fatal);
  EXPECT_TRUE(r.errored());
  EXPECT_TRUE(r.on_request(only(1), 0).empty());
}

TEST(Responder, PsnWrapsAt24Bits) {
  Responder r(0xFFFFFF, 0);
  EXPECT_EQ(r.on_request(only(0xFFFFFF), 0)[0].kind, Reply::Kind::ack);
  EXPECT_EQ(r.epsn(), 0u);
  EXPECT_EQ(r.on_request(only(0), 0)[0].psn, 0u);
  auto dup = r.on_request(only(0xFFFFFF), 0);  // behind ePSN across the wrap: a duplicate
  ASSERT_EQ(dup.size(), 1u);
  EXPECT_EQ(dup[0].psn, 0u);
  auto nak = r.on_request(only(5), 0);
  EXPECT_EQ(nak[0].psn, 1u);
}

TEST(OooResponder, PlacesBeyondTheHoleAndAcksTheNewestWhenFilled) {
  Responder r(10, 0);
  r.place_out_of_order(1000);
  EXPECT_TRUE(r.on_request(only(11), 0).empty());  // no NAK
  EXPECT_TRUE(r.on_request(only(12), 5).empty());
  EXPECT_EQ(r.nak_deadline(), 1000);  // from when the hole opened
  auto out = r.on_request(only(10), 50);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].kind, Reply::Kind::ack);
  EXPECT_EQ(out[0].psn, 12u);  // the newest
  EXPECT_EQ(out[0].msn, 3u);
  EXPECT_EQ(r.epsn(), 13u);
  EXPECT_FALSE(r.nak_deadline());
  EXPECT_FALSE(r.busy());
}

TEST(OooResponder, NaksAHoleStillOpenAfterTheDelayOnce) {
  Responder r(10, 0);
  r.place_out_of_order(1000);
  r.on_request(only(12), 100);
  EXPECT_FALSE(r.on_nak_timer(999));
  auto nak = r.on_nak_timer(1100);
  ASSERT_TRUE(nak);
  EXPECT_EQ(nak->syndrome, aeth::kNakPsnSeqError);
  EXPECT_EQ(nak->psn, 10u);
  EXPECT_TRUE(r.on_request(only(13), 1200).empty());  // still placed, no second NAK
  EXPECT_FALSE(r.nak_deadline());
  // 10 fills the first hole; 11 is still missing: a new hole, a new delay.
  auto out = r.on_request(only(10), 2000);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].psn, 10u);
  EXPECT_EQ(r.nak_deadline(), 3000);
  EXPECT_EQ(r.on_request(only(11), 2500)[0].psn, 13u);
}

TEST(OooResponder, WithoutNakDelayOnlyTheRequesterRecovers) {
  Responder r(0, 0);
  r.place_out_of_order(std::nullopt);
  EXPECT_TRUE(r.on_request(only(1), 0).empty());
  EXPECT_FALSE(r.nak_deadline());
}

TEST(OooResponder, PlacedReadIsAnsweredWhenTheHoleFills) {
  Responder r(0, 0);
  r.place_out_of_order(1000);
  Incoming read = only(1);
  read.read = true;
  read.span = 4;
  read.read_length = 4096;
  EXPECT_TRUE(r.on_request(read, 0).empty());
  auto out = r.on_request(only(0), 10);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].kind, Reply::Kind::ack);  // for 0, before the READ
  EXPECT_EQ(out[0].psn, 0u);
  EXPECT_EQ(out[1].kind, Reply::Kind::read_response);
  EXPECT_EQ(out[1].psn, 1u);
  EXPECT_EQ(r.epsn(), 5u);
}

TEST(Responder, WithoutOooAHoleIsNakedAtOnce) {
  Responder r(10, 0);
  auto out = r.on_request(only(11), 0);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].kind, Reply::Kind::nak);
}

}  // namespace
}  // namespace roceshark::gen
