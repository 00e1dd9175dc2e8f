// SPDX-License-Identifier: GPL-2.0-or-later
// The triage's own arithmetic: stall time per QP, the timeline's bins, the
// health thresholds, and findings built from the engine's real verdicts.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <numeric>
#include <optional>

#include "epan-ext/analysis/analyzer.h"
#include "epan-ext/analysis/stored_analysis.h"
#include "epan-ext/report/json_report.h"
#include "epan-ext/report/triage.h"
#include "packets.h"

namespace roceshark::triage {
namespace {

using test::Wire;
using test::kWriteFirst, test::kWriteLast, test::kWriteOnly;
constexpr uint64_t us = 1000, ms = 1000 * us;

struct Fed {
  StoredAnalysis a;
  ReportStats stats;
  Verdict feed(const PacketInfo& p) {
    const Verdict v = a.process(p);
    stats.add(latest_record(v, a, p.ts_ns, p.frame_len, nullptr));
    return v;
  }
  const QpImpact& only_row() const {
    const auto rows = stats.impact.rows();
    EXPECT_EQ(rows.size(), 1u);
    return *rows.begin()->second;
  }
};

TEST(StallIntervals, OverlapsCountOnce) {
  StallIntervals s;
  s.add(100, 200);
  s.add(150, 250);  // overlaps the first
  s.add(300, 400);
  s.add(50, 60);    // before everything
  s.add(0, 0);      // empty
  EXPECT_EQ(s.total(), 150u + 100 + 10);
  s.add(0, 1000);   // covers all
  EXPECT_EQ(s.total(), 1000u);
}

TEST(StallIntervals, OldIntervalsAreSettledNotForgotten) {
  StallIntervals s;
  for (uint64_t i = 0; i < 100; ++i) s.add(i * 10, i * 10 + 5);
  EXPECT_EQ(s.total(), 500u);
}

TEST(Timeline, BinsDoubleAndKeepEveryCount) {
  Timeline t;
  t.start(0);
  const int r = t.add_row();
  for (uint64_t i = 0; i < 1000; ++i) t.count(r, i * 997);  // ~1 ms: past 128 bins of 1 us
  EXPECT_GT(t.bin_ns(), 1000u);
  EXPECT_LE(t.bins_used(), Timeline::kBins);
  const auto& bins = t.row(r, Timeline::retransmissions);
  EXPECT_EQ(std::accumulate(bins.begin(), bins.end(), uint64_t{0}), 1000u);
  EXPECT_GE(static_cast<uint64_t>(t.bins_used()) * t.bin_ns(), 999u * 997);
}

TEST(Timeline, SpreadSplitsTimeOverTheBinsItCovers) {
  Timeline t;
  t.start(0);
  const int r = t.add_row();
  t.spread(r, Timeline::paused_ns, 500, 3200);  // bins of 1 us: 500 + 1000 + 1000 + 200
  const auto& b = t.row(r, Timeline::paused_ns);
  EXPECT_EQ(b[0], 500u);
  EXPECT_EQ(b[1], 1000u);
  EXPECT_EQ(b[2], 1000u);
  EXPECT_EQ(b[3], 200u);
  EXPECT_EQ(t.bins_used(), 4u);
}

TEST(Timeline, RowsAreBounded) {
  Timeline t;
  for (uint32_t i = 0; i < Timeline::kMaxRows; ++i) EXPECT_GE(t.add_row(), 0);
  EXPECT_EQ(t.add_row(), -1);
  t.count(-1, 5);  // a dropped row still widens the bins, and costs nothing
  EXPECT_EQ(t.dropped(), 1u);
}

TEST(Threshold, ParsesWarnAndFail) {
  std::string error;
  const auto t = parse_threshold(" 0.001 , 0.01 ", error);
  ASSERT_TRUE(t) << error;
  EXPECT_DOUBLE_EQ(t->warn, 0.001);
  EXPECT_DOUBLE_EQ(t->fail, 0.01);
  EXPECT_EQ(format_threshold(*t), "0.001,0.01");
  for (const char* bad : {"", "1", "1,", ",2", "a,b", "2,1", "-1,2", "1,2,3", "inf,inf", "nan,1", "1,nan", "1,1e400", "1,,2", "1e-400,1"}) {
    EXPECT_FALSE(parse_threshold(bad, error)) << bad;
    EXPECT_FALSE(error.empty());
  }
  EXPECT_TRUE(parse_threshold("1,1", error)) << error;  // WARN may equal FAIL
  EXPECT_FALSE(parse_threshold("50,200", error, 100));   // percentages stop at 100
  EXPECT_NE(error.find("'200' is out of range 0-100"), std::string::npos) << error;
}

TEST(ImpactStats, RecoveryRunsFromTheGapToTheLastResend) {
  Fed f;
  Wire w;
  f.feed(w.req(0, 0));
  EXPECT_EQ(f.feed(w.req(1 * us, 2, true)).seq, SeqClass::gap);  // PSN 1 lost before the point
  f.feed(w.resp(2 * us, 1, test::kSynNakSeq));
  EXPECT_EQ(f.feed(w.req(3 * us, 1)).seq, SeqClass::gbn_resend);
  EXPECT_EQ(f.feed(w.req(4 * us, 2, true)).seq, SeqClass::gbn_resend);
  f.feed(w.req(10 * us, 3, true));  // new data: the run is over
  const QpImpact& q = f.only_row();
  EXPECT_EQ(q.runs, 1u);
  EXPECT_EQ(q.recovery_ns, 3 * us);  // 1 us (the gap) to 4 us (the last resend)
  EXPECT_EQ(q.timeout_ns, 0u);
  EXPECT_EQ(q.stalled.total(), 3 * us);
  EXPECT_EQ(q.originals, 3u);  // PSNs 0, 2 and 3: 1 was never seen before its resend
  EXPECT_EQ(q.retransmissions, 2u);
}

// A second NAK inside a go-back-N run sends the requester back again: a
// second loss, so a second run (the engine's run_start), and the stall goes
// on without a break.
TEST(ImpactStats, AJumpBackInsideARunIsASecondRun) {
  Fed f;
  Wire w;
  f.feed(w.req(0, 0));
  f.feed(w.req(1 * us, 1));
  f.feed(w.req(2 * us, 3, true));  // PSN 2 lost before the point
  f.feed(w.resp(3 * us, 2, test::kSynNakSeq));
  const Verdict& first = f.feed(w.req(4 * us, 2));
  EXPECT_TRUE(first.run_start);
  EXPECT_FALSE(f.feed(w.req(5 * us, 3, true)).run_start);  // the run goes on
  f.feed(w.resp(6 * us, 3, test::kSynNakSeq));             // PSN 3's resend lost after the point
  const Verdict& again = f.feed(w.req(7 * us, 3, true));
  ASSERT_TRUE(is_retransmission(again.seq));
  EXPECT_TRUE(again.run_start);
  f.feed(w.req(9 * us, 4, true));  // new data: the run is over
  const QpImpact& q = f.only_row();
  EXPECT_EQ(q.runs, 2u);
  EXPECT_EQ(q.recovery_ns, 5 * us);  // 2 us (the gap) to 7 us (the last resend)
  EXPECT_EQ(q.stalled.total(), 5 * us);
}

TEST(ImpactStats, TimerResendCountsTheSilenceBeforeIt) {
  Fed f;
  Wire w;
  f.feed(w.req(0, 0));
  f.feed(w.req(1 * us, 1, true));
  const Verdict& v = f.feed(w.req(5 * ms, 1, true));  // the tail was lost: the timer fired
  ASSERT_EQ(v.seq, SeqClass::timeout_retransmission);
  const QpImpact& q = f.only_row();
  EXPECT_EQ(q.timeout_runs, 1u);
  EXPECT_EQ(q.timeout_ns, v.quiet_ns);
  EXPECT_EQ(q.recovery_ns, v.quiet_ns);
  EXPECT_EQ(q.timeout_recovery_ns, v.quiet_ns);
}

TEST(ImpactStats, RnrWaitsAreNotNetworkStall) {
  Fed f;
  Wire w;
  f.feed(w.req(0, 0, true));
  f.feed(w.resp(1 * us, 0, test::syn_rnr(3)));  // 30 us
  ASSERT_EQ(f.feed(w.req(31 * us, 0, true)).seq, SeqClass::rnr_retry);
  const QpImpact& q = f.only_row();
  EXPECT_EQ(q.rnr_ns, 30 * us);
  EXPECT_EQ(q.recovery_ns, 0u);
  EXPECT_EQ(q.stalled.total(), 0u);
}

TEST(Findings, CeAnsweredByNoCnpIsTheReceiversNotificationPoint) {
  for (bool cnp : {false, true}) {
    Fed f;
    Wire w;
    for (uint32_t psn = 0; psn < 4; ++psn) {  // CE from 3 us; acknowledged 6.6 us later
      PacketInfo p = w.req(psn * 3 * us, psn, true);
      p.dscp = 26, p.ecn = psn >= 1 ? 3 : 2;
      f.feed(p);
      if (cnp && psn == 1) f.feed(w.cnp(psn * 3 * us + 500));
      f.feed(w.resp(psn * 3 * us + 600, psn));
    }
    const Triage t = make_triage(f.stats, f.a);
    const bool found = std::any_of(t.findings.list.begin(), t.findings.list.end(),
                                   [](const Finding& x) { return x.kind == kind("ce_without_cnp"); });
    EXPECT_EQ(found, !cnp) << (cnp ? "with" : "without") << " a CNP";
  }
}

// A hop that clears ECN: one ecn_bleached finding, its filter the catalogue's.
TEST(Findings, EcnClearedBetweenPointsIsBleaching) {
  Fed f;
  Wire w;
  for (uint32_t psn = 0; psn < 4; ++psn) {
    for (uint32_t point : {0u, 1u}) {
      w.point = point;
      PacketInfo p = w.req(psn * us + point * 300, psn, true);
      p.dscp = 26, p.ecn = point == 0 ? 2 : 0;
      f.feed(p);
    }
    w.point = 1;
    f.feed(w.resp(psn * us + 600, psn));
  }
  const Triage t = make_triage(f.stats, f.a);
  const auto it = std::find_if(t.findings.list.begin(), t.findings.list.end(),
                               [](const Finding& x) { return x.kind == kind("ecn_bleached"); });
  ASSERT_NE(it, t.findings.list.end());
  EXPECT_EQ(it->evidence, 4u);
  EXPECT_EQ(it->filter, "roce.hop.ecn_bleached && roce.point == 1 && roce.hop.prev_point == 0");
  EXPECT_EQ(it->severity, Severity::warning);
}

// Two points, 0 then 1, with the engine's events: what a multi-point
// capture gives the triage.
struct TwoPoints {
  EventLog log;
  Config cfg;
  std::unique_ptr<StoredAnalysis> a;
  ReportStats stats;
  explicit TwoPoints(const Config& c = {}) : cfg(c), a(std::make_unique<StoredAnalysis>(cfg, &log)) {
    a->name_point(0, "nic-a");
    a->name_point(1, "leaf-1");
  }
  void feed(const PacketInfo& p) { stats.add(latest_record(a->process(p), *a, p.ts_ns, p.frame_len, &log)); }
  const icmp::Verdict& feed(const icmp::TooBig& m) {
    const icmp::Verdict& v = a->process(m);
    stats.add({.verdict = nullptr, .facts = a.get(), .ts_ns = m.ts_ns, .frame_len = 590, .events = &log, .icmp = &v});
    return v;
  }
  Triage triage(uint32_t frames) {
    a->finish();
    FrameSet all;
    for (uint32_t f = 1; f <= frames; ++f) all.add(f);
    stats.settle(log, all);
    return make_triage(stats, *a);
  }
};

const Finding* of_kind(const Triage& t, Kind k) {
  for (const Finding& f : t.findings.list)
    if (f.kind == k) return &f;
  return nullptr;
}

// A router's ICMP fragmentation-needed about a's WRITE segments, recorded
// at a's side (10.0.0.254, MTU 1500), quoting a -> b with `qp` when given.
icmp::TooBig frag_needed(test::Wire& w, uint64_t at, uint32_t mtu, std::optional<uint32_t> qp) {
  icmp::TooBig m;
  m.frame = ++w.frame, m.ts_ns = at, m.point = 0;
  m.reporter = test::ip(254), m.src = w.a, m.dst = w.b, m.mtu = mtu, m.quoted_len = 4156;
  m.has_bth = qp.has_value(), m.dest_qp = qp.value_or(0);
  return m;
}

// A 4 KB WRITE FIRST from a at point 0, the kind a 1,500-byte MTU drops.
void send_big_write(TwoPoints& t, Wire& w, uint64_t at) {
  PacketInfo big = w.req(at, 0, true, kWriteFirst, 4096);
  big.frame_len = 4174, big.ip_len = 4156;
  t.feed(big);
}

// Four 4 KB WRITE FIRSTs lost between the points, each with the router's
// ICMP about it at point 0 when `icmp`, and the 512-byte WRITE LASTs that cross.
void lose_big_frames(TwoPoints& t, Wire& w, bool icmp, int n = 4) {
  uint32_t psn = 0;
  for (int i = 0; i < n; ++i, psn += 2) {
    const uint64_t at = i * 20 * us;
    w.point = 0;
    PacketInfo big = w.req(at, psn, false, kWriteFirst, 4096);
    big.frame_len = 4170, big.ip_len = 4156;
    t.feed(big);  // never reaches point 1
    if (icmp) t.feed(frag_needed(w, at + 500, 1500, w.qp_b));
    PacketInfo last = w.req(at + 1 * us, psn + 1, true, kWriteLast, 512);
    last.frame_len = 570;
    t.feed(last);
    w.point = 1;
    last = w.req(at + 3 * us, psn + 1, true, kWriteLast, 512);
    last.frame_len = 570;
    t.feed(last);
  }
}

// Every 4 KB segment lost between the points, every short one through: the
// MTU finding names the hop and both sizes, and takes the losses from hop_loss.
// The path MTU comes from the CM REQ when the connection's setup was captured.
TEST(Findings, SizeDependentLossOnAHopIsAnMtuMismatch) {
  for (const bool with_cm : {false, true}) {
    TwoPoints t;
    Wire w;
    if (with_cm) {
      for (const bool req : {true, false})
        for (uint32_t point : {0u, 1u}) {
          w.point = point;
          PacketInfo p = w.base(point * 300);
          p.src = req ? w.a : w.b, p.dst = req ? w.b : w.a, p.dest_qp = 1, p.opcode = test::kUdSendOnly;
          p.cm = req ? CmMessage{CmMessage::Kind::req, 0xA1, 0, w.qp_a, 0, 4096}
                     : CmMessage{CmMessage::Kind::rep, 0xB1, 0xA1, w.qp_b, 0, 0};
          t.feed(p);
        }
    }
    lose_big_frames(t, w, false);
    const Triage tr = t.triage(w.frame);
    const Finding* f = of_kind(tr, kind("mtu_mismatch"));
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->title, "MTU between nic-a and leaf-1: frames of 4,170 bytes and more are lost, 570 bytes and less pass");
    EXPECT_EQ(f->where.hop, "nic-a -> leaf-1");
    EXPECT_EQ(f->evidence, 4u);
    EXPECT_EQ(f->filter, "(roce.hop.too_big || roce.mtu.icmp_mtu) && roce.point == 0 && roce.qp.stream == 0");
    EXPECT_NE(f->detail.find(with_cm ? "path MTU is 4096 (from CM REQ frame 1)"
                                      : "path MTU is 4096 (from their FIRST/MIDDLE segments)"),
              std::string::npos)
        << f->detail;
    EXPECT_NE(f->fix.find("at least 4,180 bytes"), std::string::npos) << f->fix;
    EXPECT_EQ(of_kind(tr, kind("hop_loss")), nullptr);  // the size explains all of them
  }
}

// LLDP at the hop's upstream point announcing `max_frame` (FCS included).
void announce_max_frame(TwoPoints& t, uint32_t frame, uint16_t max_frame) {
  qos::DcbxAnnouncement a;
  a.point = 0, a.max_frame_size = max_frame;
  t.stats.qos.add_dcbx(frame, 0, "nic-a", a, {});
}

// Two long frames lost, fewer than roce.mtu_min_lost: their size alone is
// no proof; with LLDP on the link announcing a maximum between the frames
// that pass and those lost, it is. Not when short frames are lost too.
TEST(Findings, FewSizeDependentLossesAreAnMtuMismatchWhenLldpAnnouncesTheLimit) {
  for (const uint16_t announced : {uint16_t{0}, uint16_t{9216}, uint16_t{1522}}) {
    TwoPoints t;
    Wire w;
    lose_big_frames(t, w, false, 2);
    if (announced) announce_max_frame(t, ++w.frame, announced);
    const Triage tr = t.triage(w.frame);
    const Finding* f = of_kind(tr, kind("mtu_mismatch"));
    if (announced != 1522) {  // none, or one the lost frames fit
      EXPECT_EQ(f, nullptr) << announced;
      ASSERT_NE(of_kind(tr, kind("hop_loss")), nullptr);
      continue;
    }
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->evidence, 2u);
    EXPECT_NE(f->detail.find("LLDP on this link announces a maximum frame size of 1,522 bytes"), std::string::npos)
        << f->detail;
    EXPECT_EQ(of_kind(tr, kind("hop_loss")), nullptr);
    EXPECT_EQ(of_kind(tr, kind("lossy_queue")), nullptr);
  }
  TwoPoints t;
  Wire w;
  lose_big_frames(t, w, false, 2);
  w.point = 0;
  PacketInfo small = w.req(50 * us, 4, false, kWriteOnly, 256);  // never reaches leaf-1 either
  small.frame_len = 314;
  t.feed(small);
  w.point = 0;
  PacketInfo next = w.req(51 * us, 5, true, kWriteOnly, 512);
  next.frame_len = 570;
  t.feed(next);
  w.point = 1;
  next = w.req(53 * us, 5, true, kWriteOnly, 512);
  next.frame_len = 570;
  t.feed(next);
  announce_max_frame(t, ++w.frame, 1522);
  const Triage tr = t.triage(w.frame);
  EXPECT_EQ(of_kind(tr, kind("mtu_mismatch")), nullptr);
  ASSERT_NE(of_kind(tr, kind("hop_loss")), nullptr);
}

