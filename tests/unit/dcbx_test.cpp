// SPDX-License-Identifier: GPL-2.0-or-later
#include <gtest/gtest.h>

#include "epan-ext/analysis/dcbx.h"
#include "epan-ext/decode/ethernet.h"

namespace roceshark::qos {
namespace {

using Kind = DcbxFinding::Kind;
constexpr uint64_t dscp_bit(unsigned d) { return uint64_t{1} << d; }

// A port set up like the default policy: PFC on 3, APP 26->3, 48->6.
DcbxAnnouncement good_port() {
  DcbxAnnouncement a;
  a.point = 1;
  a.mac = {0x00, 0x11, 0x22, 0x33, 0x44, 0x55};
  a.has_pfc = true;
  a.pfc_enabled = 1u << 3;
  a.app_dscp = {{26, 3}, {48, 6}};
  return a;
}

// RoCE (priority 3) in TC 3 with 50%, the CNP priority 6 strict in TC 6,
// everything else in TC 0 with 50%.
EtsTable good_ets() {
  EtsTable t;
  t.tc = {0, 0, 0, 3, 0, 0, 6, 0};
  t.bw = {50, 0, 0, 50, 0, 0, 0, 0};
  t.tsa = {kTsaEts, kTsaEts, kTsaEts, kTsaEts, kTsaEts, kTsaEts, kTsaStrict, kTsaEts};
  return t;
}

TEST(Dcbx, AgreeingPortHasNoFinding) {
  EXPECT_TRUE(compare(good_port(), Policy::defaults(), Seen{dscp_bit(26), 1u << 3}, nullptr).empty());
  EXPECT_TRUE(compare(good_port(), Policy::defaults(), Seen{0, 0}, nullptr).empty());  // before any traffic
  DcbxAnnouncement a = good_port();
  a.app_dscp.push_back({10, 1});  // an entry for a DSCP nobody uses here
  a.pfc_enabled |= 1u << 4;       // PFC on more priorities than needed is harmless
  EXPECT_TRUE(compare(a, Policy::defaults(), Seen{dscp_bit(26), 1u << 3}, nullptr).empty());
}

TEST(Dcbx, PfcOffOnTheLosslessPriority) {
  DcbxAnnouncement a = good_port();
  a.pfc_enabled = 1u << 4;
  auto f = compare(a, Policy::defaults(), Seen{0, 0}, nullptr);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].kind, Kind::pfc_off_on_roce_priority);
  EXPECT_EQ(f[0].priority, 3);
  EXPECT_EQ(f[0].announced, 1u << 4);
  EXPECT_EQ(f[0].text, "PFC is off on priority 3 (lossless in the policy); PFC enabled on: 4");
}

TEST(Dcbx, PfcOffOnAPriorityRoceWasSeenOn) {
  DcbxAnnouncement a = good_port();
  a.pfc_enabled = 0;
  auto f = compare(a, Policy::defaults(), Seen{dscp_bit(26) | dscp_bit(34), (1u << 3) | (1u << 4)}, nullptr);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].priority, 3);
  EXPECT_NE(f[0].text.find("lossless in the policy and carrying RoCE here"), std::string::npos) << f[0].text;
  EXPECT_NE(f[0].text.find("PFC enabled on: none"), std::string::npos) << f[0].text;
  EXPECT_EQ(f[1].kind, Kind::pfc_off_on_roce_priority);
  EXPECT_EQ(f[1].priority, 4);
  EXPECT_NE(f[1].text.find("(carrying RoCE here)"), std::string::npos) << f[1].text;
}

TEST(Dcbx, NoPfcTlvSaysNothingAboutPfc) {
  DcbxAnnouncement a = good_port();
  a.has_pfc = false;
  a.pfc_enabled = 0;
  EXPECT_TRUE(compare(a, Policy::defaults(), Seen{dscp_bit(26), 1u << 3}, nullptr).empty());
}

TEST(Dcbx, AppDisagreesWithPolicy) {
  DcbxAnnouncement a = good_port();
  a.pfc_enabled = (1u << 3) | (1u << 4);
  a.app_dscp = {{26, 4}, {48, 5}};
  Policy p;
  p.lossless_mask = (1u << 3) | (1u << 4);  // 4 is lossless: not lossy, but not the policy's map
  auto f = compare(a, p, Seen{dscp_bit(26), 1u << 3}, nullptr);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].kind, Kind::app_disagrees_with_policy);
  EXPECT_EQ(f[0].dscp, 26);
  EXPECT_EQ(f[0].priority, 3);
  EXPECT_EQ(f[0].announced, 4);
  EXPECT_EQ(f[0].text, "APP maps DSCP 26 to priority 4, the policy maps it to 3");
  EXPECT_EQ(f[1].kind, Kind::app_disagrees_with_policy);
  EXPECT_EQ(f[1].dscp, 48);  // the CNP DSCP is cared about even with no CNP seen
  EXPECT_EQ(f[1].announced, 5);
  EXPECT_NE(f[1].text.find("(the CNP DSCP)"), std::string::npos) << f[1].text;
}

