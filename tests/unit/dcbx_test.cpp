// SPDX-License-Identifier: GPL-2.0-or-later
#include <gtest/gtest.h>

#include "epan-ext/dcbx.h"
#include "epan-ext/ethernet.h"

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

TEST(Dcbx, AgreeingPortHasNoFinding) {
  EXPECT_TRUE(compare(good_port(), Policy::defaults(), Seen{dscp_bit(26), 1u << 3}).empty());
  EXPECT_TRUE(compare(good_port(), Policy::defaults(), Seen{0, 0}).empty());  // before any traffic
  DcbxAnnouncement a = good_port();
  a.app_dscp.push_back({10, 1});  // an entry for a DSCP nobody uses here
  a.pfc_enabled |= 1u << 4;       // PFC on more priorities than needed is harmless
  EXPECT_TRUE(compare(a, Policy::defaults(), Seen{dscp_bit(26), 1u << 3}).empty());
}

TEST(Dcbx, PfcOffOnTheLosslessPriority) {
  DcbxAnnouncement a = good_port();
  a.pfc_enabled = 1u << 4;
  auto f = compare(a, Policy::defaults(), Seen{0, 0});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].kind, Kind::pfc_off_on_roce_priority);
  EXPECT_EQ(f[0].priority, 3);
  EXPECT_EQ(f[0].announced, 1u << 4);
  EXPECT_EQ(f[0].text, "PFC is off on priority 3 (lossless in the policy); PFC enabled on: 4");
}

TEST(Dcbx, PfcOffOnAPriorityRoceWasSeenOn) {
  DcbxAnnouncement a = good_port();
  a.pfc_enabled = 0;
  auto f = compare(a, Policy::defaults(), Seen{dscp_bit(26) | dscp_bit(34), (1u << 3) | (1u << 4)});
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
  EXPECT_TRUE(compare(a, Policy::defaults(), Seen{dscp_bit(26), 1u << 3}).empty());
}

TEST(Dcbx, AppDisagreesWithPolicy) {
  DcbxAnnouncement a = good_port();
  a.pfc_enabled = (1u << 3) | (1u << 4);
  a.app_dscp = {{26, 4}, {48, 5}};
  Policy p;
  p.lossless_mask = (1u << 3) | (1u << 4);  // 4 is lossless: not lossy, but not the policy's map
  auto f = compare(a, p, Seen{dscp_bit(26), 1u << 3});
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
  EXPECT_TRUE(compare(a, Policy::defaults(), Seen{dscp_bit(26), 1u << 3}).empty());
  EXPECT_EQ(compare(a, Policy::defaults(), Seen{dscp_bit(26) | dscp_bit(27), 1u << 3}).size(), 1u);
}

TEST(Dcbx, AppDisagreesWithTraffic) {
  DcbxAnnouncement a = good_port();
  a.app_dscp = {{26, 0}, {48, 6}};
  auto f = compare(a, Policy::defaults(), Seen{dscp_bit(26), 1u << 3});
  ASSERT_EQ(f.size(), 1u);  // one finding per entry: the traffic one, though the policy one applies too
  EXPECT_EQ(f[0].kind, Kind::app_disagrees_with_traffic);
  EXPECT_EQ(f[0].dscp, 26);
  EXPECT_EQ(f[0].priority, 3);
  EXPECT_EQ(f[0].announced, 0);
  EXPECT_EQ(f[0].text, "APP maps DSCP 26, which carries RoCE here, to priority 0, which is not lossless (lossless: 3)");

  // RoCE seen on DSCP 0 (itself flagged per packet): the switch keeps it lossy.
  a.app_dscp = {{0, 0}};
  f = compare(a, Policy::defaults(), Seen{dscp_bit(0), 1u});
  ASSERT_EQ(f.size(), 2u);
  EXPECT_EQ(f[0].kind, Kind::pfc_off_on_roce_priority);  // priority 0 carries RoCE here, PFC is off on it
  EXPECT_EQ(f[0].priority, 0);
  EXPECT_EQ(f[1].kind, Kind::app_disagrees_with_traffic);
  EXPECT_EQ(f[1].dscp, 0);
}

TEST(Dcbx, InvalidAppEntriesAreIgnored) {
  DcbxAnnouncement a = good_port();
  a.app_dscp = {{64, 0}, {200, 1}, {26, 9}};
  EXPECT_TRUE(compare(a, Policy::defaults(), Seen{~uint64_t{0}, 1u << 3}).empty());
}

TEST(Dcbx, MaximumFrameSizeBelowTheLongestRoceFrame) {
  DcbxAnnouncement a = good_port();
  a.max_frame_size = 1522;
  EXPECT_TRUE(compare(a, Policy::defaults(), Seen{dscp_bit(26), 1u << 3, 1522}).empty());  // at the size: fits
  EXPECT_TRUE(compare(a, Policy::defaults(), Seen{}).empty());                             // no RoCE yet
  const auto f = compare(a, Policy::defaults(), Seen{dscp_bit(26), 1u << 3, 4170});
  ASSERT_EQ(f.size(), 1u);
  EXPECT_EQ(f[0].kind, Kind::max_frame_below_roce);
  EXPECT_EQ(f[0].largest_frame, 4170u);
  EXPECT_EQ(f[0].text, "maximum frame size 1,522 bytes, but RoCE frames of 4,170 bytes cross this link");
  a.max_frame_size = 0;  // not announced: nothing to compare
  EXPECT_TRUE(compare(a, Policy::defaults(), Seen{dscp_bit(26), 1u << 3, 9000}).empty());
}

TEST(Dcbx, FindingsReportUnderTheirCatalogueRows) {
  EXPECT_EQ(check_of(Kind::max_frame_below_roce).row, checks::kind("lldp_max_frame"));
  EXPECT_EQ(check_of(Kind::app_disagrees_with_traffic).row, checks::kind("dcbx_mismatch"));
  EXPECT_EQ(check_of(Kind::app_disagrees_with_traffic).expert, 2u);
}

TEST(Dcbx, NamesFindingKinds) {
  EXPECT_EQ(mac_to_string(good_port().mac), "00:11:22:33:44:55");
  EXPECT_STREQ(finding_kind_name(Kind::app_disagrees_with_traffic), "app_disagrees_with_traffic");
}

}  // namespace
}  // namespace roceshark::qos