// One capture point at the sender: the ICMP messages are the finding,
// named by the router, its MTU and the flow; the resends they explain are
// not a lossy queue. Resent every time: the NIC ignores them.
TEST(Findings, IcmpTooBigAtOnePointIsAnMtuMismatch) {
  for (const bool quote_has_bth : {true, false}) {
    TwoPoints t;
    Wire w;
    for (int i = 0; i < 3; ++i) {
      send_big_write(t, w, i * 100 * us);
      const icmp::Verdict& v = t.feed(frag_needed(w, i * 100 * us + 4 * us, 1500,
                                                  quote_has_bth ? std::optional(w.qp_b) : std::nullopt));
      EXPECT_TRUE(v.below);
      EXPECT_EQ(v.largest, 4156u);
      EXPECT_EQ(v.flow, 0u);
    }
    const Triage tr = t.triage(w.frame);
    const Finding* f = of_kind(tr, kind("mtu_mismatch"));
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(f->title, std::string("router 10.0.0.254 reports MTU 1,500 for 10.0.0.1 -> 10.0.0.2") +
                            (quote_has_bth ? " QP 0x000022" : "") +
                            ", below the frames RoCE sends (IP packets of 4,156 bytes)");
    EXPECT_EQ(f->severity, Severity::error);
    EXPECT_EQ(f->where.point, "nic-a");
    EXPECT_EQ(f->evidence, 3u);
    EXPECT_EQ(f->frames, (std::vector<uint32_t>{2, 4, 6}));
    EXPECT_EQ(f->filter, "(roce.hop.too_big || roce.mtu.icmp_mtu) && roce.point == 0 && ip.src == 10.0.0.254");
    EXPECT_EQ(f->where.streams, std::vector<uint32_t>{0});
    EXPECT_NE(f->fix.find("RoCE path MTU 4096 needs an interface (IP) MTU of at least 4,180 bytes"), std::string::npos)
        << f->fix;
    EXPECT_NE(f->fix.find("4,200 is the usual setting"), std::string::npos) << f->fix;
    EXPECT_EQ(of_kind(tr, kind("lossy_queue")), nullptr);
    EXPECT_EQ(of_kind(tr, kind("loss")), nullptr);
  }
}