TEST(Dcbx, AppForAnUnseenDataDscpIsNotThePolicysBusiness) {
  DcbxAnnouncement a = good_port();
  a.app_dscp = {{27, 4}};  // 27 maps to lossless 3 in the policy, but no RoCE used it here
  EXPECT_TRUE(compare(a, Policy::defaults(), Seen{dscp_bit(26), 1u << 3}, nullptr).empty());
  EXPECT_EQ(compare(a, Policy::defaults(), Seen{dscp_bit(26) | dscp_bit(27), 1u << 3}, nullptr).size(), 1u);
}

TEST(Dcbx, AppDisagreesWithTraffic) {
  DcbxAnnouncement a = good_port();
  a.app_dscp = {{26, 0}, {48, 6}};
  auto f = compare(a, Policy::defaults(), Seen{dscp_bit(26), 1u << 3}, nullptr);
  ASSERT_EQ(f.size(), 1u);  // one finding per entry: the traffic one, though the policy one applies too
  EXPECT_EQ(f[0].kind, Kind::app_disagrees_with_traffic);
  EXPECT_EQ(f[0].dscp, 26);
  EXPECT_EQ(f[0].priority, 3);
  EXPECT_EQ(f[0].announced, 0);
  EXPECT_EQ(f[0].text, "APP maps DSCP 26, which carries RoCE here, to priority 0, which is not lossless (lossless: 3)");

  // RoCE seen on DSCP 0 (itself flagged per packet): the switch keeps it lossy.
  a.app_dscp = {{0, 0}};
  f = compare(a, Policy::defaults(), Seen{dscp_bit(0), 1u}, nullptr);
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].kind, Kind::pfc_off_on_roce_priority);  // priority 0 carries RoCE here, PFC is off on it
  EXPECT_EQ(f[0].priority, 0);
  EXPECT_EQ(f[1].kind, Kind::app_disagrees_with_traffic);
  EXPECT_EQ(f[1].dscp, 0);
}

TEST(Dcbx, InvalidAppEntriesAreIgnored) {
  DcbxAnnouncement a = good_port();
  a.app_dscp = {{64, 0}, {200, 1}, {26, 9}};
  EXPECT_TRUE(compare(a, Policy::defaults(), Seen{~uint64_t{0}, 1u << 3}, nullptr).empty());
}

TEST(Dcbx, MaximumFrameSizeBelowTheLongestRoceFrame) {
  DcbxAnnouncement a = good_port();
  a.max_frame_size = 1522;
  EXPECT_TRUE(compare(a, Policy::defaults(), Seen{dscp_bit(26), 1u << 3, 1522}, nullptr).empty());  // at the size: fits
  EXPECT_TRUE(compare(a, Policy::defaults(), Seen{}, nullptr).empty());                             // no RoCE yet
  const auto f = compare(a, Policy::defaults(), Seen{dscp_bit(26), 1u << 3, 4170}, nullptr);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].kind, Kind::max_frame_below_roce);
  EXPECT_EQ(f[0].largest_frame, 4170u);
  EXPECT_EQ(f[0].text, "maximum frame size 1,522 bytes, but RoCE frames of 4,170 bytes cross this link");
  a.max_frame_size = 0;  // not announced: nothing to compare
  EXPECT_TRUE(compare(a, Policy::defaults(), Seen{dscp_bit(26), 1u << 3, 9000}, nullptr).empty());
}

TEST(Dcbx, EtsThatServesRoceAndCnpsHasNoFinding) {
  DcbxAnnouncement a = good_port();
  a.ets = good_ets();
  EXPECT_TRUE(compare(a, Policy::defaults(), Seen{dscp_bit(26), 1u << 3}, nullptr).empty());
  EXPECT_EQ(format_ets(*a.ets), "prio->TC 0,0,0,3,0,0,6,0; TC0 ETS 50%, TC3 ETS 50%, TC6 strict");
}

