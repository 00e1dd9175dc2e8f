// SPDX-License-Identifier: GPL-2.0-or-later
#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

#include "epan-ext/analysis/qos_checker.h"

namespace roceshark::qos {
namespace {

constexpr uint8_t kNotEct = 0, kEct1 = 1, kEct0 = 2, kCe = 3;

Marking data(uint8_t dscp = 26, int8_t pcp = 3, uint8_t ecn = kEct0) { return {dscp, ecn, pcp, false, true}; }
Marking ack(uint8_t dscp = 26, int8_t pcp = 3, uint8_t ecn = kNotEct) { return {dscp, ecn, pcp, false, false}; }
Marking cnp(uint8_t dscp = 48, int8_t pcp = 6) { return {dscp, kNotEct, pcp, true, false}; }

constexpr uint8_t kLossless = bit(Check::dscp_not_lossless), kPcp = bit(Check::pcp_mismatch),
                  kEcn = bit(Check::ecn_not_capable), kCnp = bit(Check::cnp_class),
                  kInconsistent = bit(Check::inconsistent_marking);

Policy learned_policy() {
  Policy p;
  p.mode = Mode::learned;
  return p;
}

TEST(QosChecker, CheckNames) {
  EXPECT_STREQ(check_name(Check::dscp_not_lossless), "dscp_not_lossless");
  EXPECT_STREQ(check_name(Check::pcp_mismatch), "pcp_mismatch");
  EXPECT_STREQ(check_name(Check::ecn_not_capable), "ecn_not_capable");
  EXPECT_STREQ(check_name(Check::cnp_class), "cnp_class");
  EXPECT_STREQ(check_name(Check::inconsistent_marking), "inconsistent_marking");
}

TEST(QosChecker, CleanTrafficMixFailsNothing) {
  Checker c(Policy::defaults());
  std::vector<QosVerdict> all;
  for (int i = 0; i < 200; ++i) {
    all.push_back(c.check(1, 0, data()));                  // a -> b requests, tagged
    all.push_back(c.check(2, 0, ack()));                   // b -> a ACKs, Not-ECT
    all.push_back(c.check(3, 0, data(26, -1, kEct1)));     // untagged DSCP 26, ECT(1)
    all.push_back(c.check(3, 0, data(26, -1, kCe)));       // congested: CE
    if (i % 10 == 0) all.push_back(c.check(2, 0, cnp()));  // CNPs 48/PCP 6 on the ACK flow
    all.push_back(c.check(4, 1, data()));                  // a second point
  }
  for (const QosVerdict& v : all) {
    EXPECT_EQ(v.failed, 0);
    EXPECT_EQ(v.first, 0);
    EXPECT_FALSE(v.learning);
  }
  EXPECT_EQ(all[0].priority, 3);
  EXPECT_FALSE(all[0].pcp_skipped);
  EXPECT_TRUE(all[2].pcp_skipped);
}

TEST(QosChecker, LossyDscpFailsForRequestsAndResponses) {
  Checker c(Policy::defaults());
  QosVerdict v = c.check(1, 0, data(0, -1));
  EXPECT_EQ(v.failed, kLossless);
  EXPECT_EQ(v.priority, 0);
  v = c.check(2, 0, ack(0, -1));  // a lost ACK costs a timeout too
  EXPECT_EQ(v.failed, kLossless);
  v = c.check(3, 0, data(31, -1));  // 31 >> 3 == 3: still lossless
  EXPECT_EQ(v.failed, 0);
  v = c.check(4, 0, data(32, -1));  // 32 >> 3 == 4
  EXPECT_EQ(v.failed, kLossless);
  EXPECT_EQ(v.priority, 4);
}

TEST(QosChecker, LosslessFollowsTheTrustMode) {
  Policy p;
  p.trust = Trust::pcp;
  Checker c(p);
  EXPECT_EQ(c.check(1, 0, data(26, 3)).failed, 0);
  QosVerdict v = c.check(2, 0, data(26, -1));  // untagged under trust pcp: port default 0
  EXPECT_EQ(v.priority, 0);
  EXPECT_EQ(v.failed, kLossless);
  v = c.check(3, 0, data(0, 3));  // lossless by PCP, but L2 and L3 disagree
  EXPECT_EQ(v.priority, 3);
  EXPECT_EQ(v.failed, kPcp);
}

TEST(QosChecker, PcpMismatchWhateverTheTrustMode) {
  Checker c(Policy::defaults());
  QosVerdict v = c.check(1, 0, data(26, 4));
  EXPECT_EQ(v.failed, kPcp);  // priority from DSCP is 3: lossless
  EXPECT_EQ(v.priority, 3);
  EXPECT_EQ(c.check(2, 0, ack(26, 0)).failed, kPcp);
  v = c.check(3, 0, data(26, -1));
  EXPECT_EQ(v.failed, 0);
  EXPECT_TRUE(v.pcp_skipped);
  // The map, not DSCP>>3, says what the PCP should be.
  Policy p;
  p.dscp_priority[10] = 3;
  Checker custom(p);
  EXPECT_EQ(custom.check(1, 0, data(10, 3)).failed, 0);
  EXPECT_EQ(custom.check(2, 0, data(10, 1)).failed, kPcp);
}

TEST(QosChecker, EcnOnlyOnRequestsAndCeIsCapable) {
  Checker c(Policy::defaults());
  EXPECT_EQ(c.check(1, 0, data(26, 3, kNotEct)).failed, kEcn);
  EXPECT_EQ(c.check(2, 0, data(26, 3, kCe)).failed, 0);
  EXPECT_EQ(c.check(3, 0, data(26, 3, kEct1)).failed, 0);
  EXPECT_EQ(c.check(4, 0, ack(26, 3, kNotEct)).failed, 0);  // ACKs are not ECN-checked
  EXPECT_EQ(c.check(5, 0, cnp()).failed, 0);                // nor CNPs

  Policy p;
  p.expect_ecn = false;
  Checker off(p);
  EXPECT_EQ(off.check(1, 0, data(26, 3, kNotEct)).failed, 0);
}

TEST(QosChecker, CnpClass) {
  Checker c(Policy::defaults());
  EXPECT_EQ(c.check(1, 0, cnp(48, 6)).failed, 0);
  EXPECT_EQ(c.check(1, 0, cnp(48, -1)).failed, 0);  // untagged: only the DSCP is checked
  EXPECT_EQ(c.check(2, 0, cnp(26, 3)).failed, kCnp);   // in the data class: queued behind its own congestion
  EXPECT_EQ(c.check(3, 0, cnp(48, 3)).failed, kCnp);
  EXPECT_EQ(c.check(4, 0, cnp(26, -1)).failed, kCnp);
  // A CNP in a lossy class is a cnp_class failure only, never dscp_not_lossless.
  EXPECT_EQ(c.check(5, 0, cnp(0, 0)).failed, kCnp);
}

TEST(QosChecker, InconsistentMarkingAgainstTheFirstPacket) {
  Checker c(Policy::defaults());
  EXPECT_EQ(c.check(1, 0, data(26, 3)).failed, 0);
  EXPECT_EQ(c.check(1, 0, data(27, 3)).failed, kInconsistent);  // DSCP change, both lossless
  EXPECT_EQ(c.check(1, 0, data(26, 3)).failed, 0);              // back to the first
  EXPECT_EQ(c.check(1, 0, data(26, -1)).failed, kInconsistent); // tagged -> untagged
  EXPECT_EQ(c.check(1, 0, ack(26, 3)).failed, 0);               // same marking, other role

  Checker u(Policy::defaults());
  EXPECT_EQ(u.check(1, 0, data(26, -1)).failed, 0);
  EXPECT_EQ(u.check(1, 0, data(26, 3)).failed, kInconsistent);  // untagged -> tagged
  ASSERT_TRUE(u.first_marking(1, 0));
  EXPECT_EQ(u.first_marking(1, 0)->pcp, -1);
  EXPECT_FALSE(u.first_marking(1, 1));

  // One QP in two VLANs at one point, the same DSCP and PCP.
  Checker v(Policy::defaults());
  Marking m = data(26, 3);
  m.vlan = 100;
  EXPECT_EQ(v.check(1, 0, m).failed, 0);
  m.vlan = 200;
  EXPECT_EQ(v.check(1, 0, m).failed, kInconsistent);
  EXPECT_EQ(v.check(1, 1, m).failed, 0);  // another point: its own first
  EXPECT_EQ(v.first_marking(1, 0)->vlan, 100);
}

TEST(QosChecker, CnpsAreExemptFromInconsistencyAndAreNotTheFlowsMarking) {
  Checker c(Policy::defaults());
  EXPECT_EQ(c.check(2, 0, cnp()).failed, 0);  // first packet of flow 2 here is a CNP
  EXPECT_FALSE(c.first_marking(2, 0));
  EXPECT_EQ(c.check(2, 0, ack(26, 3)).failed, 0);
  EXPECT_EQ(c.check(2, 0, cnp()).failed, 0);  // differs from the ACKs, but a CNP
  EXPECT_EQ(c.check(2, 0, ack(26, 3)).failed, 0);
}

TEST(QosChecker, FirstPerFlowCheckAndPoint) {
  Checker c(Policy::defaults());
  QosVerdict v = c.check(1, 0, data(0, 0, kNotEct));
  EXPECT_EQ(v.failed, kLossless | kEcn);
  EXPECT_EQ(v.first, kLossless | kEcn);
  v = c.check(1, 0, data(0, 0, kNotEct));
  EXPECT_EQ(v.failed, kLossless | kEcn);
  EXPECT_EQ(v.first, 0);  // only the field, no second expert info
  v = c.check(1, 0, data(0, 2, kNotEct));  // a new check on the same flow and point
  EXPECT_EQ(v.failed, kLossless | kEcn | kPcp | kInconsistent);
  EXPECT_EQ(v.first, kPcp | kInconsistent);
  v = c.check(1, 1, data(0, 0, kNotEct));  // the same flow at a second point
  EXPECT_EQ(v.first, kLossless | kEcn);
  v = c.check(7, 0, data(0, 0, kNotEct));  // a second flow at the first point
  EXPECT_EQ(v.first, kLossless | kEcn);
  v = c.check(7, 0, data(0, 0, kNotEct));
  EXPECT_EQ(v.first, 0);
}

TEST(QosChecker, SeenPerPointExcludesCnps) {
  Checker c(Policy::defaults());
  c.check(1, 0, data(26, 3));
  c.check(2, 0, ack(0, -1));
  c.check(2, 0, cnp(48, 6));
  c.check(3, 5, data(34, -1));
  EXPECT_EQ(c.seen(0).dscps, (uint64_t{1} << 26) | 1u);
  EXPECT_EQ(c.seen(0).priorities, (1u << 3) | 1u);
  EXPECT_EQ(c.seen(5).dscps, uint64_t{1} << 34);
  EXPECT_EQ(c.seen(5).priorities, 1u << 4);
  EXPECT_EQ(c.seen(9).dscps, 0u);
}

TEST(QosChecker, ExplainsEachCheck) {
  const Policy p;
  EXPECT_EQ(explain(Check::dscp_not_lossless, data(0, -1), p),
            "DSCP 0 gives priority 0, which is not lossless (lossless: 3)");
  EXPECT_EQ(explain(Check::pcp_mismatch, data(26, 4), p),
            "PCP 4, but DSCP 26 maps to priority 3: L2 and L3 marking disagree");
  EXPECT_NE(explain(Check::ecn_not_capable, data(26, 3, kNotEct), p).find("Not-ECT"), std::string::npos);
  EXPECT_EQ(explain(Check::cnp_class, cnp(26, 3), p), "CNP marked DSCP 26 PCP 3, expected DSCP 48 PCP 6");
  EXPECT_NE(explain(Check::inconsistent_marking, data(27, -1), p).find("DSCP 27 untagged"), std::string::npos);
  // Only the VLAN id differs from the flow's first marking: both ids named.
  Marking in200 = data(26, 3);
  in200.vlan = 200;
  EXPECT_EQ(explain(Check::inconsistent_marking, in200, p, FirstMarking{26, 3, 100}),
            "VLAN 200 differs from this flow's first VLAN at this point (VLAN 100): it crossed a port with another "
            "VLAN configuration");
  EXPECT_NE(explain(Check::inconsistent_marking, in200, p, FirstMarking{0, 3, 100}).find("DSCP 26 PCP 3"),
            std::string::npos);  // the DSCP differs too: the marking is named
  Policy pcp;
  pcp.trust = Trust::pcp;
  EXPECT_NE(explain(Check::dscp_not_lossless, data(26, -1), pcp).find("untagged under trust pcp"),
            std::string::npos);
  EXPECT_STREQ(ecn_name(kEct0), "ECT(0)");
  EXPECT_STREQ(ecn_name(kCe), "CE");
}

// Learned mode.

TEST(QosCheckerLearned, NothingFiresWhileLearning) {
  Checker c(learned_policy());
  for (uint64_t i = 0; i < Checker::kLearnMin; ++i) {
    EXPECT_FALSE(c.learned().ready) << i;
    // Lossy, Not-ECT, mismatched and changing: all would fail if judged.
    QosVerdict v = c.check(1, 0, data(static_cast<uint8_t>(i % 2 ? 0 : 10), 5, kNotEct));
    EXPECT_TRUE(v.learning) << i;
    EXPECT_EQ(v.failed, 0) << i;
    EXPECT_EQ(v.first, 0) << i;
  }
  EXPECT_TRUE(c.learned().ready);  // the next packet is judged
  EXPECT_EQ(c.learned().data_samples, Checker::kLearnMin);
  QosVerdict v = c.check(1, 0, data(10, 5, kNotEct));  // the first judged packet
  EXPECT_FALSE(v.learning);
  EXPECT_EQ(v.failed, kPcp) << "DSCP 10 leads (ties keep the first), Not-ECT leads: only PCP 5 vs 10>>3 fails";
}

TEST(QosCheckerLearned, TheMinorityIsFlagged) {
  // The fabric runs RoCE on DSCP 34 (priority 4), untagged, ECT(1): all
  // "wrong" for the defaults, right for this capture. One host uses DSCP 0.
  Checker c(learned_policy());
  for (uint32_t i = 0; i < 40; ++i) EXPECT_EQ(c.check(i % 4, 0, data(34, -1, kEct1)).failed, 0);
  for (int i = 0; i < 4; ++i) c.check(9, 0, cnp(46, -1));

  const Checker::Learned l = c.learned();
  EXPECT_TRUE(l.ready);
  EXPECT_TRUE(l.cnp_ready);
  EXPECT_EQ(l.data_dscp, 34);
  EXPECT_EQ(l.data_pcp, -1);
  EXPECT_EQ(l.data_ecn, kEct1);
  EXPECT_EQ(l.cnp_dscp, 46);
  EXPECT_EQ(l.data_samples, 40u);
  EXPECT_EQ(l.cnp_samples, 4u);
  EXPECT_EQ(c.policy().lossless_mask, 1u << 4);  // only the learned priority
  EXPECT_TRUE(c.policy().expect_ecn);
  EXPECT_EQ(c.policy().cnp_dscp, 46);
  EXPECT_EQ(c.policy().cnp_priority, 46 >> 3);  // untagged CNPs: their DSCP's priority
  EXPECT_EQ(c.policy().dscp_priority, default_dscp_map());  // map stays as configured
  EXPECT_EQ(c.policy().mode, Mode::learned);

  EXPECT_EQ(c.check(0, 0, data(34, -1, kEct0)).failed, 0);
  QosVerdict v = c.check(20, 0, data(0, -1, kNotEct));  // the odd host
  EXPECT_EQ(v.failed, kLossless | kEcn);
  EXPECT_EQ(v.first, kLossless | kEcn);
  EXPECT_EQ(c.check(21, 0, data(26, -1)).failed, kLossless);  // the configured default is not lossless here
  EXPECT_EQ(c.check(9, 0, cnp(48, -1)).failed, kCnp);
  EXPECT_EQ(c.check(9, 0, cnp(46, -1)).failed, 0);
}

TEST(QosCheckerLearned, CnpsWaitForTheirOwnSamples) {
  Checker c(learned_policy());
  for (int i = 0; i < 40; ++i) c.check(1, 0, data());
  for (uint64_t i = 0; i < Checker::kLearnCnpMin; ++i) {
    QosVerdict v = c.check(2, 0, cnp(i == 0 ? 26 : 40, -1));  // the first is odd, but too early to say
    EXPECT_TRUE(v.learning);
    EXPECT_EQ(v.failed, 0);
  }
  EXPECT_EQ(c.check(2, 0, cnp(26, -1)).failed, kCnp);
  EXPECT_EQ(c.check(2, 0, cnp(40, 5)).failed, 0);  // PCP 5 == 40 >> 3
  EXPECT_EQ(c.check(2, 0, cnp(40, 6)).failed, kCnp);
}

TEST(QosCheckerLearned, NotEctMajorityMeansEcnIsNotExpected) {
  Checker c(learned_policy());
  for (int i = 0; i < 40; ++i) c.check(1, 0, data(26, 3, kNotEct));
  EXPECT_FALSE(c.policy().expect_ecn);
  EXPECT_EQ(c.check(1, 0, data(26, 3, kNotEct)).failed, 0);
}

TEST(QosCheckerLearned, ResponsesDoNotTeach) {
  Checker c(learned_policy());
  for (int i = 0; i < 100; ++i) c.check(2, 0, ack(0, -1));
  EXPECT_EQ(c.learned().data_samples, 0u);
  EXPECT_TRUE(c.check(2, 0, ack(0, -1)).learning);
}

TEST(QosCheckerLearned, IsCausalAndDeterministic) {
  // A stream where the majority shifts half-way: the verdicts follow what
  // came before each packet, and two runs agree packet for packet.
  std::vector<Marking> in;
  for (int i = 0; i < 60; ++i) in.push_back(data(26, 3));
  for (int i = 0; i < 200; ++i) in.push_back(data(i % 3 ? 34 : 26, 4));  // 34 leads after ~180
  auto run = [&](size_t n) {
    Checker c(learned_policy());
    std::vector<uint8_t> failed;
    for (size_t i = 0; i < n; ++i) failed.push_back(c.check(static_cast<uint32_t>(i % 5), 0, in[i]).failed);
    return failed;
  };
  const auto full = run(in.size());
  EXPECT_EQ(full, run(in.size()));
  const auto prefix = run(80);  // later packets never change earlier verdicts
  EXPECT_TRUE(std::equal(prefix.begin(), prefix.end(), full.begin()));
  EXPECT_NE(full[70] & kLossless, 0) << "DSCP 34 while 26 dominates";
  ASSERT_EQ(in.back().dscp, 34);
  EXPECT_EQ(full.back() & kLossless, 0) << "DSCP 34 once it dominates";
  EXPECT_NE(full.back() & kLossless, full[70] & kLossless);
}

TEST(QosCheckerLearned, TiesKeepTheFirstLeader) {
  Checker c(learned_policy());
  for (int i = 0; i < 16; ++i) {
    c.check(1, 0, data(34, -1));
    c.check(2, 0, data(26, -1));
  }
  EXPECT_EQ(c.learned().data_dscp, 34);
  c.check(2, 0, data(26, -1));
  EXPECT_EQ(c.learned().data_dscp, 26);
}

TEST(QosCheckerLearned, ConfiguredModeLearnsNothing) {
  Checker c(Policy::defaults());
  for (int i = 0; i < 50; ++i) c.check(1, 0, data(34, -1));
  EXPECT_FALSE(c.learned().ready);
  EXPECT_EQ(c.learned().data_samples, 0u);
  EXPECT_EQ(c.policy(), Policy::defaults());
}

TEST(QosChecker, RoceV1HasNoEcnToCheck) {
  Checker c(Policy::defaults());
  Marking v1{26, 0, 3, false, true, false};  // RoCEv1: no IP header, no ECN
  EXPECT_FALSE(c.check(1, 0, v1).failed & bit(Check::ecn_not_capable));
  Marking v2 = v1;
  v2.has_ecn = true;
  EXPECT_TRUE(c.check(2, 0, v2).failed & bit(Check::ecn_not_capable));
}

}  // namespace
}  // namespace roceshark::qos
