// SPDX-License-Identifier: GPL-2.0-or-later
// Flow identity, pairing, responses, multi-point and limits.
#include "epan-ext/analysis/analyzer.h"
#include "epan-ext/analysis/stored_analysis.h"

#include <gtest/gtest.h>

#include "packets.h"

namespace roceshark {
namespace {

using test::Wire;
constexpr uint64_t us = 1000;

TEST(Analyzer, AckPairsWithItsRequestsByPsn) {
  StoredAnalysis a;
  Wire w;
  Wire w2 = w;
  w2.qp_b = 0x99, w2.qp_a = 0x98;
  a.process(w.req(0, 1000, true));
  PacketInfo other = w2.req(us, 0x700000, true);
  other.frame = ++w.frame;
  a.process(other);
  const Verdict& ack = a.process(w.resp(5 * us, 1000));
  EXPECT_EQ(ack.stream, a.find(1)->stream);
  EXPECT_EQ(ack.row_flow, a.find(1)->flow);
  EXPECT_EQ(ack.request_frame, 1u);
  EXPECT_EQ(ack.rtt_ns, 5 * us);
  PacketInfo ack2 = w2.resp(6 * us, 0x700000);
  ack2.frame = ++w.frame;
  const Verdict& v2 = a.process(ack2);
  EXPECT_EQ(v2.stream, a.find(2)->stream);
  EXPECT_EQ(v2.request_frame, 2u);
}

// The notification point: a response flags "no CNP" only once it proves
// the receiver got the QP's first CE-marked request (an ACK at or past its
// PSN, a NAK past it), kCnpDeadlineNs after it, with no CNP for the QP.
TEST(Analyzer, CnpMissingNeedsProofOfReceiptAndTime) {
  const auto ce_req = [](Wire& w, uint64_t ts, uint32_t psn) {
    PacketInfo p = w.req(ts, psn, true);
    p.ecn = 3;
    return p;
  };
  {
    StoredAnalysis a;
    Wire w;
    a.process(w.req(0, 9, true));
    a.process(ce_req(w, us, 10));
    EXPECT_FALSE(a.process(w.resp(10 * us, 9)).cnp_missing);  // acknowledges only what came before the mark
    EXPECT_TRUE(a.process(w.resp(11 * us, 10)).cnp_missing);
    a.process(ce_req(w, 12 * us, 11));
    EXPECT_FALSE(a.process(w.resp(20 * us, 11)).cnp_missing);  // flagged once a QP
  }
  {  // Too soon: the CNP may still come.
    StoredAnalysis a;
    Wire w;
    a.process(ce_req(w, 0, 10));
    EXPECT_FALSE(a.process(w.resp(3 * us, 10)).cnp_missing);
  }
  {  // A NAK of the marked PSN: the receiver never got it.
    StoredAnalysis a;
    Wire w;
    a.process(ce_req(w, 0, 10));
    EXPECT_FALSE(a.process(w.resp(10 * us, 10, test::kSynNakSeq)).cnp_missing);
  }
  {  // A CNP, even after the ACK it should have preceded: nothing later is flagged.
    StoredAnalysis a;
    Wire w;
    a.process(ce_req(w, 0, 10));
    a.process(w.cnp(2 * us));
    EXPECT_FALSE(a.process(w.resp(10 * us, 10)).cnp_missing);
  }
}

TEST(Analyzer, BidirectionalConnectionIsOneStream) {
  StoredAnalysis a;
  Wire w;
  a.process(w.req(0, 10, true));
  a.process(w.resp(us, 10));
  // b sends its own requests on the flow that carried its ACKs.
  PacketInfo breq = w.base(2 * us);
  breq.src = w.b, breq.dst = w.a, breq.dest_qp = w.qp_a, breq.opcode = test::kSendOnly, breq.psn = 900;
  const Verdict& v = a.process(breq);
  EXPECT_EQ(v.stream, a.find(1)->stream);
  EXPECT_EQ(v.seq, SeqClass::in_order);
}

TEST(Analyzer, LatePairedResponsesJoinTheirRequestsStream) {
  StoredAnalysis a;
  Wire w;
  a.process(w.req(0, 10, true));  // a's requests: stream 0
  // b's own request comes first on the reverse flow: nothing to pair it by yet.
  PacketInfo breq = w.base(us);
  breq.src = w.b, breq.dst = w.a, breq.dest_qp = w.qp_a, breq.opcode = test::kSendOnly, breq.psn = 900;
  const uint32_t b_stream = a.process(breq).stream;
  const Verdict& ack = a.process(w.resp(2 * us, 10));  // the ACK pairs the two flows by PSN
  EXPECT_EQ(ack.stream, a.find(1)->stream);
  EXPECT_EQ(ack.row_flow, a.find(1)->flow);
  EXPECT_NE(b_stream, ack.stream);  // b's requests keep the stream they were given
}

TEST(Analyzer, CoalescedAckGivesOneSamplePerRequest) {
  StoredAnalysis a;
  Wire w;
  a.process(w.req(0, 1, true));
  a.process(w.req(us, 2, true));
  a.process(w.req(2 * us, 3, false));
  const Verdict& v = a.process(w.resp(10 * us, 3));
  EXPECT_EQ(v.covered, 2u);
  EXPECT_EQ(v.request_frame, 2u);
  EXPECT_EQ(v.rtt_ns, 9 * us);
  const auto samples = a.rtt_samples(v);
  ASSERT_EQ(samples.size(), 2u);
  EXPECT_EQ(samples[0], 10 * us);
}

TEST(Analyzer, DuplicateAck) {
  StoredAnalysis a;
  Wire w;
  a.process(w.req(0, 1, true));
  a.process(w.resp(us, 1, test::kSynAck, 1));
  a.process(w.req(200 * us, 1, true));  // resent: the ACK was lost on its way back
  const Verdict& v = a.process(w.resp(201 * us, 1, test::kSynAck, 1));
  EXPECT_TRUE(v.duplicate_ack);
  EXPECT_EQ(v.request_frame, 0u);  // Karn: the resend gives no RTT
}

TEST(Analyzer, MirroredAckIsADuplicateNotADupAck) {
  StoredAnalysis a;
  Wire w;
  a.process(w.req(0, 1, true));
  a.process(w.resp(us, 1, test::kSynAck, 1));
  const Verdict& v = a.process(w.resp(2 * us, 1, test::kSynAck, 1));
  EXPECT_EQ(v.seq, SeqClass::duplicate);
  EXPECT_FALSE(v.duplicate_ack);
}

TEST(Analyzer, MirroredNakIsADuplicateAndStartsNoSecondRun) {
  StoredAnalysis a;
  Wire w;
  a.process(w.req(0, 1));
  a.process(w.req(us, 3));
  a.process(w.resp(2 * us, 2, test::kSynNakSeq));
  EXPECT_EQ(a.process(w.resp(3 * us, 2, test::kSynNakSeq)).seq, SeqClass::duplicate);
  EXPECT_EQ(a.process(w.req(4 * us, 2)).seq, SeqClass::gbn_resend);
}

TEST(Analyzer, RepeatedAckWithANewIpIdIsADuplicateAck) {
  StoredAnalysis a;
  Wire w;
  a.process(w.req(0, 1, true));
  PacketInfo ack = w.resp(us, 1, test::kSynAck, 1);
  ack.has_ip_id = true;
  ack.ip_id = 7;
  a.process(ack);
  PacketInfo again = w.resp(2 * us, 1, test::kSynAck, 1);
  again.has_ip_id = true;
  again.ip_id = 8;  // sent again by the responder, not mirrored
  const Verdict& v = a.process(again);
  EXPECT_NE(v.seq, SeqClass::duplicate);
  EXPECT_TRUE(v.duplicate_ack);
}

TEST(Analyzer, SecondPointIsNotARetransmission) {
  StoredAnalysis a;
  Wire w;
  for (uint32_t i = 0; i < 5; ++i) {
    w.point = 0;
    EXPECT_EQ(a.process(w.req(i * us, 100 + i)).seq, SeqClass::in_order);
    w.point = 1;  // the same packet 3 us later, at the next tap
    EXPECT_EQ(a.process(w.req(i * us + 3 * us, 100 + i)).seq, SeqClass::in_order);
  }
  EXPECT_EQ(a.find(1)->stream, a.find(2)->stream);
  EXPECT_NE(a.find(1)->point, a.find(2)->point);
}

// Two taps merged into one interface: the flow's TTL flips at one point.
int merged_warnings(std::initializer_list<uint8_t> ttls) {
  StoredAnalysis a;
  Wire w;
  int warnings = 0;
  uint32_t psn = 100;
  for (uint8_t ttl : ttls) {
    PacketInfo p = w.req(psn * us, psn);
    p.ttl = ttl;
    warnings += a.process(p).merged_points;
    ++psn;
  }
  return warnings;
}

TEST(Analyzer, TtlFlippingAtOnePointMeansTwoPlacesMerged) {
  EXPECT_EQ(merged_warnings({64, 62, 64, 62, 64, 62}), 1);  // once per flow and point
  EXPECT_EQ(merged_warnings({64, 64, 64, 64}), 0);
  EXPECT_EQ(merged_warnings({64, 64, 61, 61, 61}), 0);  // one change: a route change
}

TEST(Analyzer, LossBetweenPointsIsAGapOnlyDownstream) {
  StoredAnalysis a;
  Wire w;
  for (uint32_t psn : {1u, 2u, 3u}) {
    w.point = 0;
    EXPECT_EQ(a.process(w.req(psn * us, psn)).seq, SeqClass::in_order);
    if (psn == 2) continue;  // dropped between the taps
    w.point = 1;
    const SeqClass c = a.process(w.req(psn * us + 500, psn)).seq;
    EXPECT_EQ(c, psn == 3 ? SeqClass::gap : SeqClass::in_order);
  }
}

TEST(Analyzer, OneDirectionalCaptureReportsNoResponses) {
  StoredAnalysis a;
  Wire w;
  for (uint32_t i = 0; i < 100; ++i) EXPECT_EQ(a.process(w.req(i * us, i, true)).seq, SeqClass::in_order);
  EXPECT_FALSE(a.responses_seen(a.find(1)->flow, 0));
}

TEST(Analyzer, CnpIsAttributedToTheQpItThrottles) {
  StoredAnalysis a;
  Wire w;
  a.process(w.req(0, 5, true));
  const Verdict& c = a.process(w.cnp(us));
  EXPECT_EQ(c.role, Role::cnp);
  EXPECT_EQ(c.row_flow, a.find(1)->flow);
  EXPECT_EQ(c.stream, a.find(1)->stream);
}

TEST(Analyzer, CnpWithTwoCandidatesStaysUnpaired) {
  StoredAnalysis a;
  Wire w, w2;
  w2.qp_b = 0x77;
  a.process(w.req(0, 5));
  PacketInfo p = w2.req(us, 900);
  p.frame = ++w.frame;
  a.process(p);
  const Verdict& c = a.process(w.cnp(2 * us));
  EXPECT_EQ(c.row_flow, c.flow);  // ambiguous: accounted to itself, not guessed
}

// Two QPs from a to b, w1 and w2, numbered in one frame sequence.
struct TwoQps {
  StoredAnalysis a;
  Wire w1, w2;
  uint32_t frame = 0;
  TwoQps() { w2.qp_a = 0x33, w2.qp_b = 0x44; }
  Verdict operator()(PacketInfo p) {
    p.frame = ++frame;
    return a.process(p);
  }
};

// Two QPs a -> b with the same PSNs and no CM: an ACK whose PSN both sent
// is paired with neither, and credits no request (no RTT, not later
// either); a PSN only one sent pairs it, and the other pairs by elimination.
TEST(Analyzer, AckFittingTwoQpsIsAmbiguousUntilAPsnTellsThemApart) {
  TwoQps t;
  t(t.w1.req(0, 100));               // 1
  t(t.w2.req(100, 100));             // 2
  t(t.w1.req(200, 101, true));       // 3
  t(t.w2.req(300, 101, true));       // 4
  const Verdict ack1 = t(t.w1.resp(5 * us, 101));  // 5
  EXPECT_TRUE(ack1.pair_ambiguous);
  EXPECT_EQ(ack1.row_flow, ack1.flow);
  EXPECT_EQ(ack1.request_frame, kNoFrame);
  EXPECT_EQ(ack1.rtt_ns, 0u);
  EXPECT_TRUE(t(t.w2.resp(5 * us + 100, 101)).pair_ambiguous);  // 6
  // A request of either now finds two reverse flows whose ACKs end just before it: neither.
  t(t.w1.req(10 * us, 102));               // 7
  t(t.w1.req(10 * us + 100, 103, true));   // 8: a PSN w2 never sent
  const Verdict ack3 = t(t.w1.resp(15 * us, 103));  // 9: fits w1 alone
  EXPECT_FALSE(ack3.pair_ambiguous);
  EXPECT_EQ(ack3.row_flow, t.a.find(1)->flow);
  EXPECT_EQ(ack3.request_frame, 8u);
  EXPECT_EQ(ack3.covered, 1u);  // frame 3's answer was the ambiguous ACK: no sample now
  // w2: the one unpaired reverse flow left, paired at its next request.
  t(t.w2.req(20 * us, 102, true));   // 10
  const Verdict ack4 = t(t.w2.resp(25 * us, 102));  // 11
  EXPECT_FALSE(ack4.pair_ambiguous);
  EXPECT_EQ(ack4.row_flow, t.a.find(2)->flow);
  EXPECT_EQ(ack4.request_frame, 10u);
  EXPECT_EQ(ack4.rtt_ns, 5 * us);
}

// The same PSNs, told apart by time: the first QP's ACK comes before the
// second sent anything, so it fits one QP and pairs at once.
TEST(Analyzer, SamePsnsAtDifferentTimesAreNotAmbiguous) {
  TwoQps t;
  t(t.w1.req(0, 100, true));
  EXPECT_FALSE(t(t.w1.resp(5 * us, 100)).pair_ambiguous);
  t(t.w2.req(10 * us, 100, true));
  const Verdict v = t(t.w2.resp(15 * us, 100));
  EXPECT_FALSE(v.pair_ambiguous);
  EXPECT_EQ(v.request_frame, 3u);
}

PacketInfo cm(Wire& w, bool from_a, CmMessage m, uint64_t ts) {
  PacketInfo p = w.base(ts);
  p.src = from_a ? w.a : w.b;
  p.dst = from_a ? w.b : w.a;
  p.dest_qp = 1;
  p.opcode = test::kUdSendOnly;
  p.cm = m;
  return p;
}

TEST(Analyzer, CnpsDoNotPairByPsn) {
  // Four QPs between the same hosts, CNPs for each before any ACK: a CNP
  // has no PSN, so it must not pair a request flow by its PSN.
  StoredAnalysis a;
  std::vector<Wire> qps(4);
  uint32_t frame = 0;
  auto next = [&](PacketInfo p) {
    p.frame = ++frame;
    return p;
  };
  for (uint32_t i = 0; i < 4; ++i) qps[i].qp_a = 0x441 + 2 * i, qps[i].qp_b = 0x442 + 2 * i;
  for (uint32_t i = 0; i < 4; ++i) a.process(next(qps[i].req(i * us, 100 + 200 * i, false)));
  for (uint32_t i = 0; i < 4; ++i) a.process(next(qps[i].cnp(10 * us + i * us)));
  for (uint32_t i = 0; i < 4; ++i) a.process(next(qps[i].req(20 * us + i * us, 101 + 200 * i, true)));
  for (uint32_t i = 0; i < 4; ++i) {
    const Verdict& ack = a.process(next(qps[i].resp(30 * us + i * us, 101 + 200 * i)));
    EXPECT_EQ(ack.request_frame, 9 + i) << i;
    EXPECT_EQ(ack.stream, a.find(1 + i)->stream) << i;
  }
}

TEST(Analyzer, CmExchangePairsAndGivesTheStartPsn) {
  StoredAnalysis a;
  Wire w;
  a.process(cm(w, true, {CmMessage::Kind::req, 0xA1, 0, w.qp_a, 5000}, 0));
  a.process(cm(w, false, {CmMessage::Kind::rep, 0xB1, 0xA1, w.qp_b, 9000}, us));
  const Verdict& first = a.process(w.req(2 * us, 5001));  // 5000 never arrived
  EXPECT_EQ(first.seq, SeqClass::gap);
  EXPECT_EQ(first.gap, 1u);
  // b's first packet is a request on the paired flow: same stream, no PSN guessing.
  PacketInfo breq = w.base(3 * us);
  breq.src = w.b, breq.dst = w.a, breq.dest_qp = w.qp_a, breq.opcode = test::kSendOnly, breq.psn = 9000;
  const Verdict& v = a.process(breq);
  EXPECT_EQ(v.stream, first.stream);
  EXPECT_EQ(v.seq, SeqClass::in_order);
  EXPECT_TRUE(v.has_expected);
}

// The REQ's path MTU holds for the connection both ways from its REP on,
// before any FIRST/MIDDLE segment: a READ's responses take exactly
// dma_len / path MTU PSNs. A longer segment than the REQ said overrides it.
TEST(Analyzer, CmReqGivesThePathMtuBeforeAnySegment) {
  StoredAnalysis a;
  Wire w;
  CmMessage req{CmMessage::Kind::req, 0xA1, 0, w.qp_a, 5000};
  req.path_mtu = 1024;
  a.process(cm(w, true, req, 0));  // frame 1
  a.process(cm(w, false, {CmMessage::Kind::rep, 0xB1, 0xA1, w.qp_b, 9000}, us));
  PacketInfo read = w.req(2 * us, 5000, true, test::kReadRequest, 0);
  read.dma_len = 4096;
  const uint32_t flow = a.process(read).flow;
  EXPECT_EQ(a.path_mtu(flow), 1024u);
  EXPECT_EQ(a.path_mtu_cm_frame(flow), 1u);
  // Four responses at 5000..5003: 5005 skips one PSN (unknown MTU: anywhere up to 16 would do).
  const Verdict& next = a.process(w.req(3 * us, 5005));
  EXPECT_EQ(next.seq, SeqClass::gap);
  EXPECT_EQ(next.gap, 1u);
  const uint32_t back = a.process(w.resp(4 * us, 5005)).flow;
  EXPECT_EQ(a.path_mtu(back), 1024u);
  EXPECT_EQ(a.path_mtu_cm_frame(back), 1u);
  // A FIRST segment of that length agrees; a longer one is what the QP uses.
  a.process(w.req(5 * us, 5006, false, test::kWriteFirst, 1024));
  EXPECT_EQ(a.path_mtu_cm_frame(flow), 1u);
  a.process(w.req(6 * us, 5007, false, test::kWriteFirst, 2048));
  EXPECT_EQ(a.path_mtu(flow), 2048u);
  EXPECT_EQ(a.path_mtu_cm_frame(flow), kNoFrame);
  EXPECT_EQ(a.path_mtu(back), 2048u);
}

TEST(Analyzer, CmQpReuseStartsANewStream) {
  StoredAnalysis a;
  Wire w;
  a.process(cm(w, true, {CmMessage::Kind::req, 1, 0, w.qp_a, 100}, 0));
  a.process(cm(w, false, {CmMessage::Kind::rep, 2, 1, w.qp_b, 200}, us));
  const uint32_t old_stream = a.process(w.req(2 * us, 100, true)).stream;
  a.process(w.req(3 * us, 101, true));
  const Verdict rep = [&] {
    a.process(cm(w, true, {CmMessage::Kind::req, 3, 0, w.qp_a, 7000}, 10 * us));
    return a.process(cm(w, false, {CmMessage::Kind::rep, 4, 3, w.qp_b, 8000}, 11 * us));
  }();
  EXPECT_TRUE(rep.qp_reuse);
  const Verdict& v = a.process(w.req(12 * us, 7000));
  EXPECT_NE(v.stream, old_stream);
  EXPECT_EQ(v.seq, SeqClass::in_order);
}

TEST(Analyzer, SameRepAtASecondPointIsNotAnotherConnection) {
  StoredAnalysis a;
  Wire w;
  a.process(cm(w, true, {CmMessage::Kind::req, 1, 0, w.qp_a, 100}, 0));
  a.process(cm(w, false, {CmMessage::Kind::rep, 2, 1, w.qp_b, 200}, us));
  const uint32_t stream = a.process(w.req(2 * us, 100)).stream;
  w.point = 1;
  a.process(cm(w, false, {CmMessage::Kind::rep, 2, 1, w.qp_b, 200}, 3 * us));
  EXPECT_EQ(a.process(w.req(4 * us, 100)).stream, stream);
}

TEST(Analyzer, FlowLimitIsReportedOnce) {
  Config cfg;
  cfg.max_flows = 2;
  StoredAnalysis a(cfg);
  Wire w;
  for (uint32_t qp = 1; qp <= 5; ++qp) {
    w.qp_b = qp;
    a.process(w.req(qp * us, 1));
  }
  EXPECT_FALSE(a.find(2)->untracked());
  EXPECT_EQ(a.find(3)->beyond, LimitKind::flows);
  EXPECT_TRUE(a.find(3)->first_unchecked);
  EXPECT_FALSE(a.find(4)->first_unchecked);
}

// A flow quiet past roce.flow_idle_s has its state at the point freed:
// a later packet starts afresh (no gap against what came before the quiet),
// and a sweep frees the state of flows that never come back. Quiet for less,
// the flow is judged against its past.
TEST(Analyzer, IdleFlowsExpire) {
  constexpr uint64_t s = 1'000'000'000;
  Config cfg;
  cfg.flow_idle_ns = 10 * s;
  {
    StoredAnalysis a(cfg);
    Wire w;
    a.process(w.req(0, 100));
    a.process(w.req(us, 101));
    EXPECT_EQ(a.process(w.req(9 * s, 105)).seq, SeqClass::gap);  // 9 s quiet: still the same sequence
    EXPECT_EQ(a.expired_flow_points(), 0u);
    EXPECT_EQ(a.process(w.req(20 * s, 200)).seq, SeqClass::in_order);  // 11 s quiet: afresh
    EXPECT_EQ(a.expired_flow_points(), 1u);
    EXPECT_EQ(a.process(w.req(20 * s + us, 202)).seq, SeqClass::gap);   // and judged from there
  }
  {  // Another flow's packets drive the sweep: the quiet flow's state goes without it coming back.
    StoredAnalysis a(cfg);
    Wire w, other;
    other.qp_b = 0x77;
    a.process(w.req(0, 100));
    for (uint64_t t = 1; t <= 30; ++t) {
      PacketInfo p = other.req(t * s, static_cast<uint32_t>(t));
      p.frame = ++w.frame;
      a.process(p);
    }
    EXPECT_EQ(a.expired_flow_points(), 1u);
  }
  {  // 0: never.
    cfg.flow_idle_ns = 0;
    StoredAnalysis a(cfg);
    Wire w;
    a.process(w.req(0, 100));
    EXPECT_EQ(a.process(w.req(1000 * s, 105)).seq, SeqClass::gap);
    EXPECT_EQ(a.expired_flow_points(), 0u);
  }
}

// Points past roce.max_points, and (flow, point) pairs past
// roce.max_flow_points, are counted and flagged once; the first ones are
// still analysed, and an earlier point keeps being analysed.
TEST(Analyzer, PointAndFlowPointLimits) {
  Config cfg;
  cfg.max_points = 2;
  StoredAnalysis a(cfg);
  Wire w;
  for (uint32_t point = 0; point < 4; ++point) {
    w.point = point;
    a.process(w.req((point + 1) * us, 1));
  }
  w.point = 0;
  EXPECT_EQ(a.process(w.req(5 * us, 2)).seq, SeqClass::in_order);
  EXPECT_FALSE(a.find(2)->untracked());
  EXPECT_EQ(a.find(3)->beyond, LimitKind::points);
  EXPECT_TRUE(a.find(3)->first_unchecked);
  EXPECT_FALSE(a.find(4)->first_unchecked);
  EXPECT_EQ(a.point_name(3), "-");

  cfg.max_points = 1024, cfg.max_flow_points = 2;
  StoredAnalysis b(cfg);
  Wire x;
  for (uint32_t qp = 1; qp <= 3; ++qp) {
    x.qp_b = qp;
    b.process(x.req(qp * us, 1));
  }
  EXPECT_FALSE(b.find(2)->untracked());
  EXPECT_EQ(b.find(3)->beyond, LimitKind::flow_points);
  EXPECT_TRUE(b.find(3)->first_unchecked);
}

// A point shown by a name alone (LLDP) takes a slot like one shown by
// RoCE: the named points are exactly the admitted ones.
TEST(Analyzer, NamedPointsAreTheAdmittedOnes) {
  Config cfg;
  cfg.max_points = 2;
  StoredAnalysis a(cfg);
  a.name_point(7, "lldp-only");
  Wire w;
  for (uint32_t point = 0; point < 2; ++point) {
    w.point = point;
    a.name_point(point, "p" + std::to_string(point));
    a.process(w.req((point + 1) * us, 1));
  }
  EXPECT_EQ(a.point_name(7), "lldp-only");
  EXPECT_EQ(a.point_name(0), "p0");
  EXPECT_FALSE(a.find(1)->untracked());
  EXPECT_EQ(a.point_name(1), "-");  // past the limit: neither named nor analysed
  EXPECT_EQ(a.find(2)->beyond, LimitKind::points);
  EXPECT_EQ(a.points(), (std::vector<uint32_t>{0, 7}));
}

TEST(Analyzer, PausingPortLimit) {
  Config cfg;
  cfg.max_pfc_ports = 2;
  StoredAnalysis a(cfg);
  pfc::PauseFrame f;
  f.dst = pfc::kPfcDestination, f.enable = 1, f.quanta[0] = 100;
  for (uint8_t port = 1; port <= 4; ++port) {
    f.frame = port, f.ts_ns = port * us, f.src = {2, 0, 0, 0, 0, port};
    a.process(f);
  }
  f.frame = 5, f.ts_ns = 5 * us, f.src = {2, 0, 0, 0, 0, 1};  // an admitted port goes on
  EXPECT_EQ(a.process(f).beyond, LimitKind::none);
  EXPECT_EQ(a.find_pause(2)->beyond, LimitKind::none);
  EXPECT_EQ(a.find_pause(2)->enabled, 1);
  EXPECT_EQ(a.find_pause(3)->beyond, LimitKind::pfc_ports);
  EXPECT_TRUE(a.find_pause(3)->first_beyond);
  EXPECT_FALSE(a.find_pause(4)->first_beyond);
  EXPECT_EQ(a.find_pause(4)->enabled, 0);  // not analysed
}

TEST(Analyzer, ProcessingAFrameTwiceReturnsTheStoredVerdict) {
  StoredAnalysis a;
  Wire w;
  a.process(w.req(0, 1));
  PacketInfo p = w.req(us, 5);
  a.process(p);
  a.process(w.req(2 * us, 6));
  EXPECT_EQ(a.process(p).seq, SeqClass::gap);  // not re-analysed as a retransmission
  EXPECT_FALSE(a.find(99));
}

TEST(Analyzer, Ipv6FlowsWork) {
  StoredAnalysis a;
  Wire w;
  std::array<uint8_t, 16> x{0xfd, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1};
  w.a = Address::from(x);
  x[15] = 2;
  w.b = Address::from(x);
  a.process(w.req(0, 1, true));
  const Verdict& v = a.process(w.resp(us, 1));
  EXPECT_EQ(v.request_frame, 1u);
  EXPECT_EQ(w.a.to_string(), "fd00::1");
}

}  // namespace
}  // namespace roceshark