// Two routers about one flow are two places to fix, told apart by the
// router's address in the filter; one router's second MTU for the same
// flow (its MTU changed) is still one finding of that router.
TEST(Findings, IcmpFindingsAreOnePerRouter) {
  TwoPoints t;
  Wire w;
  for (int i = 0; i < 4; ++i) {
    send_big_write(t, w, i * 100 * us);
    icmp::TooBig m = frag_needed(w, i * 100 * us + 4 * us, i == 3 ? 1400 : 1500, w.qp_b);
    if (i % 2) m.reporter = test::ip(253);
    t.feed(m);
  }
  const Triage tr = t.triage(w.frame);
  std::vector<const Finding*> found;
  for (const Finding& f : tr.findings.list)
    if (f.kind == kind("mtu_mismatch")) found.push_back(&f);
  ASSERT_EQ(found.size(), 2u);
  std::sort(found.begin(), found.end(), [](const Finding* a, const Finding* b) { return a->title < b->title; });
  EXPECT_EQ(found[0]->title,
            "router 10.0.0.253 reports MTU 1,400 and 1,500 for 10.0.0.1 -> 10.0.0.2 QP 0x000022, below the frames "
            "RoCE sends (IP packets of 4,156 bytes)");
  EXPECT_EQ(found[0]->filter, "(roce.hop.too_big || roce.mtu.icmp_mtu) && roce.point == 0 && ip.src == 10.0.0.253");
  EXPECT_EQ(found[0]->frames, (std::vector<uint32_t>{4, 8}));
  EXPECT_NE(found[0]->fix.find("forwards at most 1,400 bytes towards 10.0.0.2"), std::string::npos) << found[0]->fix;
  EXPECT_EQ(found[1]->filter, "(roce.hop.too_big || roce.mtu.icmp_mtu) && roce.point == 0 && ip.src == 10.0.0.254");
  EXPECT_EQ(found[1]->frames, (std::vector<uint32_t>{2, 6}));
  EXPECT_NE(found[0]->id, found[1]->id);
}

