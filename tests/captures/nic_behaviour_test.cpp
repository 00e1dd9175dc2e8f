// SPDX-License-Identifier: GPL-2.0-or-later
// What real NICs and switches do that the plain model did not: adaptive
// routing reordering, out-of-order placement, selective repeat, READ
// retries, byte-identical resends, IP ID 0, SPAN copies of a switch's
// other side; and the truth verdicts for them.
#include <gtest/gtest.h>

#include <deque>
#include <string>
#include <vector>

#include "captures/gen/aeth.h"
#include "captures/gen/observer.h"
#include "captures/gen/opcodes.h"
#include "captures/gen/requester.h"
#include "captures/gen/responder.h"
#include "captures/gen/scenario_parser.h"
#include "captures/gen/simulation.h"
#include "tests/captures/test_util.h"

namespace roceshark::gen {
namespace {

// ---- the scenario language --------------------------------------------

const std::string kHosts =
    "host a 10.0.0.1 02:00:00:00:00:0a\n"
    "host b 10.0.0.2 02:00:00:00:00:0b\n";
const std::string kTwoPoints = kHosts + "path a 1us p1 1us p2 1us b\n";

TEST(NicOptions, ParseAndErrors) {
  const std::string qp = "qp q a:0x11 b:0x22 psn=0,0\n";
  test::expect_errors({
      {kTwoPoints + qp + "reorder q a psn=3 by=100ns where=between:p1,p2\n", ""},
      {kTwoPoints + qp + "reorder q a psn=3 where=between:p1,p2\n", "needs by="},
      {kTwoPoints + qp + "reorder q a psn=3 by=0ns where=between:p1,p2\n", "above 0"},
      {kTwoPoints + qp + "reorder q a psn=3 by=1us where=between:p1,p2 kind=ack\n", "kind must be one of req,readresp"},
      {kTwoPoints + qp + "drop q a psn=3 where=before:p1 kind=readresp\n", ""},
      {kTwoPoints + "qp q a:0x11 b:0x22 ooo=b ooo_nak=off recovery=selective:a\n", ""},
      {kTwoPoints + "qp q a:0x11 b:0x22 recovery=selective:a\n", "needs ooo=b"},
      {kTwoPoints + "qp q a:0x11 b:0x22 ooo_nak=2us\n", "ooo_nak needs ooo="},
      {kTwoPoints + "qp q a:0x11 b:0x22 ooo=c\n", "unknown host 'c'"},
      {kTwoPoints + "qp q a:0x11 b:0x22 recovery=gbn\n", "selective:<host>"},
      {"host a 10.0.0.1 02:00:00:00:00:0a ipid=zero resend_ipid=same\n" + kHosts.substr(kHosts.find('\n') + 1) +
           "path a 1us p1 1us b\n",
       ""},
      {"host a 10.0.0.1 02:00:00:00:00:0a ipid=random\n", "ipid must be inc"},
      {"host a 10.0.0.1 02:00:00:00:00:0a resend_ipid=old\n", "resend_ipid must be new"},
      {kHosts + "switch s 02:53:00:00:00:01\npath a 1us p1 1us s 1us b\nmirror p1 dup=1us rewrite=on\n", ""},
      {kTwoPoints + "mirror p1 dup=1us rewrite=on\n", ""},  // a - p1 - the implicit switch p1+p2
      {kHosts + "path a 1us p1 1us b\nmirror p1 dup=1us rewrite=on\n", "between a host and a switch"},
      {kHosts + "path a 1us p1 1us b\nmirror p1 dup=1us rewrite=yes\n", "rewrite must be on or off"},
  });
}

// ---- the responder: out-of-order placement -------------------------------

Incoming only(uint32_t psn, bool ackreq = true) {
  Incoming in;
  in.psn = psn;
  in.first = in.last = true;
  in.ackreq = ackreq;
  return in;
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
  Incoming read = only(1, true);
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

// ---- the requester: selective repeat, READ retries ------------------------

RequesterConfig config(bool selective = false) {
  RequesterConfig c;
  c.start_psn = 100;
  c.timeout = 1000;
  c.nak_turnaround = 50;
  c.selective = selective;
  return c;
}

std::vector<RequestPacket> drain(Requester& r, Ns now) {
  std::vector<RequestPacket> v;
  while (r.ready(now)) v.push_back(r.take(now));
  return v;
}

TEST(SelectiveRequester, ResendsTheNakedPsnAloneThenGoesOn) {
  Requester r(config(true));
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

TEST(GbnRequester, GoesBackToTheNakedPsn) {
  Requester r(config(false));
  WorkRequest w;
  w.type = MsgType::write;
  w.length = 4 * 1024;
  r.add_work(w);
  r.activate(0);
  drain(r, 0);
  r.on_nak_seq(101, 10);
  auto v = drain(r, 60);
  ASSERT_EQ(v.size(), 3u);
  EXPECT_EQ(v[0].cause, Cause::gbn);
}

WorkRequest read_of(uint64_t len) {
  WorkRequest w;
  w.type = MsgType::read;
  w.length = len;
  return w;
}

TEST(ReadRetry, AHoleInTheResponsesReissuesTheReadForTheRest) {
  Requester r(config());
  r.add_work(read_of(4096));  // PSNs 100..103
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
  r.add_work(read_of(4096));
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

// ---- the truth verdicts ---------------------------------------------------

class Feed {
 public:
  Judgement req(uint32_t psn, Cause cause = Cause::original, uint8_t opcode = op::kSendOnly, uint32_t span = 1) {
    FrameInfo i;
    i.kind = FrameKind::req;
    i.psn = psn;
    i.cause = cause;
    i.opcode = opcode;
    i.psn_span = span;
    return judge(i);
  }
  Judgement nak(uint32_t psn) {
    FrameInfo i;
    i.kind = FrameKind::nak;
    i.psn = psn;
    i.opcode = op::kAck;
    i.syndrome = aeth::kNakPsnSeqError;
    return judge(i);
  }
  Judgement resp(uint32_t psn, uint8_t opcode) {
    FrameInfo i;
    i.kind = FrameKind::readresp;
    i.psn = psn;
    i.opcode = opcode;
    return judge(i);
  }

 private:
  Judgement judge(const FrameInfo& i) {
    infos_.push_back(i);
    Frame f;
    f.time = static_cast<Ns>(n_) * 100;
    f.info = &infos_.back();
    return obs_.judge(f, ++n_);
  }
  Observer obs_;
  std::deque<FrameInfo> infos_;
  uint64_t n_ = 0;
};

TEST(NicVerdicts, OvertakenOriginalIsOooAndKeepsHighest) {
  Feed f;
  EXPECT_EQ(f.req(10).verdict, "in-order");
  EXPECT_EQ(f.req(13).verdict, "gap:2");
  EXPECT_EQ(f.req(11).verdict, "ooo:2");
  EXPECT_EQ(f.req(12).verdict, "ooo:1");
  EXPECT_EQ(f.req(14).verdict, "in-order");  // highest stayed 13
  EXPECT_EQ(f.req(0xFFFFFF).verdict, "ooo:15");  // mod 2^24
}

TEST(NicVerdicts, NakOfAnOvertakenPsnSaysReorder) {
  Feed f;
  f.req(10);
  f.req(12);
  EXPECT_EQ(f.req(11).verdict, "ooo:1");
  Judgement j = f.nak(11);
  EXPECT_EQ(j.verdict, "nak:seq");
  EXPECT_EQ(j.note, "reorder");
  EXPECT_EQ(f.nak(13).note, "");  // 13 never arrived overtaken
}

TEST(NicVerdicts, NakBeforeTheLateOriginalHasNoReorderNote) {
  Feed f;
  f.req(10);
  f.req(12);
  EXPECT_EQ(f.nak(11).note, "");
  EXPECT_EQ(f.req(11).verdict, "ooo:1");
}

TEST(NicVerdicts, SelectiveResendNeedsItsNak) {
  Feed f;
  f.req(10);
  f.req(12);
  EXPECT_EQ(f.req(11, Cause::selective).verdict, "retransmission");  // no NAK seen
  Feed g;
  g.req(10);
  g.req(12);
  g.nak(11);
  EXPECT_EQ(g.req(11, Cause::selective).verdict, "selective");
  EXPECT_EQ(g.req(13).verdict, "in-order");
}

TEST(NicVerdicts, ReissuedReadAndResponseGaps) {
  Feed f;
  EXPECT_EQ(f.req(100, Cause::original, op::kReadRequest, 4).verdict, "in-order");
  EXPECT_EQ(f.resp(100, op::kReadRespFirst).verdict, "readresp");
  EXPECT_EQ(f.resp(102, op::kReadRespMiddle).verdict, "readresp-gap:1");
  EXPECT_EQ(f.resp(103, op::kReadRespLast).verdict, "readresp");
  EXPECT_EQ(f.req(101, Cause::read_retry, op::kReadRequest, 3).verdict, "read-retry");
  EXPECT_EQ(f.resp(101, op::kReadRespFirst).verdict, "readresp");  // answers the re-issued READ
  EXPECT_EQ(f.resp(103, op::kReadRespLast).verdict, "readresp-gap:1");
  // The whole READ again at its own PSN is a timer resend, not a retry.
  EXPECT_EQ(f.req(100, Cause::timeout, op::kReadRequest, 4).verdict, "retransmission");
}

// ---- end to end -----------------------------------------------------------

struct Seen {
  size_t point;
  Ns time;
  FrameInfo info;
  std::vector<uint8_t> bytes;
  bool mirror;
  std::string verdict;
};

class Collect : public FrameSink {
 public:
  void frame(const Frame& f) override {
    Judgement j = obs_.judge(f, frames.size() + 1);
    frames.push_back({f.point, f.time, *f.info, {f.data.begin(), f.data.end()}, f.mirror, j.verdict});
  }
  std::vector<Seen> frames;

 private:
  Observer obs_;
};

std::vector<Seen> run(const std::string& text) {
  Scenario sc = parse_scenario(text, "t.scn");
  Simulation sim(sc);
  Collect c;
  sim.run(c);
  return c.frames;
}

std::vector<uint32_t> request_psns(const std::vector<Seen>& f, size_t point) {
  std::vector<uint32_t> v;
  for (const auto& s : f)
    if (s.point == point && s.info.kind == FrameKind::req && !s.mirror) v.push_back(s.info.psn);
  return v;
}

uint32_t ip_id(const Seen& s) { return uint32_t{s.bytes[18]} << 8 | s.bytes[19]; }

TEST(NicSimulation, ReorderSwapsOnlyDownstreamAndOooReceiverDoesNotNak) {
  auto f = run(kTwoPoints + "qp q a:0x11 b:0x22 psn=0,0 ooo=b\nwrite q a 4K\n"
                            "reorder q a psn=1 by=150ns where=between:p1,p2\n");
  EXPECT_EQ(request_psns(f, 0), (std::vector<uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(request_psns(f, 1), (std::vector<uint32_t>{0, 2, 1, 3}));
  for (const auto& s : f) EXPECT_NE(s.info.kind, FrameKind::nak);
}

TEST(NicSimulation, ReorderWithoutOooNaksAndGoesBack) {
  auto f = run(kTwoPoints + "qp q a:0x11 b:0x22 psn=0,0\nwrite q a 4K\n"
                            "reorder q a psn=1 by=150ns where=between:p1,p2\n");
  size_t naks = 0, gbn = 0;
  for (const auto& s : f) {
    naks += s.info.kind == FrameKind::nak && s.point == 1;
    gbn += s.info.cause == Cause::gbn && s.point == 1;
  }
  EXPECT_GE(naks, 1u);
  EXPECT_GE(gbn, 1u);
}

TEST(NicSimulation, ResendIpIdSameAndZero) {
  const std::string net =
      "host a 10.0.0.1 02:00:00:00:00:0a resend_ipid=same\n"
      "host b 10.0.0.2 02:00:00:00:00:0b ipid=zero\n"
      "path a 1us p1 1us b\nqp q a:0x11 b:0x22 psn=0,0\nwrite q a 4K\ndrop q a psn=1 where=after:p1\n";
  auto f = run(net);
  std::vector<const Seen*> psn2;
  for (const auto& s : f) {
    if (s.info.src_host == 1) {
      EXPECT_EQ(ip_id(s), 0u);  // b's ACK and NAK
    }
    if (s.info.kind == FrameKind::req && s.info.psn == 2) psn2.push_back(&s);
  }
  ASSERT_EQ(psn2.size(), 2u);
  EXPECT_EQ(psn2[1]->info.cause, Cause::gbn);
  EXPECT_EQ(psn2[0]->bytes, psn2[1]->bytes);  // byte-identical
}

TEST(NicSimulation, MirrorRewriteShowsTheSwitchsOtherSide) {
  const std::string net = kHosts +
                          "switch s 02:53:00:00:00:01\npath a 1us p1 1us s 1us b\nmirror p1 dup=1us rewrite=on\n"
                          "qp q a:0x11 b:0x22 psn=0,0\nsend q a 100\n";
  auto f = run(net);
  ASSERT_EQ(f.size(), 4u);  // the SEND and its ACK, each twice
  for (size_t i = 0; i + 1 < f.size(); ++i) {
    if (f[i].mirror) continue;
    const Seen* copy = nullptr;
    for (const auto& s : f)
      if (s.mirror && s.info.kind == f[i].info.kind) copy = &s;
    ASSERT_TRUE(copy);
    const bool into_switch = f[i].info.src_host == 0;
    EXPECT_EQ(copy->bytes[22], into_switch ? f[i].bytes[22] - 1 : f[i].bytes[22] + 1);  // TTL
    const std::vector<uint8_t> src(copy->bytes.begin() + 6, copy->bytes.begin() + 12);
    EXPECT_EQ(test::hex(src), into_switch ? "025300000001" : "02000000000b");
  }
}

}  // namespace
}  // namespace roceshark::gen