TEST(Dcbx, EtsWithNoBandwidthForRoce) {
  DcbxAnnouncement a = good_port();
  a.ets = good_ets();
  a.ets->bw = {100, 0, 0, 0, 0, 0, 0, 0};
  const auto f = compare(a, Policy::defaults(), Seen{dscp_bit(26), 1u << 3}, nullptr);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].kind, Kind::ets_roce_no_bandwidth);
  EXPECT_EQ(f[0].priority, 3);
  EXPECT_EQ(f[0].announced, 3);  // the class
  EXPECT_EQ(f[0].text, "ETS puts priority 3 (RoCE) in TC3 (ETS 0%): no bandwidth once other classes are busy");
  a.ets->tsa[3] = kTsaStrict;  // strict priority needs no share
  EXPECT_TRUE(compare(a, Policy::defaults(), Seen{dscp_bit(26), 1u << 3}, nullptr).empty());
}

TEST(Dcbx, EtsWithCnpsSharingAClass) {
  DcbxAnnouncement a = good_port();
  a.ets = good_ets();
  a.ets->tc[6] = 0;  // the CNP priority joins best effort
  auto f = compare(a, Policy::defaults(), Seen{dscp_bit(26), 1u << 3}, nullptr);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].kind, Kind::ets_cnp_shared);
  EXPECT_EQ(f[0].priority, 6);
  EXPECT_EQ(f[0].text, "ETS puts the CNP priority 6 in TC0 (ETS 50%) with priorities 0,1,2,4,5,7: CNPs queue behind "
                       "that traffic");
  a.ets->tc = {0, 0, 0, 3, 0, 0, 5, 0};  // a class of its own, even if not strict
  EXPECT_TRUE(compare(a, Policy::defaults(), Seen{dscp_bit(26), 1u << 3}, nullptr).empty());
  // A policy whose CNPs ride the lossless RoCE priority shares it by design.
  Policy p = Policy::defaults();
  p.cnp_priority = 3;
  a.ets->tc = {0, 0, 0, 3, 0, 0, 0, 0};
  a.ets->bw = {50, 0, 0, 50, 0, 0, 0, 0};
  EXPECT_TRUE(compare(a, p, Seen{dscp_bit(26), 1u << 3}, nullptr).empty());
}

TEST(Dcbx, EtsThatDiffersFromTheFirstPort) {
  DcbxAnnouncement a = good_port();
  a.ets = good_ets();
  EtsReference ref{7, {0x02, 0, 0, 0, 0, 0x01}, good_ets()};
  EXPECT_TRUE(compare(a, Policy::defaults(), Seen{dscp_bit(26), 1u << 3}, &ref).empty());
  a.ets->bw = {40, 0, 0, 60, 0, 0, 0, 0};  // same class, another share
  auto f = compare(a, Policy::defaults(), Seen{dscp_bit(26), 1u << 3}, &ref);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].kind, Kind::ets_differs_between_ports);
  EXPECT_EQ(f[0].text, "ETS puts priority 3 (RoCE) in TC3 (ETS 60%), 02:00:00:00:00:01 (frame 7) in TC3 (ETS 50%)");
  a.ets = good_ets();
  a.ets->tc[3] = 4;  // another class with the same share
  a.ets->bw[4] = 50;
  a.ets->bw[3] = 0;
  f = compare(a, Policy::defaults(), Seen{dscp_bit(26), 1u << 3}, &ref);
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].kind, Kind::ets_differs_between_ports);
  ref.mac = a.mac;  // the same port again: nothing to compare with
  EXPECT_TRUE(compare(a, Policy::defaults(), Seen{dscp_bit(26), 1u << 3}, &ref).empty());
}

TEST(Dcbx, FindingsReportUnderTheirCatalogueRows) {
  EXPECT_EQ(check_of(Kind::max_frame_below_roce).row, checks::kind("lldp_max_frame"));
  EXPECT_EQ(check_of(Kind::app_disagrees_with_traffic).row, checks::kind("dcbx_mismatch"));
  EXPECT_EQ(check_of(Kind::app_disagrees_with_traffic).expert, 2u);
  EXPECT_EQ(check_of(Kind::ets_differs_between_ports).row, checks::kind("ets_mismatch"));
  EXPECT_EQ(check_of(Kind::ets_differs_between_ports).expert, 2u);
}

TEST(Dcbx, NamesFindingKinds) {
  EXPECT_EQ(mac_to_string(good_port().mac), "00:11:22:33:44:55");
  EXPECT_STREQ(finding_kind_name(Kind::app_disagrees_with_traffic), "app_disagrees_with_traffic");
}

}  // namespace
}  // namespace roceshark::qos