// An MTU the flow's packets all fit in explains none of its losses, nor
// does a message about a flow the capture never saw; the quoted packet
// counts as one the flow sent.
TEST(Findings, IcmpMtuAboveTheRoceFramesIsNoEvidence) {
  TwoPoints t;
  Wire w;
  PacketInfo small = w.req(0, 0, true, kWriteOnly, 1024);
  small.ip_len = 1084;
  t.feed(small);
  EXPECT_FALSE(t.feed(frag_needed(w, 4 * us, 9000, w.qp_b)).below);
  EXPECT_FALSE(t.feed(frag_needed(w, 5 * us, 0, w.qp_b)).below);  // no MTU given: no size
  const icmp::Verdict& unseen = t.feed(frag_needed(w, 6 * us, 1500, 0x99));
  EXPECT_EQ(unseen.flow, kNoId);
  EXPECT_FALSE(unseen.below);
  const icmp::Verdict& quoted = t.feed(frag_needed(w, 7 * us, 1500, w.qp_b));
  EXPECT_EQ(quoted.largest, 4156u);  // the quote, longer than any frame seen
  EXPECT_TRUE(quoted.below);
  const Triage tr = t.triage(w.frame);
  const Finding* f = of_kind(tr, kind("mtu_mismatch"));
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->evidence, 1u);
  EXPECT_EQ(f->frames, std::vector<uint32_t>{5});
}

// The same losses with short frames passing no smaller than the lost ones:
// no MTU finding, the loss stays a hop_loss.
TEST(Findings, LossOfFramesNoLongerThanPassedOnesIsNoMtuMismatch) {
  TwoPoints t;
  Wire w;
  for (uint32_t i = 0; i < 4; ++i) {
    const uint64_t at = i * 20 * us;
    w.point = 0;
    PacketInfo lost = w.req(at, 2 * i, false, kWriteOnly, 1024);
    lost.frame_len = 1100;
    t.feed(lost);
    PacketInfo next = w.req(at + 1 * us, 2 * i + 1, true, kWriteOnly, 1024);
    next.frame_len = 1100;
    t.feed(next);
    w.point = 1;
    next.frame = ++w.frame, next.point = 1, next.ts_ns = at + 3 * us;
    t.feed(next);
  }
  const Triage tr = t.triage(w.frame);
  EXPECT_EQ(of_kind(tr, kind("mtu_mismatch")), nullptr);
  ASSERT_NE(of_kind(tr, kind("hop_loss")), nullptr);
  EXPECT_EQ(of_kind(tr, kind("hop_loss"))->title, "4 packets lost between nic-a and leaf-1");
}

// Losses on a hop prove the drop; the router's ICMP about the same
// connection joins that finding instead of making another.
TEST(Findings, IcmpJoinsTheHopFindingOfItsConnection) {
  TwoPoints t;
  Wire w;
  lose_big_frames(t, w, true);
  const Triage tr = t.triage(w.frame);
  size_t n = 0;
  for (const Finding& f : tr.findings.list) n += f.kind == kind("mtu_mismatch");
  EXPECT_EQ(n, 1u);
  const Finding* f = of_kind(tr, kind("mtu_mismatch"));
  ASSERT_NE(f, nullptr);
  EXPECT_EQ(f->where.hop, "nic-a -> leaf-1");
  EXPECT_EQ(f->evidence, 8u);  // 4 lost frames, 4 ICMP messages
  EXPECT_NE(f->detail.find("; router 10.0.0.254 reports MTU 1,500 for 10.0.0.1 -> 10.0.0.2 QP 0x000022 (ICMP, first in "
                           "frame 2)"),
            std::string::npos)
      << f->detail;
  EXPECT_EQ(f->filter, "(roce.hop.too_big || roce.mtu.icmp_mtu) && roce.point == 0 && roce.qp.stream == 0");
}

// A tag stripped between the points: named as such, an error where the
// policy trusts PCP (priority 3 falls to 0), a warning where it trusts DSCP.
TEST(Evidence, KeepsTheLowestFramesInAnyOrderAndTakesOneBack) {
  triage::Evidence e;
  for (uint32_t f : {9u, 7u, 30u, 2u, 11u, 5u, 1u}) e.add(f, f * 1000, 0);
  EXPECT_EQ(std::vector<uint32_t>(e.first().begin(), e.first().end()), (std::vector<uint32_t>{1, 2, 5, 7, 9}));
  e.remove(5);
  e.remove(40);  // counted, beyond the frames kept
  EXPECT_EQ(e.count, 5u);
  EXPECT_EQ(std::vector<uint32_t>(e.first().begin(), e.first().end()), (std::vector<uint32_t>{1, 2, 7, 9}));
}

