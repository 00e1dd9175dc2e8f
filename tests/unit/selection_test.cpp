// SPDX-License-Identifier: GPL-2.0-or-later
// The command's --qp/--host/--point: which records a Selection keeps, and
// the display filter it names for tshark (tests/cli/selection_test.py
// compares the two on captures).
#include "epan-ext/session/selection.h"

#include <gtest/gtest.h>

namespace roceshark {
namespace {

Address v4(uint8_t last) {
  const uint8_t b[4] = {10, 0, 0, last};
  return Address::from(b);
}

PacketInfo packet(uint32_t qp, uint8_t src, uint8_t dst, uint32_t point) {
  PacketInfo p;
  p.dest_qp = qp, p.src = v4(src), p.dst = v4(dst), p.point = point;
  return p;
}

TEST(Selection, NoneSelectsEverythingAndNamesNoFilter) {
  const Selection s;
  EXPECT_FALSE(s.any());
  EXPECT_TRUE(s.selects(packet(1, 1, 2, 0)));
  EXPECT_TRUE(s.selects(pfc::PauseFrame{}));
  EXPECT_TRUE(s.selects(qos::DcbxAnnouncement{}));
  EXPECT_EQ(s.filter(), "");
}

TEST(Selection, Qp) {
  Selection s;
  s.qps = {0x94c};
  EXPECT_TRUE(s.selects(packet(0x94c, 1, 2, 0)));
  EXPECT_FALSE(s.selects(packet(0x94d, 1, 2, 0)));
  EXPECT_FALSE(s.selects(pfc::PauseFrame{}));          // no BTH in a pause frame
  EXPECT_FALSE(s.selects(qos::DcbxAnnouncement{}));
  PacketInfo cut = packet(0x94c, 1, 2, 0);
  cut.truncated = true;                                 // its BTH is not known
  EXPECT_FALSE(s.selects(cut));
  icmp::TooBig m;
  m.dest_qp = 0x94c;
  EXPECT_FALSE(s.selects(m));                           // the quote stops before the BTH
  m.has_bth = true;
  EXPECT_TRUE(s.selects(m));
  EXPECT_EQ(s.filter(), "infiniband.bth.destqp == 0x94c");
  s.qps.insert(0x2a1);
  EXPECT_EQ(s.filter(), "infiniband.bth.destqp in {0x2a1, 0x94c}");
}

TEST(Selection, Host) {
  Selection s;
  s.hosts = {v4(1)};
  EXPECT_TRUE(s.selects(packet(1, 1, 2, 0)));
  EXPECT_TRUE(s.selects(packet(1, 2, 1, 0)));
  EXPECT_FALSE(s.selects(packet(1, 2, 3, 0)));
  PacketInfo v1 = packet(1, 1, 2, 0);
  v1.encap = Encap::rocev1;                             // a GRH, not ip.addr
  EXPECT_FALSE(s.selects(v1));
  icmp::TooBig m;
  m.reporter = v4(1);                                   // the router's own address is ip.addr too
  EXPECT_TRUE(s.selects(m));
  EXPECT_EQ(s.filter(), "ip.addr == 10.0.0.1");
  s.hosts.push_back(v4(2));
  EXPECT_EQ(s.filter(), "ip.addr == 10.0.0.1 || ip.addr == 10.0.0.2");
  s.qps = {7};
  EXPECT_EQ(s.filter(), "infiniband.bth.destqp == 0x7 && (ip.addr == 10.0.0.1 || ip.addr == 10.0.0.2)");
}

TEST(Selection, PointByNameOrId) {
  Selection s;
  s.points = {"leaf-1", "2"};
  s.name_point(0, "nic-a");
  s.name_point(1, "leaf-1");
  EXPECT_EQ(s.unmatched_points(), std::vector<std::string>{"2"});
  s.name_point(2, "nic-b");
  EXPECT_TRUE(s.unmatched_points().empty());
  EXPECT_FALSE(s.selects(packet(1, 1, 2, 0)));
  EXPECT_TRUE(s.selects(packet(1, 1, 2, 1)));
  pfc::PauseFrame f;
  f.point = 2;
  EXPECT_TRUE(s.selects(f));
  EXPECT_FALSE(s.selects(qos::DcbxAnnouncement{}));  // the tree gives LLDP no roce.point
  EXPECT_EQ(s.filter(), "roce.point in {1, 2}");
}

}  // namespace
}  // namespace roceshark
