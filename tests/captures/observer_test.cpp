// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/observer.h"

#include <gtest/gtest.h>

#include "captures/gen/aeth.h"
#include "captures/gen/opcodes.h"
#include "captures/gen/scenario.h"

namespace roceshark::gen {
namespace {

// Feeds frames of one QP direction at one point, numbering them.
class Feed {
 public:
  Judgement req(uint32_t psn, bool ackreq = false, Cause cause = Cause::original, uint32_t span = 1) {
    FrameInfo i;
    i.kind = FrameKind::req;
    i.psn = psn;
    i.ackreq = ackreq;
    i.cause = cause;
    i.psn_span = span;
    return send(i);
  }
  Judgement req_at(Ns time, uint32_t psn, Cause cause = Cause::original) {
    FrameInfo i;
    i.kind = FrameKind::req;
    i.psn = psn;
    i.cause = cause;
    infos_.push_back(i);
    Frame f;
    f.time = time;
    f.info = &infos_.back();
    return obs_.judge(f, ++n_);
  }
  Judgement ack(uint32_t psn, uint8_t syndrome = aeth::kAckInvalidCredit) {
    FrameInfo i;
    i.kind = aeth::is_ack(syndrome) ? FrameKind::ack : FrameKind::nak;
    i.opcode = op::kAck;
    i.psn = psn;
    i.syndrome = syndrome;
    return send(i);
  }
  Judgement mirror_of_last() {
    Frame f;
    f.info = &infos_.back();
    f.mirror = true;
    return obs_.judge(f, ++n_);
  }
  Judgement on_point(size_t point, const FrameInfo& i) {
    infos_.push_back(i);
    Frame f;
    f.point = point;
    f.info = &infos_.back();
    return obs_.judge(f, ++n_);
  }