// The first and last frame's times follow a take-back at either end; with
// every frame kept at an end taken back, that end stays where it was.
TEST(Evidence, KeepsTheTimesOfItsFirstAndLastFrameAcrossTakeBacks) {
  triage::Evidence e;
  for (uint32_t f : {9u, 7u, 30u, 2u, 11u, 5u, 1u, 20u, 25u, 3u, 4u, 6u}) e.add(f, f * 1000, 0);
  EXPECT_EQ(e.when().first_ns, 1000u);
  EXPECT_EQ(e.when().last_ns, 30000u);
  e.remove(1);
  e.remove(30);
  EXPECT_EQ(e.when().first_ns, 2000u);
  EXPECT_EQ(e.when().last_ns, 25000u);
  for (uint32_t f : {25u, 20u, 11u}) e.remove(f);  // the five highest were 30, 25, 20, 11 and 9
  EXPECT_EQ(e.when().last_ns, 9000u);
  e.remove(9);
  EXPECT_EQ(e.when().last_ns, 9000u);  // none kept at that end: a frame taken back, later than the truth (7)
  e.add(8, 8000, 0);
  EXPECT_EQ(e.when().last_ns, 9000u);
  e.add(40, 40000, 0);
  EXPECT_EQ(e.when().last_ns, 40000u);
  EXPECT_EQ(e.when().first_ns, 2000u);
}

// Requests 0..3 in order at point 0; at point 1, 2 is overtaken by 3 and
// the receiver's NAK for it passes before it does.
struct OvertakenBeforeItsNak {
  TwoPoints t;
  Wire w;
  std::optional<Verdict> nak;
  OvertakenBeforeItsNak() {
    for (uint32_t psn = 0; psn < 4; ++psn) at(0, w.req(psn * 100, psn));
    at(1, w.req(3 * us, 0));
    at(1, w.req(3 * us + 100, 1));
    at(1, w.req(3 * us + 300, 3));
    nak = at(1, w.resp(3 * us + 500, 2, test::kSynNakSeq));
  }
  std::optional<Verdict> at(uint32_t point, PacketInfo p) {
    w.point = point;
    p.point = point;
    t.feed(p);
    return t.a->find(p.frame);
  }
};

// A NAK that passes the downstream point before the late original it asked
// for: when it passes it looks like a loss; the late original takes it back
// (and its copy upstream), so the triage sees reordering, no lossy queue.
TEST(Findings, NakBeforeItsLateOriginalIsTakenBack) {
  OvertakenBeforeItsNak o;
  TwoPoints& t = o.t;
  Wire& w = o.w;
  const auto at = [&](uint32_t point, const PacketInfo& p) { return o.at(point, p); };
  EXPECT_FALSE(o.nak->reorder_nak);                                // one pass cannot know yet
  const uint32_t nak_frame = o.nak->frame;
  const std::optional<Verdict> late = at(1, w.req(3 * us + 900, 2));             // the late original
  EXPECT_EQ(late->seq, SeqClass::out_of_order);
  EXPECT_EQ(late->nak_frame, nak_frame);
  ASSERT_EQ(t.log.nak_reorders().size(), 1u);
  EXPECT_EQ(t.log.nak_taken_back(nak_frame), late->frame);
  EXPECT_TRUE(at(0, w.resp(6 * us, 2, test::kSynNakSeq))->reorder_nak);  // the same NAK upstream
  const std::optional<Verdict> resend = at(0, w.req(8 * us, 2));
  EXPECT_EQ(resend->seq, SeqClass::gbn_resend);
  EXPECT_TRUE(resend->reorder_nak);
  const Triage tr = t.triage(late->frame + 2);
  EXPECT_EQ(of_kind(tr, kind("lossy_queue")), nullptr);
  EXPECT_EQ(of_kind(tr, kind("loss")), nullptr);
  const Finding* f = of_kind(tr, kind("reorder_nak"));
  ASSERT_NE(f, nullptr);
  EXPECT_TRUE(std::find(f->frames.begin(), f->frames.end(), nak_frame) != f->frames.end());
  // Its time: from the NAK taken back at settle time to the resend it forced.
  EXPECT_EQ(f->when.first_ns, 3 * us + 500);
  EXPECT_EQ(f->when.last_ns, 8 * us);
  EXPECT_EQ(tr.findings.start_ns, 0u);
}

// A late original more than a round trip after its hole, after its NAK: a
// point upstream proves it is no resend when this very transmission passed
// there once, before the NAK, and nothing passed there again.
TEST(Findings, UpstreamCopyBeforeTheNakProvesTheLateOriginal) {
  for (const bool resent_upstream : {false, true}) {
    OvertakenBeforeItsNak o;
    Wire& w = o.w;
    const auto at = [&](uint32_t point, const PacketInfo& p) { return o.at(point, p); };
    if (resent_upstream) {
      at(0, w.resp(5 * us, 2, test::kSynNakSeq));
      at(0, w.req(7 * us, 2));  // the resend, the same identity, upstream first
    }
    const std::optional<Verdict> fill = at(1, w.req(9 * us, 2));  // 5.7 us after the hole
    EXPECT_EQ(fill->seq, resent_upstream ? SeqClass::gbn_resend : SeqClass::out_of_order) << resent_upstream;
  }
}

// A detour longer than the recovery: the go-back-N resends pass the
// downstream point before the late original does. This very transmission
// passed upstream once, before the NAK, so it is the late original, not a
// resend with no NAK; and the resend run goes on after it. When the NIC
// gives its resend the original's IPv4 ID, nothing proves which copy is which.
TEST(Findings, LateOriginalAfterItsResendIsOutOfOrder) {
  for (const bool new_ip_id : {true, false}) {
    TwoPoints t;
    Wire w;
    const auto at = [&](uint32_t point, PacketInfo p, uint16_t ip_id) {
      w.point = p.point = point;
      p.has_ip_id = true;
      p.ip_id = ip_id;
      t.feed(p);
      return t.a->find(p.frame);
    };
    for (uint32_t psn = 0; psn < 4; ++psn) at(0, w.req(psn * 100, psn), static_cast<uint16_t>(100 + psn));
    at(1, w.req(3 * us, 0), 100);
    at(1, w.req(3 * us + 100, 1), 101);
    at(1, w.req(3 * us + 300, 3), 103);
    at(1, w.resp(3 * us + 500, 2, test::kSynNakSeq), 1);
    const std::optional<Verdict> nak = at(0, w.resp(5 * us, 2, test::kSynNakSeq), 1);
    const uint16_t resent_2 = new_ip_id ? 200 : 102, resent_3 = new_ip_id ? 201 : 103;
    at(0, w.req(7 * us, 2), resent_2);
    at(0, w.req(7 * us + 100, 3), resent_3);
    const std::optional<Verdict> fill = at(1, w.req(9 * us, 2), resent_2);
    EXPECT_EQ(fill->seq, SeqClass::gbn_resend) << new_ip_id;
    EXPECT_EQ(fill->nak_frame, nak->frame);
    const std::optional<Verdict> late = at(1, w.req(9 * us + 50, 2), 102);
    const std::optional<Verdict> next = at(1, w.req(9 * us + 100, 3), resent_3);
    const Triage tr = t.triage(w.frame);
    const Finding* reorder = of_kind(tr, kind("reorder_nak"));
    if (new_ip_id) {
      EXPECT_EQ(late->seq, SeqClass::out_of_order);
      EXPECT_EQ(late->gap, 1u);
      EXPECT_TRUE(late->reorder_nak);
      EXPECT_EQ(next->seq, SeqClass::gbn_resend);
      EXPECT_EQ(next->nak_frame, nak->frame);
      EXPECT_TRUE(next->reorder_nak);  // the run goes on, reordering's doing
      // Nothing was lost: the NAK at both points and the resends that
      // passed before the late original are taken back.
      EXPECT_EQ(of_kind(tr, kind("lossy_queue")), nullptr);
      ASSERT_NE(reorder, nullptr);
      EXPECT_EQ(reorder->evidence, 7u);  // 2 NAKs, 4 resends, the late original
      for (const auto& [key, q] : t.stats.impact.rows()) EXPECT_EQ(q->reorder_runs, q->runs) << key.second;
      for (const auto& [key, row] : t.stats.qp.rows()) EXPECT_EQ(row.reorder_resends, row.retransmissions);
    } else {
      EXPECT_TRUE(is_retransmission(late->seq));  // a copy of the resend, or the original: unknown
      EXPECT_TRUE(late->ambiguous);
      EXPECT_EQ(reorder, nullptr);
      EXPECT_NE(of_kind(tr, kind("lossy_queue")), nullptr);
    }
  }
}

