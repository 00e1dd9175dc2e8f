// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/requester.h"

#include <gtest/gtest.h>

#include "captures/gen/opcodes.h"

namespace roceshark::gen {
namespace {

RequesterConfig config(uint32_t start = 100, uint32_t window = 128) {
  RequesterConfig c;
  c.start_psn = start;
  c.mtu = 1024;
  c.window = window;
  c.timeout = 1000;
  c.nak_turnaround = 50;
  c.retry_cnt = 2;
  return c;
}

WorkRequest work(MsgType t, uint64_t len, uint64_t repeat = 1) {
  WorkRequest w;
  w.type = t;
  w.length = len;
  w.repeat = repeat;
  return w;
}

std::vector<RequestPacket> drain(Requester& r, Ns now) {
  std::vector<RequestPacket> v;
  while (r.ready(now)) v.push_back(r.take(now));
  return v;
}

TEST(Requester, NothingBeforeActivation) {
  Requester r(config());
  r.add_work(work(MsgType::send, 10));
  EXPECT_FALSE(r.ready(0));
  r.activate(0);
  EXPECT_TRUE(r.ready(0));
}

TEST(Requester, SegmentsAndSetsAckReqOnTheLast) {
  Requester r(config());
  r.add_work(work(MsgType::write, 3000));
  r.activate(0);
  auto p = drain(r, 0);
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0].psn, 100u);
  EXPECT_EQ(p[0].seg.opcode, op::kWriteFirst);
  EXPECT_FALSE(p[0].ackreq);
  EXPECT_TRUE(p[2].ackreq);
  EXPECT_EQ(p[2].cause, Cause::original);
  EXPECT_EQ(r.sent_end(), 103u);
}

TEST(Requester, AckReqEveryNth) {
  RequesterConfig c = config();
  c.ackreq_every = 2;
  Requester r(c);
  r.add_work(work(MsgType::send, 5000));
  r.activate(0);
  auto p = drain(r, 0);
  ASSERT_EQ(p.size(), 5u);
  EXPECT_FALSE(p[0].ackreq);
  EXPECT_TRUE(p[1].ackreq);
  EXPECT_FALSE(p[2].ackreq);
  EXPECT_TRUE(p[3].ackreq);
  EXPECT_TRUE(p[4].ackreq);  // last
}

TEST(Requester, ReadConsumesItsResponsePsns) {
  Requester r(config());
  r.add_work(work(MsgType::read, 4096));
  r.add_work(work(MsgType::send, 8));
  r.activate(0);
  auto p = drain(r, 0);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].seg.opcode, op::kReadRequest);
  EXPECT_EQ(p[0].span, 4u);
  EXPECT_EQ(p[1].psn, 104u);
  EXPECT_TRUE(r.on_read_response(100, false, 10));
  EXPECT_FALSE(r.idle());
  EXPECT_TRUE(r.on_read_response(101, false, 11));
  EXPECT_TRUE(r.on_read_response(102, false, 12));
  EXPECT_TRUE(r.on_read_response(103, true, 20));
  EXPECT_EQ(r.una(), 104u);
  r.on_ack(104, 30);
  EXPECT_TRUE(r.idle());
}

TEST(Requester, WindowLimitsOutstandingPsns) {
  Requester r(config(0, 4));
  r.add_work(work(MsgType::send, 10, 10));
  r.activate(0);
  EXPECT_EQ(drain(r, 0).size(), 4u);
  EXPECT_FALSE(r.wake_time(0));  // only an ACK helps
  r.on_ack(1, 5);
  EXPECT_EQ(drain(r, 5).size(), 2u);
}

TEST(Requester, NakGoesBackAfterTheTurnaround) {
  Requester r(config());
  r.add_work(work(MsgType::send, 5000));
  r.activate(0);
  drain(r, 0);
  EXPECT_TRUE(r.on_nak_seq(102, 100));
  EXPECT_EQ(r.una(), 102u);  // the NAK acknowledges 100 and 101
  EXPECT_FALSE(r.ready(120));
  EXPECT_EQ(r.wake_time(120), 150);
  auto p = drain(r, 150);
  ASSERT_EQ(p.size(), 3u);
  EXPECT_EQ(p[0].psn, 102u);
  EXPECT_EQ(p[0].cause, Cause::gbn);
  EXPECT_EQ(p[2].psn, 104u);
  EXPECT_FALSE(r.on_nak_seq(101, 200));  // older than una: stale
}

