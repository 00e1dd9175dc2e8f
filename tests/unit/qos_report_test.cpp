// SPDX-License-Identifier: GPL-2.0-or-later
#include <gtest/gtest.h>

#include "epan-ext/analysis/analyzer.h"
#include "epan-ext/analysis/stored_analysis.h"
#include "epan-ext/analysis/qos_checker.h"
#include "epan-ext/report/qos_report.h"
#include "epan-ext/report/qos_stats.h"
#include "packets.h"

namespace roceshark::qos {
namespace {

using test::Wire;
constexpr uint64_t us = 1000;

PacketInfo marked(PacketInfo p, uint8_t dscp, int8_t pcp, uint8_t ecn) {
  p.dscp = dscp, p.pcp = pcp, p.ecn = ecn;
  return p;
}

// The engine as the glue will run it: analyzer, then the QoS checker, then the tap.
struct Fed {
  explicit Fed(const Policy& p = Policy::defaults()) : checker(p) {}
  StoredAnalysis a;
  Checker checker;
  QosStats stats;
  QosVerdict feed(const PacketInfo& p) {
    Verdict v = a.process(p);
    v.qos = checker.check(v.flow, v.point, {p.dscp, p.ecn, p.pcp, v.role == Role::cnp, v.role == Role::request});
    stats.add(latest_record(v, a, p.ts_ns, p.frame_len, nullptr));
    return v.qos;
  }
  std::string report(const std::string& filter = "") const { return format_qos_report(stats, checker.policy(), checker.learned(), filter); }
};

bool has(const std::string& text, const std::string& piece) { return text.find(piece) != std::string::npos; }

TEST(QosStats, CountsMarkingPerDirectedFlowAndPoint) {
  Fed f;
  Wire w;
  f.a.name_point(0, "nic-a");
  for (uint32_t i = 0; i < 3; ++i) f.feed(marked(w.req(i * us, i, true), 26, 3, 2));
  f.feed(marked(w.req(3 * us, 3, true), 0, -1, 0));  // frame 4: lossy, untagged, Not-ECT
  f.feed(marked(w.resp(4 * us, 3), 26, 3, 0));
  f.feed(marked(w.cnp(5 * us), 48, 6, 0));

  ASSERT_EQ(f.stats.rows().size(), 2u);  // a -> b requests; b -> a ACK and CNP
  const QosRow& req = f.stats.rows().begin()->second;
  const QosRow& back = std::next(f.stats.rows().begin())->second;
  EXPECT_EQ(req.point_name, "nic-a");
  EXPECT_EQ(req.requests, 4u);
  EXPECT_EQ(req.flow.qp, w.qp_b);
  EXPECT_EQ(format_counts(req.dscp, ValueKind::number), "26:3 0:1");
  EXPECT_EQ(format_counts(req.pcp, ValueKind::pcp), "3:3 untagged:1");
  EXPECT_EQ(format_counts(req.ecn, ValueKind::ecn), "ECT(0):3 Not-ECT:1");
  EXPECT_EQ(format_counts(req.priority, ValueKind::number), "3:3 0:1");
  EXPECT_EQ(back.responses, 1u);
  EXPECT_EQ(back.cnps, 1u);
  EXPECT_TRUE(back.ecn.empty());  // responses are not ECN-checked, so not counted there
  EXPECT_EQ(format_counts(back.cnp_dscp, ValueKind::number), "48:1");
  EXPECT_EQ(format_counts(back.cnp_pcp, ValueKind::pcp), "6:1");
  EXPECT_EQ(back.stream, req.stream);

  // Frame 4 fails two checks and changes the flow's marking, each once.
  ASSERT_EQ(f.stats.violations().size(), 3u);
  for (const auto& [key, v] : f.stats.violations()) {
    EXPECT_EQ(v.first_frame, 4u);
    EXPECT_EQ(v.packets, 1u);
  }
  EXPECT_TRUE(f.stats.violations().contains({Check::dscp_not_lossless, 0, req.stream, 0}));
  EXPECT_TRUE(f.stats.violations().contains({Check::ecn_not_capable, 0, req.stream, 0}));
  EXPECT_TRUE(f.stats.violations().contains({Check::inconsistent_marking, 0, req.stream, 0}));
}

TEST(QosStats, MirrorDuplicatesAreNotCounted) {
  Fed f;
  Wire w;
  const PacketInfo p = marked(w.req(0, 1), 26, 3, 2);
  f.feed(p);
  PacketInfo copy = p;
  copy.frame = ++w.frame;
  copy.ts_ns = 1 * us;
  f.feed(copy);
  EXPECT_EQ(f.stats.rows().begin()->second.requests, 1u);
  EXPECT_EQ(f.stats.duplicates(), 1u);
  EXPECT_TRUE(has(f.report(), "1 mirror duplicate(s) not counted"));
}

TEST(QosStats, IgnoresTapRecordsWithoutARoceVerdict) {
  Fed f;
  f.stats.add({.verdict = nullptr, .facts = &f.a, .ts_ns = 0, .frame_len = 64});  // a PFC frame on the same tap
  EXPECT_TRUE(f.stats.rows().empty());
  EXPECT_EQ(f.stats.untracked(), 0u);
}

TEST(QosStats, IdenticalDcbxRepeatsAreKeptOnce) {
  QosStats s;
  DcbxAnnouncement a;
  a.mac = {2, 0, 0, 0, 0, 1};
  a.has_pfc = true;
  a.pfc_enabled = 1u << 3;
  s.add_dcbx(5, 0, "leaf-1", a, {});
  s.add_dcbx(900, 0, "leaf-1", a, {});
  a.pfc_enabled = 0;  // the port changed its mind
  s.add_dcbx(2000, 0, "leaf-1", a, compare(a, Policy::defaults(), Seen{}, nullptr));
  ASSERT_EQ(s.dcbx().size(), 2u);
  EXPECT_EQ(s.dcbx()[0].first_frame, 5u);
  EXPECT_EQ(s.dcbx()[0].repeats, 2u);
  EXPECT_EQ(s.dcbx()[1].first_frame, 2000u);
  EXPECT_EQ(s.dcbx()[1].findings.size(), 1u);
}

TEST(QosStats, DcbxEntriesAreBounded) {
  QosStats s;
  DcbxAnnouncement a;
  for (uint32_t i = 0; i < QosStats::kMaxDcbx + 10; ++i) {
    a.mac[5] = static_cast<uint8_t>(i), a.mac[4] = static_cast<uint8_t>(i >> 8);
    s.add_dcbx(i + 1, 0, "p", a, {});
  }
  EXPECT_EQ(s.dcbx().size(), QosStats::kMaxDcbx);
  EXPECT_EQ(s.dcbx_dropped(), 10u);
  // Without findings, what was not kept cannot change the triage (Cap::dcbx).
  EXPECT_EQ(s.dcbx_dropped_findings(), 0u);
  a.mac[3] = 1;
  s.add_dcbx(5000, 0, "p", a, {DcbxFinding{}});
  EXPECT_EQ(s.dcbx_dropped_findings(), 1u);
}

TEST(QosReport, PrintsPolicyCountsViolationsAndDcbx) {
  Policy p;
  p.dscp_priority[10] = 0;
  p.lossless_mask = (1u << 0) | (1u << 3);
  Fed f(p);
  Wire w;
  f.a.name_point(0, "nic-a");
  for (uint32_t i = 0; i < 5; ++i) f.feed(marked(w.req(i * us, i, true), 26, 3, 2));
  f.feed(marked(w.req(5 * us, 5), 26, 4, 2));  // frame 6: PCP disagrees
  f.feed(marked(w.req(6 * us, 6), 26, 4, 2));
  f.feed(marked(w.cnp(7 * us), 26, 3, 0));  // frame 8: CNP in the data class

  DcbxAnnouncement a;
  a.mac = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55};
  a.has_pfc = true;
  a.pfc_enabled = (1u << 0) | (1u << 3);
  a.app_dscp = {{26, 3}, {48, 6}};
  const auto seen = f.checker.seen(0);
  f.stats.add_dcbx(9, 0, "nic-a", a, compare(a, f.checker.policy(), seen, nullptr));