// Two NAKs in quick succession (the second for a PSN the receiver dropped
// while it waited) both pass before the resends of the first: those answer
// the first NAK, not a loss with no NAK.
TEST(Findings, ResendAnswersTheNakBeforeTheLatest) {
  TwoPoints t;
  Wire w;
  for (uint32_t psn = 0; psn < 6; ++psn) t.feed(w.req(psn * 100, psn));
  const PacketInfo first = w.resp(2 * us, 2, test::kSynNakSeq);
  t.feed(first);
  t.feed(w.resp(2 * us + 500, 3, test::kSynNakSeq));
  const PacketInfo r = w.req(3 * us, 2);
  t.feed(r);
  const std::optional<Verdict> v = t.a->find(r.frame);
  ASSERT_TRUE(v);
  EXPECT_EQ(v->seq, SeqClass::gbn_resend);
  EXPECT_EQ(v->nak_frame, first.frame);
}

TEST(Findings, VlanTagStrippedBetweenPoints) {
  for (const qos::Trust trust : {qos::Trust::pcp, qos::Trust::dscp}) {
    Config cfg;
    cfg.policy.trust = trust;
    TwoPoints t(cfg);
    Wire w;
    for (uint32_t psn = 0; psn < 3; ++psn)
      for (uint32_t point : {0u, 1u}) {
        w.point = point;
        PacketInfo p = w.req(psn * us + point * 300, psn, true);
        p.dscp = 26;
        p.pcp = point == 0 ? 3 : -1;
        p.vlan_id = point == 0 ? 100 : 0;
        t.feed(p);
      }
    const Triage tr = t.triage(w.frame);
    const Finding* f = of_kind(tr, kind("vlan_changed"));
    ASSERT_NE(f, nullptr);
    EXPECT_EQ(of_kind(tr, kind("dscp_remarked")), nullptr);
    EXPECT_EQ(f->filter, "roce.hop.vlan_changed && roce.point == 1 && roce.hop.prev_point == 0");
    EXPECT_EQ(f->evidence, 3u);
    if (trust == qos::Trust::pcp) {
      EXPECT_EQ(f->title,
                "VLAN tag stripped between nic-a and leaf-1: PCP 3 lost, the next hop trusts PCP (was VLAN 100 PCP 3)");
      EXPECT_EQ(f->severity, Severity::error);
    } else {
      EXPECT_EQ(f->title, "VLAN tag stripped between nic-a and leaf-1: PCP 3 lost (was VLAN 100 PCP 3)");
      EXPECT_EQ(f->severity, Severity::warning);
    }
  }
}

// One QP in two VLANs at one point: both ids, the VLAN it began in and the
// changed packets as evidence. The ACKs' VLAN (another flow) is not counted.
TEST(Findings, OneQpInTwoVlansAtOnePoint) {
  Fed f;
  Wire w;
  for (uint32_t psn = 0; psn < 6; ++psn) {
    PacketInfo p = w.req(psn * us, psn, true);
    p.dscp = 26, p.ecn = 2, p.pcp = 3, p.vlan_id = psn < 4 ? 100 : 200;
    f.feed(p);
    PacketInfo r = w.resp(psn * us + 600, psn);
    r.dscp = 26, r.pcp = 3, r.vlan_id = 300;
    f.feed(r);
  }
  const Triage t = make_triage(f.stats, f.a);
  const Finding* x = of_kind(t, kind("inconsistent_marking"));
  ASSERT_NE(x, nullptr);
  EXPECT_EQ(x->evidence, 2u);
  EXPECT_EQ(x->title.substr(0, x->title.find(" at ")), "RoCE of one connection in several VLANs");
  EXPECT_NE(x->title.find("(VLAN 100, VLAN 200)"), std::string::npos) << x->title;
  EXPECT_NE(x->detail.find("first packets there (VLAN 100): VLAN 100 (4 packets), VLAN 200 (2 packets)"),
            std::string::npos)
      << x->detail;
  EXPECT_NE(x->fix.find("LAG or MLAG"), std::string::npos);
  EXPECT_NE(x->fix.find("RoCE in VLAN 100 as the connection began"), std::string::npos) << x->fix;
  EXPECT_EQ(x->fix.find("ToS"), std::string::npos);  // the DSCP kept: no marking fix
}

TEST(Findings, CleanTrafficHasNoneAndPasses) {
  Fed f;
  Wire w;
  for (uint32_t psn = 0; psn < 20; ++psn) {
    PacketInfo p = w.req(psn * us, psn, true);
    p.dscp = 26, p.ecn = 2;
    f.feed(p);
    PacketInfo r = w.resp(psn * us + 600, psn);
    r.dscp = 26;
    f.feed(r);
  }
  const Triage t = make_triage(f.stats, f.a);
  EXPECT_TRUE(t.findings.list.empty());
  EXPECT_EQ(t.health.overall, Grade::pass);
  EXPECT_EQ(t.findings.qps, 1u);
}

// PSN 1 lost before the point, NAKed at 2 us, resent with PSN 2 (3-4 us).
void lose_one_and_resend(Fed& f, Wire& w) {
  f.feed(w.req(0, 0));
  f.feed(w.req(1 * us, 2, true));
  f.feed(w.resp(2 * us, 1, test::kSynNakSeq));
  f.feed(w.req(3 * us, 1));
  f.feed(w.req(4 * us, 2, true));
}