TEST(Requester, NewPacketsAfterAResendAreOriginal) {
  Requester r(config());
  r.add_work(work(MsgType::send, 2048));
  r.add_work(work(MsgType::send, 8));
  r.activate(0);
  auto first = r.take(0);  // 100
  (void)first;
  r.take(0);               // 101
  r.on_nak_seq(101, 10);
  auto p = drain(r, 100);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].cause, Cause::gbn);
  EXPECT_EQ(p[1].psn, 102u);
  EXPECT_EQ(p[1].cause, Cause::original);
}

TEST(Requester, TimeoutResendsFromOldestUnacked) {
  Requester r(config());
  r.add_work(work(MsgType::send, 3000));
  r.activate(0);
  drain(r, 0);
  EXPECT_EQ(r.timer_deadline(), 1000);
  r.on_ack(100, 500);                  // progress restarts the timer
  EXPECT_EQ(r.timer_deadline(), 1500);
  r.on_timer(1000);                    // not the deadline: nothing
  EXPECT_FALSE(r.ready(1000));
  r.on_timer(1500);
  auto p = drain(r, 1500);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].psn, 101u);
  EXPECT_EQ(p[0].cause, Cause::timeout);
}

TEST(Requester, RetryCountExceededIsAnError) {
  Requester r(config());  // retry_cnt 2
  r.add_work(work(MsgType::send, 10));
  r.activate(0);
  drain(r, 0);
  r.on_timer(1000);
  drain(r, 1000);
  r.on_timer(2000);
  drain(r, 2000);
  EXPECT_FALSE(r.errored());
  r.on_timer(3000);
  EXPECT_TRUE(r.errored());
  EXPECT_TRUE(r.idle());
}

TEST(Requester, RnrWaitsThenResends) {
  Requester r(config());
  r.add_work(work(MsgType::send, 10));
  r.add_work(work(MsgType::send, 10));
  r.activate(0);
  drain(r, 0);
  EXPECT_TRUE(r.on_rnr(100, 160000, 50));
  EXPECT_FALSE(r.timer_deadline());  // the RNR wait replaces the transport timer
  EXPECT_EQ(r.wake_time(60), 160050);
  auto p = drain(r, 160050);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].cause, Cause::rnr);
  EXPECT_EQ(p[1].cause, Cause::rnr);
  EXPECT_TRUE(r.timer_deadline());
}

TEST(Requester, AckAheadOfAResendSkipsAcknowledgedPsns) {
  Requester r(config());
  r.add_work(work(MsgType::send, 4096));
  r.activate(0);
  drain(r, 0);
  r.on_timer(1000);  // resend from 100 ...
  r.take(1000);      // 100 again
  r.on_ack(102, 1001);
  auto p = drain(r, 1001);
  ASSERT_EQ(p.size(), 1u);
  EXPECT_EQ(p[0].psn, 103u);
}

TEST(Requester, PostTimesFollowAtAndEvery) {
  Requester r(config());
  WorkRequest w = work(MsgType::send, 10, 3);
  w.at = 100;
  w.every = 50;
  r.add_work(w);
  r.activate(1000);
  EXPECT_FALSE(r.ready(1000));
  EXPECT_EQ(r.wake_time(1000), 1100);
  EXPECT_EQ(drain(r, 1100).size(), 1u);
  EXPECT_EQ(r.wake_time(1100), 1150);
  EXPECT_EQ(drain(r, 1200).size(), 2u);
}

TEST(Requester, PsnsWrap) {
  Requester r(config(0xFFFFFE));
  r.add_work(work(MsgType::send, 4096));
  r.activate(0);
  auto p = drain(r, 0);
  ASSERT_EQ(p.size(), 4u);
  EXPECT_EQ(p[1].psn, 0xFFFFFFu);
  EXPECT_EQ(p[2].psn, 0u);
  r.on_ack(1, 10);
  EXPECT_TRUE(r.idle());
}

