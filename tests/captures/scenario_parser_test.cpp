// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/scenario_parser.h"

#include <gtest/gtest.h>

#include "tests/captures/test_util.h"

#include <string>

namespace roceshark::gen {
namespace {

const std::string kBase =
    "host a 10.0.0.1 02:00:00:00:00:0a\n"
    "host b 10.0.0.2 02:00:00:00:00:0b ip6=fd00::b\n"
    "path a 1us p1 1.5us p2 2us b\n"
    "qp q a:0x11 b:0x22 psn=100,0xfffff0 mtu=2048 vlan=7 pcp=5 dscp=24 ecn=1\n";

using test::error_of;

TEST(ScenarioParser, ReadsTheNetwork) {
  Scenario s = parse_scenario(kBase + "send q a 4K\nwrite q b 100 imm id=w1 at=3us\n");
  ASSERT_EQ(s.hosts.size(), 2u);
  EXPECT_EQ(s.hosts[1].ip6.has_value(), true);
  ASSERT_EQ(s.points.size(), 2u);
  EXPECT_EQ(s.points[1].name, "p2");
  ASSERT_EQ(s.paths.size(), 1u);
  EXPECT_EQ(s.paths[0].latency, (std::vector<Ns>{1000, 1500, 2000}));
  const Qp& q = s.qps[0];
  EXPECT_EQ(q.side[0].qpn, 0x11u);
  EXPECT_EQ(q.side[1].start_psn, 0xFFFFF0u);
  EXPECT_EQ(q.mtu, 2048u);
  EXPECT_EQ(q.vlan, 7);
  EXPECT_EQ(q.pcp, 5);
  EXPECT_EQ(q.dscp, 24);
  EXPECT_EQ(q.ecn, 1);
  ASSERT_EQ(s.messages.size(), 2u);
  EXPECT_EQ(s.messages[0].length, 4096u);
  EXPECT_EQ(s.messages[1].side, 1);
  EXPECT_TRUE(s.messages[1].imm);
  EXPECT_EQ(s.messages[1].at, 3000);
  EXPECT_EQ(s.messages[1].id, "w1");
}

TEST(ScenarioParser, AtomicWorkRequests) {
  Scenario s = parse_scenario(kBase + "atomic q a fetchadd\natomic q b cmpswap compare=0x10 swap=7 at=2us\n");
  ASSERT_EQ(s.messages.size(), 2u);
  EXPECT_EQ(s.messages[0].type, MsgType::fetch_add);
  EXPECT_EQ(s.messages[0].atomic.swap_add, 1u);  // add=1 unless told
  EXPECT_EQ(s.messages[0].length, kAtomicLength);
  EXPECT_EQ(s.messages[1].type, MsgType::cmp_swap);
  EXPECT_EQ(s.messages[1].side, 1);
  EXPECT_EQ(s.messages[1].atomic.compare, 0x10u);
  EXPECT_EQ(s.messages[1].atomic.swap_add, 7u);
  EXPECT_EQ(s.messages[1].at, 2000);
}

TEST(ScenarioParser, PutsASwitchBetweenAdjacentPoints) {
  Scenario s = parse_scenario(kBase);
  ASSERT_EQ(s.switches.size(), 1u);
  EXPECT_EQ(s.switches[0].name, "p1+p2");
  EXPECT_EQ(s.switches[0].mac, *parse_mac("02:53:57:00:00:01"));
  EXPECT_TRUE(s.switches[0].implicit);
  const Path& p = s.paths[0];
  EXPECT_EQ(p.switches, (std::vector<std::vector<size_t>>{{}, {0}, {}}));  // none on the host links
  const NodeRef a{NodeRef::Kind::host, 0}, b{NodeRef::Kind::host, 1}, sw{NodeRef::Kind::sw, 0};
  EXPECT_EQ(p.before(0), a);
  EXPECT_EQ(p.after(0), sw);
  EXPECT_EQ(p.before(1), sw);
  EXPECT_EQ(p.after(1), b);
}

TEST(ScenarioParser, NamedSwitchesSitWhereThePathSays) {
  Scenario s = parse_scenario(
      "host a 10.0.0.1 02:00:00:00:00:0a\nhost b 10.0.0.2 02:00:00:00:00:0b\nhost c 10.0.0.3 02:00:00:00:00:0c\n"
      "switch tor 02:00:00:01:00:00\nswitch leaf 02:00:00:01:00:01\nswitch spine 02:00:00:01:00:02\n"
      "path a 1us tor 1us p1 1us leaf 2us spine 1us p2 1us b\n"
      "path c 300ns leaf 2us spine 1us p2 1us b\n"  // shares p2's link with the first path
      "path a 1us tor 1us p1 1us leaf 1us p3 1us p4 1us c\n");  // p3 - p4: an implicit switch
  ASSERT_EQ(s.switches.size(), 4u);
  EXPECT_EQ(s.switches[3].name, "p3+p4");
  EXPECT_EQ(s.switches[3].mac, *parse_mac("02:53:57:00:00:01"));
  const Path& p = s.paths[0];
  EXPECT_EQ(p.latency, (std::vector<Ns>{2000, 4000, 1000}));  // a switch's hops add up in its segment
  EXPECT_EQ(p.switches, (std::vector<std::vector<size_t>>{{0}, {1, 2}, {}}));
  EXPECT_EQ(p.before(0), (NodeRef{NodeRef::Kind::sw, 0}));  // p1 taps tor - leaf
  EXPECT_EQ(p.after(0), (NodeRef{NodeRef::Kind::sw, 1}));
  EXPECT_EQ(p.before(1), (NodeRef{NodeRef::Kind::sw, 2}));  // p2 taps spine - b
  EXPECT_EQ(s.paths[1].switches, (std::vector<std::vector<size_t>>{{1, 2}, {}}));
  EXPECT_EQ(s.paths[2].switches, (std::vector<std::vector<size_t>>{{0}, {1}, {3}, {}}));
}

TEST(ScenarioParser, BridgedAndPortMac) {
  const std::string net =
      "host a 10.0.0.1 02:00:00:00:00:0a\nhost b 10.0.0.2 02:00:00:00:00:0b\n"
      "switch leaf 02:00:00:01:00:01 port_mac=02:00:00:01:10:01\npath a 1us p1 1us leaf 1us b\n";
  Scenario s = parse_scenario("bridged\n" + net + "pfc p1 from=leaf prio=3 quanta=1 at=1us\n", "t.scn");
  EXPECT_TRUE(s.bridged);
  EXPECT_EQ(s.switches[0].mac, *parse_mac("02:00:00:01:00:01"));
  EXPECT_EQ(s.switches[0].port_mac, *parse_mac("02:00:00:01:10:01"));
  EXPECT_EQ(s.pfcs[0].from.mac, *parse_mac("02:00:00:01:10:01"));  // PFC comes from the port MAC
  EXPECT_FALSE(parse_scenario(net, "t.scn").bridged);
  test::expect_errors({
      {"bridged\nbridged\n", "'bridged' given twice"},
      {"bridged x\n", "usage: bridged"},
      {"switch s 02:00:00:01:00:01 port_mac=zz\n", "bad MAC address 'zz'"},
      {"switch s 02:00:00:01:00:01 port_mac=02:00:00:01:00:01\n", "port_mac= is the switch's own MAC"},
      {"host a 10.0.0.1 02:00:00:00:00:0a\nswitch s 02:00:00:01:00:01 port_mac=02:00:00:00:00:0a\n"
       "host b 10.0.0.2 02:00:00:00:00:0b\npath a 1us p1 1us s 1us b\n",
       "has the MAC of host 'a'"},
  });
}

TEST(ScenarioParser, ResolvesWhereInTheTravelDirection) {
  Scenario s = parse_scenario(kBase + "send q a 4K\n"
                              "drop q a psn=1 where=before:p2\n"
                              "drop q a psn=2 where=after:p2\n"
                              "drop q a psn=3 where=between:p1,p2\n"
                              "drop q a psn=4 kind=ack where=after:p2\n"  // b -> a: p2 comes first
                              "drop q a psn=5 where=receiver times=all\n"
                              "ecn_mark q a psn=0-3 at=p2\n");
  EXPECT_EQ(s.drops[0].where.segment, 1u);
  EXPECT_EQ(s.drops[1].where.segment, 2u);
  EXPECT_EQ(s.drops[2].where.segment, 1u);
  EXPECT_EQ(s.drops[3].where.segment, 1u);
  EXPECT_EQ(s.drops[3].sel.traffic, Traffic::ack);
  EXPECT_EQ(s.drops[4].where.segment, 2u);
  EXPECT_EQ(s.drops[4].sel.times, 0u);
  EXPECT_EQ(s.marks[0].hop, 1u);
  EXPECT_EQ(s.marks[0].sel.last, 3u);
}

TEST(ScenarioParser, GlobalsAndCapture) {
  Scenario s = parse_scenario(kBase + "seed 9\nsnaplen 128\nsnaplen 256 point=p2\ntimeout 2ms\nack_coalesce 3us\n"
                              "mirror p1 dup=1us\ncapture p2 dir=a->b\nlink_gbps 25\ncnp_dscp 46\nexpect bad_icrc=2\n");
  EXPECT_EQ(s.seed, 9u);
  EXPECT_EQ(s.snaplen_of(0), 128u);
  EXPECT_EQ(s.snaplen_of(1), 256u);
  EXPECT_EQ(s.timing.timeout, 2'000'000);
  EXPECT_EQ(s.timing.ack_coalesce, 3000);
  EXPECT_EQ(s.points[0].mirror_dup, 1000);
  EXPECT_EQ(s.points[1].only_dir, (std::array<size_t, 2>{0, 1}));
  EXPECT_EQ(s.timing.link_gbps, 25);
  EXPECT_EQ(s.timing.cnp_dscp, 46);
  EXPECT_EQ(s.expect.at("bad_icrc"), "2");
}

TEST(ScenarioParser, SpeedAndQosMarking) {
  Scenario s = parse_scenario(kBase + "link_gbps 25\nspeed p2 400\ncnp_pcp 5\n"
                              "qp r a:5 b:6 vlan=3 cnp_dscp=46 cnp_pcp=2\nqp u a:7 b:8\n"
                              "marking q a dscp=0 at=200us\nmarking q a ecn=1 pcp=6 at=100us\n"
                              "marking q b dscp=10 at=1us\n"
                              "rewrite p2 dscp=26:0 dir=a->b\nrewrite p1 pcp=4 at=30us\n");
  EXPECT_EQ(s.gbps_of(0), 25);  // no speed: the host link speed
  EXPECT_EQ(s.gbps_of(1), 400);
  EXPECT_FALSE(s.points[0].gbps);
  EXPECT_EQ(s.cnp_pcp_of(s.qps[1]), 2);
  EXPECT_EQ(s.cnp_dscp_of(s.qps[1]), 46);
  EXPECT_EQ(s.cnp_pcp_of(s.qps[2]), 5);   // the scenario's
  EXPECT_EQ(s.cnp_dscp_of(s.qps[2]), 48);  // the default
  ASSERT_EQ(s.markings.size(), 3u);
  // Sorted by QP, side, time.
  EXPECT_EQ(s.markings[0].at, 100'000);
  EXPECT_EQ(s.markings[0].pcp, 6);
  EXPECT_EQ(s.markings[0].ecn, 1);
  EXPECT_FALSE(s.markings[0].dscp);
  EXPECT_EQ(s.markings[1].dscp, 0);
  EXPECT_EQ(s.markings[2].side, 1);
  ASSERT_EQ(s.rewrites.size(), 2u);
  EXPECT_EQ(s.rewrites[0].point, 1u);
  EXPECT_EQ(s.rewrites[0].dscp_from, 26);
  EXPECT_EQ(s.rewrites[0].dscp, 0);
  EXPECT_EQ(s.rewrites[0].dir, (std::array<size_t, 2>{0, 1}));
  EXPECT_FALSE(s.rewrites[1].pcp_from);
  EXPECT_EQ(s.rewrites[1].pcp, 4);
  EXPECT_FALSE(s.rewrites[1].dir);
  EXPECT_EQ(s.rewrites[0].at, 0);
  EXPECT_EQ(s.rewrites[1].at, 30'000);
}

TEST(ScenarioParser, NotificationPointOff) {
  Scenario s = parse_scenario(kBase + "qp r a:5 b:6 np=off:b\nqp u a:7 b:8 np=off:b,a\n");
  EXPECT_EQ(s.qps[0].np_off, (std::array<bool, 2>{false, false}));  // the default: both ends answer CE
  EXPECT_EQ(s.qps[1].np_off, (std::array<bool, 2>{false, true}));
  EXPECT_EQ(s.qps[2].np_off, (std::array<bool, 2>{true, true}));
  test::expect_errors({
      {kBase + "qp r a:5 b:6 np=off:c\n", "unknown host 'c'"},
      {kBase + "host c 10.0.0.3 02:00:00:00:00:0c\nqp r a:5 b:6 np=off:c\n", "'c' is not an end of qp 'r'"},
      {kBase + "qp r a:5 b:6 np=on:b\n", "np takes off:<host>"},
      {kBase + "qp r a:5 b:6 np=off\n", "np takes off:<host>"},
      {kBase + "qp r a:5 b:6 np=off:\n", "np takes off:<host>"},
      {kBase + "qp r a:5 b:6 np=off:b,\n", "unknown host ''"},
      {kBase + "qp r a:5 b:6 np=off:b,b\n", "names host 'b' twice"},
  });
}

TEST(ScenarioParser, PfcFrames) {
  Scenario s = parse_scenario(kBase + "pfc p2 storm from=b prio=3 quanta=0xffff at=50us every=100us until=1ms\n"
                              "xon p2 from=b prio=3,4 at=2ms\n"
                              "pfc p1 from=p1+p2 prio=4,1 quanta=10,20 at=1us "
                              "repeat=3 every=2us\n"
                              "pfc p1 from=a prio=0 quanta=5 at=0ns reserved=0x80 truncate=30 dst=ff:ff:ff:ff:ff:ff\n");
  ASSERT_EQ(s.pfcs.size(), 4u);
  const PfcDirective& storm = s.pfcs[0];
  EXPECT_EQ(storm.point, 1u);
  EXPECT_TRUE(storm.storm);
  EXPECT_EQ(storm.from.name, "b");
  EXPECT_EQ(storm.from.mac, s.hosts[1].mac);
  EXPECT_EQ(storm.from.node, (NodeRef{NodeRef::Kind::host, 1}));  // a host NIC pauses towards itself
  EXPECT_EQ(storm.enable, 1 << 3);
  EXPECT_EQ(storm.quanta[3], 0xFFFF);
  EXPECT_EQ(storm.when.at, 50'000);
  EXPECT_EQ(storm.when.count, 10u);  // 50 us .. 950 us
  EXPECT_EQ(storm.when.time(9), 950'000);
  EXPECT_TRUE(storm.effective());
  const PfcDirective& xon = s.pfcs[1];
  EXPECT_EQ(xon.enable, 1 << 3 | 1 << 4);
  EXPECT_EQ(xon.quanta, (std::array<uint16_t, 8>{}));
  EXPECT_FALSE(xon.storm);
  const PfcDirective& port = s.pfcs[2];
  EXPECT_EQ(port.from.name, "p1+p2");  // the switch's port on p1's link: with the switch's MAC
  EXPECT_EQ(port.from.mac, *parse_mac("02:53:57:00:00:01"));
  EXPECT_EQ(port.from.node, (NodeRef{NodeRef::Kind::sw, 0}));
  EXPECT_EQ(port.quanta[4], 10);  // in prio= order
  EXPECT_EQ(port.quanta[1], 20);
  EXPECT_EQ(port.when.count, 3u);
  const PfcDirective& bad = s.pfcs[3];
  EXPECT_EQ(bad.reserved, 0x80);
  EXPECT_EQ(bad.truncate, 30u);
  EXPECT_EQ(bad.dst, parse_mac("ff:ff:ff:ff:ff:ff"));
  EXPECT_FALSE(bad.effective());
}

TEST(ScenarioParser, LldpFrames) {
  Scenario s = parse_scenario(kBase + "lldp p1 from=a pfc=3 app=26:3,48:6 willing=1 at=5us repeat=2 every=1ms\n"
                              "lldp p2 from=p1+p2 port=sw-p7 pfc=none ttl=30 cap=4 mbc=1 at=0ns\n"
                              "lldp p2 from=p1+p2 app=26:0 at=0ns\n");
  ASSERT_EQ(s.lldps.size(), 3u);
  const LldpDirective& a = s.lldps[0];
  EXPECT_EQ(a.pfc_enable, 1 << 3);
  ASSERT_EQ(a.app.size(), 2u);
  EXPECT_EQ(a.app[1].dscp, 48);
  EXPECT_EQ(a.app[1].priority, 6);
  EXPECT_TRUE(a.willing);
  EXPECT_FALSE(a.mbc);
  EXPECT_EQ(a.pfc_cap, 8);
  EXPECT_EQ(a.when.count, 2u);
  EXPECT_EQ(a.port, "a");  // a host's port ID is its name
  const LldpDirective& sw = s.lldps[1];
  EXPECT_EQ(sw.pfc_enable, 0);  // announced, nothing enabled
  EXPECT_TRUE(sw.app.empty());
  EXPECT_EQ(sw.ttl, 30);
  EXPECT_EQ(sw.pfc_cap, 4);
  EXPECT_TRUE(sw.mbc);
  EXPECT_EQ(sw.port, "sw-p7");
  EXPECT_EQ(sw.from.mac, *parse_mac("02:53:57:00:00:01"));
  EXPECT_EQ(s.lldps[2].port, "p1+p2");
  EXPECT_FALSE(s.lldps[2].pfc_enable);  // no PFC TLV at all
}

// `mtu` on a point (the port before it) or on a switch (its egress), with
// the addresses its ICMP too-big messages come from.
TEST(ScenarioParser, MtuWithIcmp) {
  Scenario s = parse_scenario(
      "host a 10.0.0.1 02:00:00:00:00:0a\nhost b 10.0.0.2 02:00:00:00:00:0b\n"
      "switch leaf 02:00:00:01:00:01\npath a 1us p1 1us leaf 1us b\n"
      "mtu leaf 1500 dir=a->b icmp=10.0.0.254 icmp6=fd00::fe\nmtu p1 9000\n");
  ASSERT_EQ(s.mtus.size(), 2u);
  EXPECT_EQ(s.mtus[0].sw, std::optional<size_t>(0));
  EXPECT_EQ(s.mtus[0].bytes, 1500u);
  EXPECT_EQ(s.mtus[0].icmp4, parse_ipv4("10.0.0.254"));
  EXPECT_EQ(s.mtus[0].icmp6, parse_ipv6("fd00::fe"));
  EXPECT_FALSE(s.mtus[1].sw);
  EXPECT_EQ(s.mtus[1].point, 0u);
  EXPECT_FALSE(s.mtus[1].icmp4);
}

TEST(ScenarioParser, BestEffortFlows) {
  Scenario s = parse_scenario(kBase +
                              "besteffort p2 20gbps at=40us for=150us dir=a->b sched=strict\n"
                              "besteffort p1 500mbps at=1us for=2us dir=b->a sched=ets:80 size=1000 dscp=10 pcp=2\n");
  ASSERT_EQ(s.besteffort.size(), 2u);
  const BestEffort& b = s.besteffort[0];
  EXPECT_EQ(b.point, 1u);
  EXPECT_DOUBLE_EQ(b.gbps, 20);
  EXPECT_EQ(b.at, 40'000);
  EXPECT_EQ(b.length, 150'000);
  EXPECT_EQ(b.dir, (std::array<size_t, 2>{0, 1}));
  EXPECT_EQ(b.sched, BestEffort::Sched::strict);
  EXPECT_TRUE(b.forward);
  EXPECT_EQ(b.hop, 1u);              // p1 before it
  EXPECT_EQ(b.vlan, 7);              // the QP's VLAN
  EXPECT_EQ(b.frame_size(), 1518u);  // a 1500-byte packet, tagged
  EXPECT_EQ(b.dscp, 0);
  EXPECT_FALSE(b.pcp.has_value());
  EXPECT_FALSE(b.ipv6);
  EXPECT_EQ(tcp_payload_len(b), 1460u);
  const BestEffort& c = s.besteffort[1];
  EXPECT_EQ(c.point, 0u);
  EXPECT_DOUBLE_EQ(c.gbps, 0.5);
  EXPECT_EQ(c.sched, BestEffort::Sched::ets);
  EXPECT_EQ(c.ets_pct, 80);
  EXPECT_FALSE(c.forward);  // b -> a walks the path backwards: p2, then p1
  EXPECT_EQ(c.hop, 1u);
  EXPECT_EQ(c.frame_size(), 1000u);
  EXPECT_EQ(c.dscp, 10);
  EXPECT_EQ(c.pcp, 2);

  // Untagged RoCEv2 over IPv6 between the hosts: so is the flow.
  Scenario v6 = parse_scenario(
      "host a 10.0.0.1 02:00:00:00:00:0a ip6=fd00::a\nhost b 10.0.0.2 02:00:00:00:00:0b ip6=fd00::b\n"
      "path a 1us p1 1us p2 1us b\nqp q a:0x11 b:0x22 ver=v2-ipv6\n"
      "besteffort p2 10gbps at=0us for=1us dir=a->b sched=ets:50\n");
  EXPECT_TRUE(v6.besteffort[0].ipv6);
  EXPECT_FALSE(v6.besteffort[0].vlan.has_value());
  EXPECT_EQ(v6.besteffort[0].frame_size(), 1514u);
  EXPECT_EQ(tcp_payload_len(v6.besteffort[0]), 1440u);
}

TEST(ScenarioParser, RejectsBadBestEffort) {
  const std::string untagged =
      "host a 10.0.0.1 02:00:00:00:00:0a\nhost b 10.0.0.2 02:00:00:00:00:0b\nhost c 10.0.0.3 02:00:00:00:00:0c\n"
      "path a 1us p1 1us p2 1us b\nqp q a:0x11 b:0x22\n";
  const std::string flow = "besteffort p2 20gbps at=40us for=150us dir=a->b";
  test::expect_errors({
      {kBase + flow + " sched=strict\n", ""},
      {kBase + flow + " sched=ets:1\n", ""},
      {kBase + flow + " sched=ets:99\n", ""},
      {kBase + flow + " sched=fifo\n", "sched= is strict or ets:<pct>, not 'fifo'"},
      {kBase + flow + " sched=ets\n", "sched= is strict or ets:<pct>"},
      {kBase + flow + " sched=ets:0\n", "1-99 percent, not '0'"},
      {kBase + flow + " sched=ets:100\n", "1-99 percent, not '100'"},
      {kBase + flow + " sched=ets:x\n", "1-99 percent"},
      {kBase + flow + "\n", "needs sched=strict or sched=ets:<pct>"},
      {kBase + "besteffort p2 20 at=0us for=1us dir=a->b sched=strict\n", "needs a unit"},
      {kBase + "besteffort p2 20gbps for=1us dir=a->b sched=strict\n", "needs at=<time> and for=<duration>"},
      {kBase + "besteffort p2 20gbps at=0us for=0us dir=a->b sched=strict\n", "for= must be above 0"},
      {kBase + "besteffort p2 20gbps at=0us for=1us sched=strict\n", "needs dir=<host>-><host>"},
      {kBase + "besteffort p2 20gbps at=0us for=1us dir=a->b sched=strict bogus=1\n", "has no option 'bogus'"},
      // f = rate / link rate above 1; at the link rate it is allowed.
      {kBase + "besteffort p2 101gbps at=0us for=1us dir=a->b sched=strict\n",
       "besteffort at 101 Gb/s is above the 100 Gb/s link of point 'p2'"},
      {kBase + "besteffort p2 100gbps at=0us for=1us dir=a->b sched=strict\n", ""},
      {kBase + "besteffort p2 20gbps at=0us for=1us dir=a->b sched=strict\nspeed p2 10\n", "above the 10 Gb/s link"},
      // Its packets are recorded at the point before its own, on the way it goes.
      {kBase + "besteffort p1 20gbps at=0us for=1us dir=a->b sched=strict\n", "no capture point before 'p1'"},
      {kBase + "besteffort p2 20gbps at=0us for=1us dir=b->a sched=strict\n", "no capture point before 'p2'"},
      {kBase + "besteffort p1 20gbps at=0us for=1us dir=b->a sched=strict\n", ""},
      {untagged + "besteffort p2 20gbps at=0us for=1us dir=a->c sched=strict\n", "no path joins a to c"},
      {untagged + "besteffort p2 20gbps at=0us for=1us dir=a->b sched=strict pcp=3\n", "pcp= needs tagged RoCE"},
      {untagged + "besteffort p2 20gbps at=0us for=1us dir=a->b sched=strict size=59\n", "below the 60 bytes"},
      {untagged + "besteffort p2 20gbps at=0us for=1us dir=a->b sched=strict size=60\n", ""},
      {untagged + "besteffort p2 20gbps at=0us for=1us dir=a->b sched=strict size=9217\n", "above 9216"},
      {kBase + "besteffort p2 20gbps at=0us for=1us dir=a->b sched=strict dscp=64\n", "above 63"},
      // One model per queue: no queue burst or other flow at that point and direction meanwhile.
      {kBase + "queue p2 10us at=100us for=10us dir=a->b\n" + flow + " sched=strict\n",
       "the besteffort flow on line 6 and the queue burst on line 5 share the queue feeding 'p2'"},
      {kBase + "queue p2 10us at=100us for=10us\n" + flow + " sched=strict\n", "one model per queue"},
      // This burst drains until 45us.
      {kBase + "queue p2 25us at=10us for=10us\n" + flow + " sched=strict\n", "one model per queue"},
      {kBase + "queue p2 10us at=10us for=10us\n" + flow + " sched=strict\nqueue p2 5us at=400us for=1us\n", ""},
      {kBase + "queue p2 10us at=100us for=10us dir=b->a\n" + flow + " sched=strict\n", ""},
      {kBase + "queue p1 10us at=100us for=10us\n" + flow + " sched=strict\n", ""},
      {kBase + flow + " sched=strict\n" + flow + " sched=ets:50\n", "one flow per queue"},
      {kBase + flow + " sched=strict\nbesteffort p2 1gbps at=200us for=1us dir=a->b sched=strict\n", ""},
  });
}

TEST(ScenarioParser, DefaultStartPsnsComeFromTheSeed) {
  const std::string t = "host a 10.0.0.1 02:00:00:00:00:0a\nhost b 10.0.0.2 02:00:00:00:00:0b\n"
                        "path a 1us p 1us b\nqp q a:2 b:3\n";
  Scenario x = parse_scenario("seed 1\n" + t), y = parse_scenario("seed 1\n" + t), z = parse_scenario("seed 2\n" + t);
  EXPECT_EQ(x.qps[0].side[0].start_psn, y.qps[0].side[0].start_psn);
  EXPECT_NE(x.qps[0].side[0].start_psn, z.qps[0].side[0].start_psn);
  EXPECT_LE(x.qps[0].side[1].start_psn, 0xFFFFFFu);
}

TEST(ScenarioParser, ErrorsNameTheLine) {
  std::string e = error_of(kBase + "\n# comment\nbogus 1\n");
  EXPECT_NE(e.find("t.scn:7:"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown directive 'bogus'"), std::string::npos) << e;
}

TEST(ScenarioParser, RejectsBadInput) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"host a 10.0.0.1 02:00:00:00:00\n", "bad MAC"},
      {"host a 10.0.0.300 02:00:00:00:00:0a\n", "bad IPv4"},
      {kBase + "host a 10.0.0.3 02:00:00:00:00:0c\n", "already defined as a host"},
      {kBase + "switch p1 02:00:00:01:00:00\n", "already defined as a capture point"},
      {kBase + "switch s1 02:00:00:01:00\n", "bad MAC"},
      {kBase + "switch s1 02:00:00:00:00:0a\n", "has the MAC of host 'a'"},
      {kBase + "switch s1 02:53:57:00:00:01\n", "share a MAC"},  // p1+p2's
      {"host a 10.0.0.1 02:00:00:00:00:0a\nhost b 10.0.0.2 02:00:00:00:00:0b\nswitch s 02:00:00:01:00:00\n"
       "path a 1us s 1us p 1us s 1us b\n", "passes a switch twice"},
      {kBase + "host c 10.0.0.3 02:00:00:00:00:0c\npath c 1us p2 1us b\n", "taps the link p1+p2 - b"},
      {kBase + "host c 10.0.0.3 02:00:00:00:00:0c\npath c 1us p1 1us p2 1us b\n", "taps the link a - p1+p2"},
      {kBase + "host c 10.0.0.3 02:00:00:00:00:0c\npath c 1us p1+p2 1us p2 1us b\n", ""},  // through its switch
      {kBase + "host c 10.0.0.3 02:00:00:00:00:0c\npath b 1us p2 1us p1 1us c\n", "taps the link"},
      {kBase + "path a 1us x 1us\n", "usage: path"},
      {kBase + "host c 10.0.0.3 02:00:00:00:00:0c\npath a 1us b 1us c\n", "is a host"},
      {kBase + "qp r a:1 b:2\n", "special QPs"},
      {kBase + "qp r a:5 a:6\n", "two different hosts"},
      {kBase + "qp r a:5 c:6\n", "unknown host 'c'"},
      {kBase + "qp r a:5 b:6 mtu=1500\n", "mtu must be"},
      {kBase + "qp r a:5 b:6 pcp=3\n", "pcp needs a vlan"},
      {kBase + "qp r a:5 b:6 ver=v3\n", "ver must be"},
      {kBase + "qp r a:5 b:6 colour=red\n", "no option 'colour'"},
      {kBase + "qp r a:5 b:6 mtu=1024 mtu=2048\n", "given twice"},
      {kBase + "qp r a:0x11 b:0x23\n", "reuses a QPN"},
      {kBase + "qp r a:0x11 b:0x23 after=q\n", ""},  // reuse once q is done: fine
      {kBase + "qp r a:5 b:6 ver=v2-ipv6\n", "needs ip6="},
      {kBase + "send q c 10\n", "unknown host"},
      {kBase + "send q a lots\n", "message size"},
      {kBase + "read q a 10 imm\n", "no immediate"},
      {kBase + "send q a 10 id=x repeat=2\n", "cannot be used with repeat"},
      {kBase + "send q a 10 id=x\nsend q a 10 id=x\n", "used twice"},
      {kBase + "send q a 10 at=5\n", "not a duration"},
      {kBase + "read q a 10 id=r\nrnr r\n", "only a SEND"},
      {kBase + "send q a 10 id=s\nnak s fatal\n", "nak code"},
      {kBase + "send q a 10 id=s\nrnr s\nnak s inv-req\n", "already has a forced reply"},
      {kBase + "rnr nobody\n", "unknown message id"},
      {kBase + "drop q a psn=1\n", "where="},
      {kBase + "drop q a where=receiver\n", "psn="},
      {kBase + "drop q a psn=5-2 where=receiver\n", "backwards"},
      {kBase + "drop q a psn=1 where=before:nowhere\n", "unknown point"},
      {kBase + "drop q a psn=1 where=between:p2,p1\n", "must follow"},
      {kBase + "drop q a psn=1 where=receiver times=0\n", "at least 1"},
      {kBase + "drop q a psn=1 where=receiver kind=cnp\n", "kind must be"},
      {kBase + "corrupt q a psn=1 where=receiver kind=ack\n", "kind must be"},
      {kBase + "qp n a:5 b:6 ecn=0\necn_mark n a psn=1 at=p1\n", "Not-ECT"},
      {kBase + "qp v a:5 b:6 ver=v1 ecn=2\n", "RoCEv1 has no ECN"},
      {kBase + "mirror p1\n", "dup="},
      {kBase + "capture p1 dir=a-b\n", "dir must be"},
      {kBase + "snaplen 20\n", "below 64"},
      {kBase + "timeout 0ns\n", "above 0"},
      {kBase + "cm q\ncm q\n", "already has a cm"},
      {kBase + "speed p1 0\n", "bad speed"},
      {kBase + "speed p1 25\nspeed p1 100\n", "already has a speed"},
      {kBase + "speed nowhere 25\n", "unknown point"},
      {kBase + "cnp_pcp 8\n", "above 7"},
      {kBase + "qp r a:5 b:6 cnp_pcp=6\n", "cnp_pcp needs a vlan"},
      {kBase + "qp r a:5 b:6 cnp_dscp=64\n", "above 63"},
      {kBase + "marking q a dscp=0\n", "at="},
      {kBase + "marking q a at=1us\n", "changes nothing"},
      {kBase + "marking q c dscp=0 at=1us\n", "unknown host"},
      {kBase + "qp r a:5 b:6\nmarking r a pcp=3 at=1us\n", "tagged qp"},
      {kBase + "qp v a:5 b:6 ver=v1\nmarking v a ecn=2 at=1us\n", "RoCEv1 has no ECN"},
      {kBase + "rewrite p1 dir=a->b\n", "changes nothing"},
      {kBase + "mtu p2 1500 icmp=10.0.0\n", "bad IPv4 address"},
      {kBase + "mtu p2 1500 icmp6=fd00::g\n", "bad IPv6 address"},
      {kBase + "mtu nowhere 1500\n", "unknown point"},
      {kBase + "rewrite p1 dscp=26:64\n", "above 63"},
      {kBase + "rewrite p1 pcp=x:1\n", "not a number"},
      {kBase + "rewrite p1 dscp=0 dir=a-b\n", "dir must be"},
      {kBase + "pfc p2 prio=3 quanta=1 at=0ns\n", "from="},
      {kBase + "pfc p2 from=b quanta=1 at=0ns\n", "prio="},
      {kBase + "pfc p2 from=b prio=3 at=0ns\n", "quanta="},
      {kBase + "pfc p2 from=b prio=3 quanta=1\n", "at="},
      {kBase + "pfc p2 from=b prio=8 quanta=1 at=0ns\n", "above 7"},
      {kBase + "pfc p2 from=b prio=3,3 quanta=1 at=0ns\n", "given twice"},
      {kBase + "pfc p2 from=b prio=3 quanta=0x10000 at=0ns\n", "above 65535"},
      {kBase + "pfc p2 from=b prio=3,4 quanta=1,2,3 at=0ns\n", "one per prio"},
      {kBase + "pfc p2 from=b prio=3 quanta=1 at=0ns repeat=2\n", "need every"},
      {kBase + "pfc p2 from=b prio=3 quanta=1 at=0ns every=1us\n", "needs repeat"},
      {kBase + "pfc p2 from=b prio=3 quanta=1 at=2us every=1us until=1us\n", "until is before at"},
      {kBase + "pfc p2 from=b prio=3 quanta=1 at=0ns repeat=2 until=1us every=1us\n", "not both"},
      {kBase + "pfc p2 from=b prio=3 quanta=1 at=0ns every=0ns repeat=2\n", "every must be above 0"},
      {kBase + "pfc p2 from=b prio=3 quanta=1 at=0ns truncate=34\n", "truncate=N"},
      {kBase + "pfc p2 from=b prio=3 quanta=1 at=0ns truncate=17\n", "truncate=N"},
      {kBase + "pfc p2 from=b prio=3 quanta=1 at=0ns reserved=0\n", "leave it out"},
      {kBase + "pfc p2 from=b prio=3 quanta=1 at=0ns dst=01:80:c2:00:00:01\n", "non-standard"},
      {kBase + "pfc p2 from=b prio=3 quanta=1 at=0ns dst=01:80\n", "bad MAC"},
      {kBase + "pfc p2 hurricane from=b prio=3 quanta=1 at=0ns\n", "only 'storm'"},
      {kBase + "xon p2 from=b prio=3 quanta=1 at=0ns\n", "no option 'quanta'"},
      {kBase + "pfc p2 from=c prio=3 quanta=1 at=0ns\n", "unknown host or switch 'c'"},
      {kBase + "pfc p2 from=p1 prio=3 quanta=1 at=0ns\n", "is a capture point"},
      {kBase + "pfc p2 from=sw:02:00:00:00:01:01 prio=3 quanta=1 at=0ns\n", "sends with its switch's MAC"},
      {kBase + "pfc p2 from=b side=b prio=3 quanta=1 at=0ns\n", "no option 'side'"},
      {kBase + "pfc p2 from=a prio=3 quanta=1 at=0ns\n", "not at an end of the link point 'p2' taps (p1+p2 - b)"},
      {kBase + "pfc p1 from=p1+p2 prio=3 quanta=1 at=0ns\n", ""},
      {kBase + "pfc p2 from=p1+p2 prio=3 quanta=1 at=0ns\n", ""},
      {kBase + "pfc p1 from=b prio=3 quanta=1 at=0ns\n", "not at an end of the link point 'p1'"},
      {kBase + "pfc p1 from=a prio=3 quanta=1 at=0ns port=x\n", "no option 'port'"},
      {kBase + "lldp p1 from=a at=0ns\n", "says nothing"},
      {kBase + "lldp p1 from=a pfc=3 app=26 at=0ns\n", "DSCP:PRIO"},
      {kBase + "lldp p1 from=a app=64:3 at=0ns\n", "above 63"},
      {kBase + "lldp p1 from=a app=26:8 at=0ns\n", "above 7"},
      {kBase + "lldp p1 from=a pfc=3 willing=2 at=0ns\n", "above 1"},
      {kBase + "lldp p1 from=a pfc=3 cap=16 at=0ns\n", "above 15"},
      {kBase + "lldp p1 from=a pfc=3\n", "at="},
      {kBase + "lldp p2 from=a pfc=3 at=0ns\n", "not at an end of the link"},
      {kBase + "lldp p2 from=p1+p2 port=eth7 pfc=3 at=0ns\n", ""},
      {"host a 10.0.0.1 02:00:00:00:00:0a\n", "no capture points"},
      {"host a 10.0.0.1 02:00:00:00:00:0a\nhost b 10.0.0.2 02:00:00:00:00:0b\nhost c 10.0.0.3 02:00:00:00:00:0c\n"
       "path a 1us p 1us b\nqp q a:5 c:6\n",
       "no path joins"},
  };
  test::expect_errors(cases);
}

// reorder, out-of-order placement, selective repeat, IP ID options, SPAN rewrite.
TEST(ScenarioParser, NicBehaviours) {
  const std::string hosts =
      "host a 10.0.0.1 02:00:00:00:00:0a\n"
      "host b 10.0.0.2 02:00:00:00:00:0b\n";
  const std::string two = hosts + "path a 1us p1 1us p2 1us b\n";
  const std::string qp = "qp q a:0x11 b:0x22 psn=0,0\n";
  test::expect_errors({
      {two + qp + "reorder q a psn=3 by=100ns where=between:p1,p2\n", ""},
      {two + qp + "reorder q a psn=3 where=between:p1,p2\n", "needs by="},
      {two + qp + "reorder q a psn=3 by=0ns where=between:p1,p2\n", "above 0"},
      {two + qp + "reorder q a psn=3 by=1us where=between:p1,p2 kind=ack\n", "kind must be one of req,readresp"},
      {two + qp + "drop q a psn=3 where=before:p1 kind=readresp\n", ""},
      {two + "qp q a:0x11 b:0x22 ooo=b ooo_nak=off recovery=selective:a\n", ""},
      {two + "qp q a:0x11 b:0x22 recovery=selective:a\n", "needs ooo=b"},
      {two + "qp q a:0x11 b:0x22 ooo_nak=2us\n", "ooo_nak needs ooo="},
      {two + "qp q a:0x11 b:0x22 ooo=c\n", "unknown host 'c'"},
      {two + "qp q a:0x11 b:0x22 recovery=gbn\n", "selective:<host>"},
      {"host a 10.0.0.1 02:00:00:00:00:0a ipid=zero resend_ipid=same\nhost b 10.0.0.2 02:00:00:00:00:0b\n"
       "path a 1us p1 1us b\n",
       ""},
      {two + qp + "atomic q a fetchadd add=3 at=1us repeat=2 every=1us\n", ""},
      {two + qp + "atomic q a cmpswap compare=1 swap=2 id=x\n", ""},
      {two + qp + "atomic q a swap\n", "'fetchadd' or 'cmpswap'"},
      {two + qp + "atomic q a fetchadd compare=1\n", "has no option 'compare'"},
      {two + qp + "atomic q a cmpswap add=1\n", "has no option 'add'"},
      {two + qp + "atomic q a fetchadd 8\n", "usage: atomic"},
      {two + qp + "atomic q a fetchadd id=x\nrnr x\n", "only a SEND"},
      {"host a 10.0.0.1 02:00:00:00:00:0a ipid=random\n", "ipid must be inc"},
      {"host a 10.0.0.1 02:00:00:00:00:0a resend_ipid=old\n", "resend_ipid must be new"},
      {hosts + "switch s 02:53:00:00:00:01\npath a 1us p1 1us s 1us b\nmirror p1 dup=1us rewrite=on\n", ""},
      {two + "mirror p1 dup=1us rewrite=on\n", ""},  // a - p1 - the implicit switch p1+p2
      {hosts + "path a 1us p1 1us b\nmirror p1 dup=1us rewrite=on\n", "between a host and a switch"},
      {hosts + "path a 1us p1 1us b\nmirror p1 dup=1us rewrite=yes\n", "rewrite must be on or off"},
  });
}

}  // namespace
}  // namespace roceshark::gen