// Timer resends on a stream whose losses another finding explains: the
// stall is that finding's, counted once, so the symptom never outranks it.
TEST(Findings, TimerWaitsCountUnderTheFindingThatExplainsTheLoss) {
  Fed f;
  Wire w;
  lose_one_and_resend(f, w);  // PSN 2's resend is lost too
  ASSERT_EQ(f.feed(w.req(5 * ms, 2, true)).seq, SeqClass::timeout_retransmission);
  f.feed(w.resp(5 * ms + 1 * us, 2));
  const Triage t = make_triage(f.stats, f.a);
  const auto& list = t.findings.list;
  const auto of = [&](Kind k) { return std::ranges::find(list, k, &Finding::kind); };
  ASSERT_NE(of(kind("lossy_queue")), list.end());  // DSCP 0: priority 0, no PFC seen for it
  ASSERT_NE(of(kind("timeout_retransmission")), list.end());
  const Finding& cause = *of(kind("lossy_queue"));
  const Finding& timer = *of(kind("timeout_retransmission"));
  EXPECT_EQ(&cause, &list.front());
  EXPECT_GT(cause.impact.timeout_ns, 4 * ms);  // the timer's wait is the cause's stall
  EXPECT_EQ(timer.impact.stall_ns, 0u);
  EXPECT_TRUE(timer.impact.counted_elsewhere);
  EXPECT_NE(timer.detail.find("explained above"), std::string::npos) << timer.detail;
}

TEST(Findings, LossRanksByItsStallAndEndsInFail) {
  Fed f;
  Wire w;
  lose_one_and_resend(f, w);
  f.feed(w.resp(5 * us, 2));
  const Triage t = make_triage(f.stats, f.a);
  ASSERT_FALSE(t.findings.list.empty());
  const Finding& top = t.findings.list.front();
  EXPECT_EQ(top.kind, kind("lossy_queue"));  // no PFC seen for priority 0 (DSCP 0)
  EXPECT_EQ(top.impact.stall_ns, 3 * us);
  EXPECT_EQ(top.impact.qps, 1u);
  EXPECT_EQ(top.frames.front(), 3u);  // the NAK: a gap alone is no proof of loss (reordering)
  EXPECT_EQ(t.health.overall, Grade::fail);
}

}  // namespace
}  // namespace roceshark::triage