TEST(SelectiveRequester, ResendsTheNakedPsnAloneThenGoesOn) {
  RequesterConfig c = config();
  c.selective = true;
  Requester r(c);
  WorkRequest w;
  w.type = MsgType::write;
  w.length = 8 * 1024;
  r.add_work(w);
  w.length = 1024;
  w.at = 100;
  r.add_work(w);
  r.activate(0);
  ASSERT_EQ(drain(r, 0).size(), 8u);
  EXPECT_TRUE(r.on_nak_seq(103, 10));
  EXPECT_EQ(r.una(), 103u);
  EXPECT_FALSE(r.ready(59));  // the NAK turnaround
  auto v = drain(r, 60);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].psn, 103u);
  EXPECT_EQ(v[0].cause, Cause::selective);
  v = drain(r, 100);  // then new PSNs, not 104..107 again
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].psn, 108u);
  EXPECT_EQ(v[0].cause, Cause::original);
  EXPECT_TRUE(r.on_ack(108, 200));
  EXPECT_TRUE(r.idle());
}

TEST(ReadRetry, AHoleInTheResponsesReissuesTheReadForTheRest) {
  Requester r(config());
  r.add_work(work(MsgType::read, 4096));  // PSNs 100..103
  r.activate(0);
  ASSERT_EQ(drain(r, 0).size(), 1u);
  EXPECT_TRUE(r.on_read_response(100, false, 10));
  r.on_read_response(102, false, 20);  // 101 lost: noticed here
  EXPECT_FALSE(r.ready(69));
  auto v = drain(r, 70);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].psn, 101u);
  EXPECT_EQ(v[0].seg.opcode, op::kReadRequest);
  EXPECT_EQ(v[0].cause, Cause::read_retry);
  EXPECT_EQ(v[0].read_skip, 1u);  // VA + 1 MTU, DMA length 3K
  EXPECT_EQ(v[0].span, 3u);
  r.on_read_response(103, true, 75);  // an old one after the hole: dropped
  EXPECT_FALSE(r.idle());
  EXPECT_TRUE(drain(r, 80).empty());  // no second retry for the same hole
  r.on_read_response(101, false, 90);
  r.on_read_response(102, false, 91);
  r.on_read_response(103, true, 92);
  EXPECT_TRUE(r.idle());
}

TEST(ReadRetry, ALostLastResponseIsReissuedByTheTimer) {
  Requester r(config());
  r.add_work(work(MsgType::read, 4096));
  r.activate(0);
  drain(r, 0);
  for (uint32_t p = 100; p < 103; ++p) r.on_read_response(p, false, 10);
  ASSERT_TRUE(r.timer_deadline());
  const Ns t = *r.timer_deadline();
  r.on_timer(t);
  auto v = drain(r, t);
  ASSERT_EQ(v.size(), 1u);
  EXPECT_EQ(v[0].psn, 103u);
  EXPECT_EQ(v[0].cause, Cause::timeout);
  EXPECT_EQ(v[0].span, 1u);
  EXPECT_EQ(v[0].read_skip, 3u);
}

TEST(Atomic, OnePsnCompletedOnlyByItsAtomicAck) {
  Requester r(config());
  WorkRequest w = work(MsgType::fetch_add, kAtomicLength);
  w.atomic = {5, 0};
  r.add_work(w);
  r.add_work(work(MsgType::write, 1000));
  r.activate(0);
  auto p = drain(r, 0);
  ASSERT_EQ(p.size(), 2u);
  EXPECT_EQ(p[0].seg.opcode, op::kFetchAdd);
  EXPECT_TRUE(p[0].ackreq);
  EXPECT_EQ(p[0].atomic.swap_add, 5u);
  EXPECT_EQ(p[1].psn, 101u);
  r.on_ack(101, 200);  // the WRITE's ACK: the ATOMIC ACK did not come
  EXPECT_EQ(r.una(), 100u);
  EXPECT_EQ(r.timer_deadline(), 1000);
  r.on_timer(1000);
  p = drain(r, 1000);
  ASSERT_EQ(p.size(), 2u);  // go back to the ATOMIC
  EXPECT_EQ(p[0].psn, 100u);
  EXPECT_EQ(p[0].cause, Cause::timeout);
  EXPECT_EQ(p[0].seg.opcode, op::kFetchAdd);
  r.on_ack(100, 1200, true);
  EXPECT_EQ(r.una(), 101u);
  r.on_ack(101, 1300);
  EXPECT_TRUE(r.idle());
}

}  // namespace
}  // namespace roceshark::gen