  const std::string out = f.report("ip.addr==10.0.0.1");
  EXPECT_TRUE(has(out, "RoCE QoS Consistency")) << out;
  EXPECT_TRUE(has(out, "Filter:ip.addr==10.0.0.1")) << out;
  EXPECT_TRUE(has(out, "Policy in force (configured)")) << out;
  EXPECT_TRUE(has(out, "overrides: 10:0")) << out;
  EXPECT_TRUE(has(out, "Lossless priorities: 0,3")) << out;
  EXPECT_TRUE(has(out, "Trust: dscp")) << out;
  EXPECT_TRUE(has(out, "ECT(0)/ECT(1) expected")) << out;
  EXPECT_TRUE(has(out, "CNP class: DSCP 48, priority 6")) << out;
  // Marking, with counts.
  EXPECT_TRUE(has(out, "26:7")) << out;
  EXPECT_TRUE(has(out, "3:5 4:2")) << out;
  EXPECT_TRUE(has(out, "ECT(0):7")) << out;
  EXPECT_TRUE(has(out, "req:7")) << out;
  EXPECT_TRUE(has(out, "0x000022")) << out;
  // Violations: check, first frame, count.
  EXPECT_TRUE(has(out, "roce.qos.pcp_mismatch")) << out;
  EXPECT_TRUE(has(out, "roce.qos.cnp_class")) << out;
  EXPECT_FALSE(has(out, "roce.qos.dscp_not_lossless")) << out;
  // Frame 6 started both the PCP mismatch and the marking change, 2 packets each.
  EXPECT_TRUE(has(out, "nic-a       0  10.0.0.1  10.0.0.2     0x000022            6        2")) << out;
  // DCBX: this port agrees, and says so.
  EXPECT_TRUE(has(out, "00:11:22:33:44:55")) << out;
  EXPECT_TRUE(has(out, "26:3,48:6")) << out;
  EXPECT_TRUE(has(out, "0,3 ")) << out;  // PFC enabled
  EXPECT_TRUE(has(out, "No DCBX findings")) << out;
}

TEST(QosReport, CleanCaptureSaysNoViolations) {
  Fed f;
  Wire w;
  for (uint32_t i = 0; i < 4; ++i) f.feed(marked(w.req(i * us, i, true), 26, 3, 2));
  f.feed(marked(w.resp(5 * us, 3), 26, 3, 0));
  const std::string out = f.report();
  EXPECT_TRUE(has(out, "No QoS violations.")) << out;
  EXPECT_TRUE(has(out, "No DCBX announcements")) << out;
  EXPECT_TRUE(has(out, "Filter:<No Filter>")) << out;
}

TEST(QosReport, DcbxFindingsAreListed) {
  QosStats s;
  DcbxAnnouncement a;
  a.mac = {0xaa, 0xbb, 0xcc, 0, 0, 1};
  a.has_pfc = true;
  a.pfc_enabled = 0;
  s.add_dcbx(42, 0, "leaf-1", a, compare(a, Policy::defaults(), Seen{}, nullptr));
  const std::string out = format_qos_report(s, Policy::defaults(), {}, "");
  EXPECT_TRUE(has(out, "No RoCE packets.")) << out;
  EXPECT_TRUE(has(out, "no PFC TLV") || has(out, "none")) << out;
  EXPECT_TRUE(has(out, "frame 42, leaf-1, aa:bb:cc:00:00:01: PFC is off on priority 3")) << out;
  EXPECT_TRUE(has(out, "[pfc_off_on_roce_priority]")) << out;
}

TEST(QosReport, LearnedPolicyWithItsSampleCounts) {
  Policy p;
  p.mode = Mode::learned;
  Fed f(p);
  Wire w;
  for (uint32_t i = 0; i < 40; ++i) f.feed(marked(w.req(i * us, i), 34, -1, 1));
  f.feed(marked(w.req(40 * us, 40), 0, -1, 1));  // frame 41: the minority
  const std::string out = f.report();
  EXPECT_TRUE(has(out, "learned from 41 RoCE data packet(s) and 0 CNP(s)")) << out;
  EXPECT_TRUE(has(out, "Dominant data marking: DSCP 34, PCP untagged, ECN ECT(1)")) << out;
  EXPECT_TRUE(has(out, "Lossless priorities: 4 (learned")) << out;
  EXPECT_TRUE(has(out, "CNP class: not learned (0 of 4 CNPs seen)")) << out;
  EXPECT_TRUE(has(out, "Trust: dscp (configured)")) << out;
  EXPECT_TRUE(has(out, "roce.qos.dscp_not_lossless")) << out;
  EXPECT_TRUE(has(out, "32 packet(s) came before the learned policy was ready")) << out;
  EXPECT_EQ(f.stats.learning(), 32u);
  const auto& v = f.stats.violations();
  ASSERT_TRUE(v.contains({Check::dscp_not_lossless, 0, 0, 0}));
  EXPECT_EQ(v.at({Check::dscp_not_lossless, 0, 0, 0}).first_frame, 41u);
}

TEST(QosReport, StillLearning) {
  Policy p;
  p.mode = Mode::learned;
  Fed f(p);
  Wire w;
  for (uint32_t i = 0; i < 5; ++i) f.feed(marked(w.req(i * us, i), 0, -1, 0));
  const std::string out = f.report();
  EXPECT_TRUE(has(out, "Still learning: 5 of 32 RoCE data packets seen, so no packet was checked")) << out;
  EXPECT_TRUE(has(out, "No QoS violations.")) << out;
}

}  // namespace
}  // namespace roceshark::qos