namespace roceshark::triage {
namespace {

using test::Wire;
using test::kWriteFirst, test::kWriteLast, test::kWriteOnly;

// More flows than roce.max_flows: the verdict cannot be PASS on the part analysed.
TEST(Health, ReachedFlowLimitMakesTheVerdictIncomplete) {
  Config cfg;
  cfg.max_flows = 1;
  StoredAnalysis a(cfg);
  ReportStats stats;
  auto feed = [&](const PacketInfo& p) {
    const Verdict& v = a.process(p);
    stats.add(latest_record(v, a, p.ts_ns, p.frame_len, nullptr));
  };
  Wire first, second;
  second.qp_b = 0x33;
  second.frame = 1000;
  for (uint32_t psn = 0; psn < 5; ++psn) feed(first.req(psn * us, psn));
  for (uint32_t psn = 0; psn < 5; ++psn) feed(second.req(10 * us + psn * us, psn));
  const Triage t = make_triage(stats, a);
  EXPECT_EQ(t.health.overall, Grade::incomplete);
  EXPECT_STREQ(grade_name(t.health.overall), "INCOMPLETE");
  ASSERT_EQ(t.health.limits.size(), 1u);
  EXPECT_EQ(t.health.limits[0].name, "max_flows");
  EXPECT_EQ(t.health.limits[0].value, 1u);
  EXPECT_EQ(t.health.limits[0].packets_beyond, 5u);
  EXPECT_NE(t.summary.find("Health: INCOMPLETE"), std::string::npos) << t.summary;
  EXPECT_NE(t.summary.find("roce.max_flows (1) was reached: 5 RoCE packet(s)"), std::string::npos) << t.summary;
  const std::string json = format_json_report(stats, &a, "");
  EXPECT_NE(json.find(R"("limits":[{"name":"max_flows","preference":"roce.max_flows","value":1,"packets_beyond":5}])"),
            std::string::npos)
      << json.substr(0, 400);
  EXPECT_NE(json.find(R"("health":{"verdict":"INCOMPLETE")"), std::string::npos);
}

// leaf-1's tap misses PSN 1, which b's ACK at nic-a covers and nobody
// resends: no loss, no finding; a capture-quality note for leaf-1, and the
// otherwise clean capture is WARN, not PASS.
TEST(Health, ATapThatMissedCopiesIsCaptureQualityNeverAPass) {
  TwoPoints t;
  Wire w;
  // The default policy's lossless class, ECN-capable.
  const auto marked = [](PacketInfo p) {
    p.dscp = 26, p.ecn = 2;
    return p;
  };
  for (uint32_t psn = 0; psn < 4; ++psn) {
    w.point = 0;
    t.feed(marked(w.req(psn * 10 * us, psn, psn == 3)));
    if (psn == 1) continue;
    w.point = 1;
    t.feed(marked(w.req(psn * 10 * us + 2 * us, psn, psn == 3)));
  }
  for (uint32_t point : {1u, 0u}) {
    w.point = point;
    PacketInfo ack = w.resp(42 * us - point * 2 * us, 3);
    ack.dscp = 26;
    t.feed(ack);
  }
  const Triage tr = t.triage(w.frame);
  EXPECT_EQ(of_kind(tr, kind("hop_loss")), nullptr);
  ASSERT_EQ(tr.health.quality.size(), 1u);
  EXPECT_EQ(tr.health.quality[0].point, "leaf-1");
  EXPECT_EQ(tr.health.quality[0].kind, "tap_missed_copies");
  EXPECT_EQ(tr.health.quality[0].count, 1u);
  for (const Metric& m : tr.health.metrics) EXPECT_LE(m.grade, Grade::pass) << m.name << " " << m.detail;
  for (const Finding& f : tr.findings.list) ADD_FAILURE() << f.title;
  EXPECT_EQ(tr.health.overall, Grade::warn);
  EXPECT_NE(format_triage(tr, "").find("Capture: leaf-1's tap missed 1 copy"), std::string::npos);
}

// A roce.path_order name that no capture point has (a missing tap, a typo)
// is said, once for the capture, not ignored; names that match are not.
TEST(Health, PathOrderNamesMissingFromTheCaptureAreNoted) {
  Config cfg;
  cfg.path_order_names = {"nic-a", "leaf-9", "nic-b", "spine\x1b"};
  Analyzer a(cfg);
  a.name_point(0, "nic-a");
  a.name_point(1, "nic-b");
  const std::vector<QualityNote> notes = path_order_unmatched(a);
  ASSERT_EQ(notes.size(), 1u);
  EXPECT_EQ(notes[0].kind, "path_order_unmatched");
  EXPECT_EQ(notes[0].point, "");
  EXPECT_EQ(notes[0].count, 2u);
  EXPECT_NE(notes[0].text.find("roce.path_order names leaf-9, spine\\x1b, which no capture points"), std::string::npos)
      << notes[0].text;
  EXPECT_EQ(capture_quality(ReportStats{}, a).size(), 1u);
  a.name_point(2, "leaf-9");
  a.name_point(3, "spine\x1b");
  EXPECT_TRUE(path_order_unmatched(a).empty());
  EXPECT_TRUE(path_order_unmatched(Analyzer{}).empty());
}

// roce.point_names entries and roce.point_link_gbps names that no point
// took are listed (a typo is not silent), as notes on the settings: a
// site-wide table names points one capture need not have, so they never
// make a clean capture WARN.
TEST(Health, PointNamesAndSpeedsNoPointTookAreNotedWithoutAVerdict) {
  Config cfg;
  cfg.naming.names = {{"1", "leaf-1"}, {"7", "leaf-7"}, {"8", "leaf\x1b"}};
  cfg.point_gbps_by_name = {{"leaf-1", 400}, {"lef-1", 25}};
  Analyzer a(cfg);
  a.name_point(1, "leaf-1");
  const std::vector<QualityNote> notes = names_unmatched(a);
  ASSERT_EQ(notes.size(), 2u);
  EXPECT_EQ(notes[0].kind, "point_names_unmatched");
  EXPECT_EQ(notes[0].count, 2u);
  EXPECT_TRUE(notes[0].settings_only);
  EXPECT_NE(notes[0].text.find("roce.point_names gives 7=leaf-7, 8=leaf\\x1b, which no capture points"), std::string::npos)
      << notes[0].text;
  EXPECT_EQ(notes[1].kind, "point_link_gbps_unmatched");
  EXPECT_EQ(notes[1].count, 1u);
  EXPECT_NE(notes[1].text.find("gives lef-1, which no capture point of this capture took"), std::string::npos) << notes[1].text;
  EXPECT_NE(notes[1].text.find("roce.link_gbps (100 Gb/s)"), std::string::npos) << notes[1].text;
  const Triage tr = make_triage(ReportStats{}, a);
  EXPECT_EQ(tr.health.quality.size(), 2u);  // the verdict on a real capture: options_test.py
  const std::string text = format_triage(tr, "");
  EXPECT_NE(text.find("Setting: roce.point_names gives"), std::string::npos) << text;
  EXPECT_EQ(text.find("capture quality"), std::string::npos) << text;
  a.name_point(7, "leaf-7");
  a.name_point(8, "leaf\x1b");
  a.name_point(2, "lef-1");
  EXPECT_TRUE(names_unmatched(a).empty());
}

// An internal cap passed is a limit like roce.max_flows: listed, said in
// the triage and the JSON, and the verdict is INCOMPLETE. The analysis'
// (65 ports of one class pausing at once at one point) and the statistics'
// (a DCBX announcement with findings past 1,024).
TEST(Health, InternalCapsPassedAreLimitsAndMakeItIncomplete) {
  StoredAnalysis a;
  ReportStats stats;
  for (uint32_t i = 0; i < 65; ++i) {
    pfc::PauseFrame f;
    f.frame = i + 1, f.ts_ns = i * us, f.src = {0x02, 0, 0, 2, 0, static_cast<uint8_t>(i)};
    f.dst = pfc::kPfcDestination, f.enable = 1u << 3, f.quanta[3] = 0xffff;
    TapRecord r{nullptr, &a, 0, 64, nullptr, nullptr, nullptr};
    r.pause = &a.process(f);
    stats.add(r);
  }
  std::vector<Limit> limits = limits_reached(stats, a);
  ASSERT_EQ(limits.size(), 1u);
  EXPECT_EQ(limits[0].name, "cap_pause_windows");
  EXPECT_TRUE(limits[0].cap);
  EXPECT_EQ(limits[0].value, 64u);
  EXPECT_EQ(limits[0].packets_beyond, 1u);
  EXPECT_EQ(limit_sentence(limits[0]),
            "The internal cap of 64 live pause windows per (point, priority) was passed 1 time: the oldest window "
            "was dropped before every packet it held was attributed to it, so the health verdict is INCOMPLETE.");
  const Triage tr = make_triage(stats, a);
  EXPECT_EQ(tr.health.overall, Grade::incomplete);
  EXPECT_NE(format_triage(tr, "").find("Limit:   The internal cap of 64"), std::string::npos);
  const std::string json = format_json_report(stats, &a, "");
  EXPECT_NE(json.find(R"("limits":[{"name":"cap_pause_windows","value":64,"passed":1,"text":"The internal cap)"),
            std::string::npos)
      << json.substr(0, 600);

  ReportStats dcbx;
  qos::DcbxAnnouncement d;
  for (uint32_t i = 0; i <= qos::QosStats::kMaxDcbx; ++i) {
    d.mac = {0x02, 0, 0, 3, static_cast<uint8_t>(i >> 8), static_cast<uint8_t>(i)};
    dcbx.qos.add_dcbx(i + 1, 0, "p", d, {qos::DcbxFinding{}});
  }
  limits = limits_reached(dcbx, Analyzer{});
  ASSERT_EQ(limits.size(), 1u);
  EXPECT_EQ(limits[0].name, "cap_dcbx");
  EXPECT_EQ(limits[0].packets_beyond, 1u);
}

TEST(Health, WithinTheFlowLimitNoLimitIsListed) {
  StoredAnalysis a;
  ReportStats stats;
  Wire w;
  const PacketInfo p = w.req(0, 0);
  const Verdict& v = a.process(p);
  stats.add(latest_record(v, a, p.ts_ns, p.frame_len, nullptr));
  EXPECT_TRUE(limits_reached(stats, a).empty());
  EXPECT_NE(format_json_report(stats, &a, "").find(R"("limits":[])"), std::string::npos);
}

// The When line: one time or a span, ISO 8601 UTC with microseconds unless
// the stamps have nanoseconds, and seconds from the capture's start; none
// without timed evidence.
TEST(Triage, WhenLineGivesTheFirstAndLastEvidence) {
  Triage t;
  t.findings.start_ns = 1'700'000'000'000'000'590;
  Finding f;
  f.when.add(1'700'000'000'000'050'000, 1'700'000'000'005'000'000);
  t.findings.list = {f, f, Finding{}};
  t.findings.list[1].when = {};
  t.findings.list[1].when.add(1'700'000'000'000'003'124);
  t.findings.ns = true;
  const std::string text = format_triage(t, "");
  EXPECT_NE(text.find("   When:     2023-11-14T22:13:20.000050000Z to 2023-11-14T22:13:20.005000000Z (0.000049410 s to\n"
                      "             0.004999410 s into the capture)\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("   When:     2023-11-14T22:13:20.000003124Z (0.000002534 s into the capture)\n"), std::string::npos);
  size_t whens = 0;
  for (size_t at = text.find("When:"); at != std::string::npos; at = text.find("When:", at + 1)) ++whens;
  EXPECT_EQ(whens, 2u);
  t.findings.ns = false;
  EXPECT_NE(format_triage(t, "").find("2023-11-14T22:13:20.000050Z to 2023-11-14T22:13:20.005000Z"), std::string::npos);
}

}  // namespace
}  // namespace roceshark::triage