 private:
  Judgement send(const FrameInfo& i) { return on_point(0, i); }
  Observer obs_;
  std::deque<FrameInfo> infos_;
  uint64_t n_ = 0;
};

TEST(Observer, InOrderGapAndResends) {
  Feed f;
  EXPECT_EQ(f.req(10).verdict, "in-order");  // first seen
  EXPECT_EQ(f.req(11).verdict, "in-order");
  EXPECT_EQ(f.req(14).verdict, "gap:2");     // 12 and 13 skipped
  f.ack(12, aeth::kNakPsnSeqError);
  EXPECT_EQ(f.req(12, false, Cause::gbn).verdict, "gbn");
  EXPECT_EQ(f.req_at(2'000'000, 13, Cause::timeout).verdict, "timeout");  // after a silence
  f.ack(14, aeth::rnr_nak(1));
  EXPECT_EQ(f.req(14, false, Cause::rnr).verdict, "rnr-retry");
  EXPECT_EQ(f.req(14, false, Cause::original).verdict, "retransmission");
  // A resend whose original this point never saw is simply the next PSN.
  EXPECT_EQ(f.req(15, false, Cause::gbn).verdict, "in-order");
}

TEST(Observer, ResendWithoutItsNakInTheCaptureIsARetransmission) {
  Feed f;
  f.req(10);
  f.req(11);
  f.req(12);
  // The NAK never passed a point that records b->a: the cause can't be seen.
  EXPECT_EQ(f.req(11, false, Cause::gbn).verdict, "retransmission");
  EXPECT_EQ(f.req(12, false, Cause::rnr).verdict, "retransmission");
}

TEST(Observer, KarnNoAnswerForResentPsns) {
  Feed f;
  f.req(1, true);  // frame 1
  f.req(2, true);  // frame 2
  f.req(3, true);  // frame 3
  f.ack(2, aeth::kNakPsnSeqError);  // covers 1
  f.req(2, false, Cause::gbn);
  f.req(3, true, Cause::gbn);
  auto a = f.ack(3);
  EXPECT_EQ(a.verdict, "ack");
  EXPECT_FALSE(a.request_frame);  // 2 and 3 were resent: no request to credit
}

TEST(Observer, ReadCountsToItsLastResponsePsn) {
  Feed f;
  f.req(100, true, Cause::original, 4);  // READ of 4 packets at 100
  EXPECT_EQ(f.req(104).verdict, "in-order");
  f.ack(102, aeth::kNakPsnSeqError);
  EXPECT_EQ(f.req(102, false, Cause::gbn).verdict, "gbn");
}

TEST(Observer, WrapIsInOrder) {
  Feed f;
  f.req(0xFFFFFE);
  EXPECT_EQ(f.req(0xFFFFFF).verdict, "in-order");
  EXPECT_EQ(f.req(0).verdict, "in-order");
  EXPECT_EQ(f.req(3).verdict, "gap:2");
  f.ack(0xFFFFFF, aeth::kNakPsnSeqError);
  EXPECT_EQ(f.req(0xFFFFFF, false, Cause::gbn).verdict, "gbn");
}

TEST(Observer, MirrorCopiesAreDuplicatesAndChangeNothing) {
  Feed f;
  f.req(5, true);
  EXPECT_EQ(f.mirror_of_last().verdict, "duplicate");
  EXPECT_EQ(f.req(6).verdict, "in-order");
  auto a = f.ack(6);
  EXPECT_EQ(a.verdict, "ack");
  EXPECT_EQ(a.request_frame, 1u);  // the original, not the copy (frame 2)
  EXPECT_EQ(f.mirror_of_last().verdict, "duplicate");
  EXPECT_EQ(f.ack(7).verdict, "ack");  // the mirrored ACK did not count as the previous one
}

TEST(Observer, AckCoversNewestAckReqOnce) {
  Feed f;
  f.req(1, true);   // frame 1
  f.req(2, false);  // frame 2
  f.req(3, true);   // frame 3
  auto a = f.ack(3);
  EXPECT_EQ(a.verdict, "ack");
  EXPECT_EQ(a.request_frame, 3u);
  auto d = f.ack(3);
  EXPECT_EQ(d.verdict, "dup-ack");
  EXPECT_FALSE(d.request_frame);  // nothing left to cover
  EXPECT_EQ(f.ack(2).verdict, "dup-ack");
}

TEST(Observer, SequenceNakCoversBelowItsPsn) {
  Feed f;
  f.req(1, true);  // frame 1
  f.req(2, true);  // frame 2
  auto n = f.ack(2, aeth::kNakPsnSeqError);
  EXPECT_EQ(n.verdict, "nak:seq");
  EXPECT_EQ(n.request_frame, 1u);  // PSN 2 itself is what is missing
  auto a = f.ack(2);
  EXPECT_EQ(a.request_frame, 2u);
}

TEST(Observer, RnrAndErrorNaksCoverTheirPsn) {
  Feed f;
  f.req(7, true);  // frame 1
  auto n = f.ack(7, aeth::rnr_nak(14));
  EXPECT_EQ(n.verdict, "nak:rnr");
  EXPECT_EQ(n.request_frame, 1u);
  EXPECT_EQ(f.req(7, true, Cause::rnr).verdict, "rnr-retry");
  EXPECT_FALSE(f.ack(7).request_frame);  // a retransmitted copy is not eligible
  Feed g;
  g.req(1, true);
  EXPECT_EQ(g.ack(1, aeth::kNakRemoteAccess).verdict, "nak:rem-access");
  EXPECT_EQ(nak_verdict(aeth::kNakInvalidRequest), "nak:inv-req");
  EXPECT_EQ(nak_verdict(aeth::kNakRemoteOperational), "nak:rem-op");
}

TEST(Observer, PointsAndQpsAreSeparate) {
  Feed f;
  FrameInfo i;
  i.kind = FrameKind::req;
  i.psn = 50;
  EXPECT_EQ(f.on_point(0, i).verdict, "in-order");
  i.psn = 60;
  EXPECT_EQ(f.on_point(1, i).verdict, "in-order");  // first at that point
  i.qp = 1;
  EXPECT_EQ(f.on_point(0, i).verdict, "in-order");  // another QP (a reused QPN is one too)
  i.qp = 0;
  EXPECT_EQ(f.on_point(0, i).verdict, "gap:9");
}

TEST(Observer, TimeoutNeedsASilenceBeforeTheRun) {
  Feed f;
  f.req_at(0, 10);
  f.req_at(100, 11);
  f.req_at(200, 12);
  // The timer fired with nothing passing here for 4 ms: a visible timeout.
  EXPECT_EQ(f.req_at(4'000'200, 10, Cause::timeout).verdict, "timeout");
  EXPECT_EQ(f.req_at(4'000'300, 11, Cause::timeout).verdict, "timeout");  // the run goes on
  EXPECT_EQ(f.req_at(4'000'400, 12, Cause::timeout).verdict, "timeout");
  Feed g;  // a pause held the originals: they and the resends pass back to back
  g.req_at(5'000'000, 10);
  g.req_at(5'000'100, 11);
  EXPECT_EQ(g.req_at(5'000'200, 10, Cause::timeout).verdict, "retransmission");
  EXPECT_EQ(g.req_at(5'000'300, 11, Cause::timeout).verdict, "retransmission");
  EXPECT_EQ(g.req_at(5'000'400, 12).verdict, "in-order");
  // A new run after a silence is judged afresh.
  EXPECT_EQ(g.req_at(9'000'400, 12, Cause::timeout).verdict, "timeout");
}

TEST(Observer, PfcAndLldpFrames) {
  PfcDirective xoff;
  xoff.enable = 1 << 3 | 1 << 4;
  xoff.quanta[3] = 0xFFFF;  // class 4: XON in the same frame
  PfcDirective xon;
  xon.enable = 1 << 3;
  LldpDirective lldp;
  Observer obs;
  FrameInfo i;
  i.kind = FrameKind::pfc;
  i.pfc = &xoff;
  Frame fr;
  fr.info = &i;
  EXPECT_EQ(obs.judge(fr, 1).verdict, "pfc-xoff");
  i.pfc = &xon;
  EXPECT_EQ(obs.judge(fr, 2).verdict, "pfc-xon");
  FrameInfo l;
  l.kind = FrameKind::lldp;
  l.lldp = &lldp;
  fr.info = &l;
  EXPECT_EQ(obs.judge(fr, 3).verdict, "lldp");
  EXPECT_EQ(pfc_verdict(0, {}), "pfc-xon");
  EXPECT_EQ(kind_name(FrameKind::pfc), "pfc");
  EXPECT_EQ(kind_name(FrameKind::lldp), "lldp");
}

TEST(Observer, BestEffortFramesAreCrossTraffic) {
  FrameInfo i;
  i.kind = FrameKind::besteffort;
  Frame fr;
  fr.info = &i;
  Observer obs;
  const Judgement j = obs.judge(fr, 1);
  EXPECT_EQ(j.verdict, "besteffort");
  EXPECT_FALSE(j.request_frame.has_value());
  fr.mirror = true;
  EXPECT_EQ(obs.judge(fr, 2).verdict, "duplicate");
  EXPECT_EQ(kind_name(FrameKind::besteffort), "besteffort");
  EXPECT_FALSE(is_roce(FrameKind::besteffort));
}

TEST(Observer, Names) {
  EXPECT_EQ(kind_name(FrameKind::readresp), "readresp");
  EXPECT_EQ(cause_name(Cause::none, false), "-");
  EXPECT_EQ(cause_name(Cause::gbn, true), "mirror");
  EXPECT_EQ(cause_name(Cause::rnr, false), "rnr");
}

// ---- what real NICs and fabrics do: reordering, selective repeat, READ retries

FrameInfo read_request(uint32_t psn, uint32_t span, Cause cause) {
  FrameInfo i;
  i.kind = FrameKind::req;
  i.opcode = op::kReadRequest;
  i.psn = psn;
  i.psn_span = span;
  i.cause = cause;
  return i;
}

FrameInfo read_response(uint32_t psn, uint8_t opcode) {
  FrameInfo i;
  i.kind = FrameKind::readresp;
  i.opcode = opcode;
  i.psn = psn;
  return i;
}

TEST(Observer, OvertakenOriginalIsOooAndKeepsHighest) {
  Feed f;
  EXPECT_EQ(f.req(10).verdict, "in-order");
  EXPECT_EQ(f.req(13).verdict, "gap:2");
  EXPECT_EQ(f.req(11).verdict, "ooo:2");
  EXPECT_EQ(f.req(12).verdict, "ooo:1");
  EXPECT_EQ(f.req(14).verdict, "in-order");      // highest stayed 13
  EXPECT_EQ(f.req(0xFFFFFF).verdict, "ooo:15");  // mod 2^24
}

TEST(Observer, NakOfAnOvertakenPsnSaysReorder) {
  Feed f;
  f.req(10);
  f.req(12);
  EXPECT_EQ(f.req(11).verdict, "ooo:1");
  Judgement j = f.ack(11, aeth::kNakPsnSeqError);
  EXPECT_EQ(j.verdict, "nak:seq");
  EXPECT_EQ(j.note, "reorder");
  EXPECT_EQ(f.ack(13, aeth::kNakPsnSeqError).note, "");  // 13 never arrived overtaken
  Feed g;  // the NAK passes before the late original: a loss as far as the point knows
  g.req(10);
  g.req(12);
  EXPECT_EQ(g.ack(11, aeth::kNakPsnSeqError).note, "");
  const Judgement late = g.req(11);  // ... until the late original takes it back
  EXPECT_EQ(late.verdict, "ooo:1");
  EXPECT_EQ(late.taken_back.size(), 1u);
  Feed h;  // its resends came first (a detour longer than a round trip): taken back all the same
  h.req(10);
  h.req(12);
  h.ack(11, aeth::kNakPsnSeqError);
  h.req(11, false, Cause::gbn);
  h.req(12, false, Cause::gbn);
  const Judgement after = h.req(11);
  EXPECT_EQ(after.verdict, "ooo:1");
  EXPECT_EQ(after.taken_back.size(), 1u);
  Feed k;  // a late original of another PSN takes nothing back
  k.req(10);
  k.req(13);
  k.ack(11, aeth::kNakPsnSeqError);
  k.req(11, false, Cause::gbn);
  EXPECT_TRUE(k.req(12).taken_back.empty());
}

TEST(Observer, SelectiveResendNeedsItsNak) {
  Feed f;
  f.req(10);
  f.req(12);
  EXPECT_EQ(f.req(11, false, Cause::selective).verdict, "retransmission");  // no NAK seen
  Feed g;
  g.req(10);
  g.req(12);
  g.ack(11, aeth::kNakPsnSeqError);
  // The first lone resend looks like go-back-N until the next request shows it alone.
  EXPECT_EQ(g.req(11, false, Cause::selective).verdict, "gbn");
  EXPECT_EQ(g.req(13).verdict, "in-order");  // not 12: selective repeat shown
  g.req(15);
  g.ack(14, aeth::kNakPsnSeqError);
  EXPECT_EQ(g.req(14, false, Cause::selective).verdict, "selective");
}

TEST(Observer, ReissuedReadAndResponseGaps) {
  Feed f;
  EXPECT_EQ(f.on_point(0, read_request(100, 4, Cause::original)).verdict, "in-order");
  EXPECT_EQ(f.on_point(0, read_response(100, op::kReadRespFirst)).verdict, "readresp");
  EXPECT_EQ(f.on_point(0, read_response(102, op::kReadRespMiddle)).verdict, "readresp-gap:1");
  EXPECT_EQ(f.on_point(0, read_response(103, op::kReadRespLast)).verdict, "readresp");
  EXPECT_EQ(f.on_point(0, read_request(101, 3, Cause::read_retry)).verdict, "read-retry");
  EXPECT_EQ(f.on_point(0, read_response(101, op::kReadRespFirst)).verdict, "readresp");  // the re-issued READ's
  EXPECT_EQ(f.on_point(0, read_response(103, op::kReadRespLast)).verdict, "readresp-gap:1");
  // The whole READ again at its own PSN is a timer resend, not a retry.
  EXPECT_EQ(f.on_point(0, read_request(100, 4, Cause::timeout)).verdict, "retransmission");
}

}  // namespace
}  // namespace roceshark::gen
