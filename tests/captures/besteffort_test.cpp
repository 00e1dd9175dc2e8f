// SPDX-License-Identifier: GPL-2.0-or-later
// Best-effort cross traffic: its TCP frames, byte for byte, and the
// scheduler it shares with RoCE at its point.
#include "captures/gen/besteffort.h"

#include <gtest/gtest.h>

#include "tests/captures/test_util.h"

namespace roceshark::gen {
namespace {

using test::hex;

TcpFrameFields fields(bool v6) {
  TcpFrameFields f;
  f.v6 = v6;
  f.src4 = *parse_ipv4("10.0.0.1"), f.dst4 = *parse_ipv4("10.0.0.2");
  f.src6 = *parse_ipv6("fd00::a"), f.dst6 = *parse_ipv6("fd00::b");
  f.dport = kBestEffortDport;
  f.ack = kBestEffortAck;
  return f;
}

// Byte for byte what scapy builds: Ether / IP(tos=40, id=0x4000,
// flags='DF', ttl=64) / TCP(sport=40000, dport=5201, seq=1000000, ack=1,
// flags='PA', window=512) / 6 zero bytes, checksums included.
TEST(BestEffortFrame, TcpOverIpv4MatchesScapy) {
  TcpFrameFields f = fields(false);
  f.src = *parse_mac("02:00:00:00:00:0a");
  f.dst = *parse_mac("02:53:57:00:00:01");
  f.dscp = 10;
  f.ip_id = kBestEffortIpId;
  f.sport = kBestEffortSport;
  f.seq = kBestEffortSeq;
  f.size = 60;
  const BuiltFrame b = build_tcp_frame(f);
  EXPECT_EQ(hex(b.bytes),
            "02535700000102000000000a08004528002e400040004006e69f0a0000010a0000029c401451000f42400000000150180200a6e2"
            "0000000000000000");
  EXPECT_EQ(b.at.l3, 14);
  EXPECT_EQ(b.at.payload, 54);
  EXPECT_EQ(b.at.payload_len, 6u);
  EXPECT_EQ(b.at.l3_end, 60u);
}

// Ether / Dot1Q(vlan=20, prio=1) / IPv6(tc=32, hlim=63, fl=0) /
// TCP(sport=40001, seq=1001460, ...) / 2 zero bytes.
TEST(BestEffortFrame, TaggedTcpOverIpv6MatchesScapy) {
  TcpFrameFields f = fields(true);
  f.src = *parse_mac("02:53:57:00:00:01");
  f.dst = *parse_mac("02:00:00:00:00:0b");
  f.vlan = 20;
  f.pcp = 1;
  f.dscp = 8;
  f.ttl = 63;
  f.sport = kBestEffortSport + 1;
  f.seq = kBestEffortSeq + 1460;
  f.size = 80;
  const BuiltFrame b = build_tcp_frame(f);
  EXPECT_EQ(hex(b.bytes),
            "02000000000b0253570000018100201486dd620000000016063ffd00000000000000000000000000000afd000000000000000000"
            "00000000000b9c411451000f47f40000000150180200bb1d00000000");
  EXPECT_EQ(b.at.l3, 18);
}

BestEffort flow(BestEffort::Sched sched, double gbps, uint8_t pct = 0) {
  BestEffort d;
  d.sched = sched;
  d.gbps = gbps;
  d.ets_pct = pct;
  return d;
}

TEST(BestEffortQueue, Shares) {
  using S = BestEffort::Sched;
  EXPECT_NEAR(BestEffortQueue(flow(S::strict, 20), 25, 0, 0, 1).roce_share(), 0.2, 1e-12);
  EXPECT_NEAR(BestEffortQueue(flow(S::strict, 25), 25, 0, 0, 1).roce_share(), 0.02, 1e-12);  // the whole link
  EXPECT_NEAR(BestEffortQueue(flow(S::ets, 5, 80), 25, 0, 0, 1).roce_share(), 0.8, 1e-12);
  EXPECT_NEAR(BestEffortQueue(flow(S::ets, 5, 80), 25, 0, 0, 1).be_share(), 0.2, 1e-12);
  // Best-effort below its own share leaves RoCE the rest, above its ETS weight.
  EXPECT_NEAR(BestEffortQueue(flow(S::ets, 2.5, 20), 25, 0, 0, 1).roce_share(), 0.9, 1e-12);
  EXPECT_NEAR(BestEffortQueue(flow(S::ets, 20, 20), 25, 0, 0, 1).roce_share(), 0.2, 1e-12);
}

// RoCE at a 20% share from 1000 ns until the flow's last packet, which
// arrives at 2000 ns and takes 100 ns, has left (2100 ns); at line rate after.
TEST(BestEffortQueue, StrictRoceQueuesAtItsShareThenDrainsAtLineRate) {
  BestEffortQueue q(flow(BestEffort::Sched::strict, 80), 100, 1000, 2000, 100);
  EXPECT_EQ(q.end(), 2100);
  EXPECT_EQ(q.roce(900, 100), 0);  // before the flow reaches the queue: nothing to do with it
  EXPECT_FALSE(q.met_roce());
  EXPECT_EQ(q.roce(1000, 100), 0);  // the first one finds the class idle
  EXPECT_TRUE(q.met_roce());
  EXPECT_EQ(q.roce(1100, 100), 400);  // 100 ns of service at 20%: 500 ns after the one before it
  EXPECT_EQ(q.roce(1200, 100), 800);
  // Served from 2000: 20 ns of service at 20% by 2100, when the flow's
  // last packet has left, the other 80 ns at line rate: it leaves at 2180.
  EXPECT_EQ(q.roce(1300, 100), 880);
  EXPECT_EQ(q.roce(1400, 100), 880);  // what is still queued drains back to back at line rate
  // A `queue` burst's wait is the least it waits; served from 1900: 40 ns by 2100, 60 after.
  BestEffortQueue s(flow(BestEffort::Sched::strict, 80), 100, 1000, 2000, 100);
  EXPECT_EQ(s.roce(1900, 100), 0);
  EXPECT_EQ(s.roce(1950, 100, 50), 210);
  EXPECT_EQ(s.roce(3000, 100), 0);  // long after: the queue is empty
  // Best-effort never waits under strict priority: it leaves its serialization after arriving.
  EXPECT_EQ(s.besteffort(2000, 100), 2100);
}

TEST(BestEffortQueue, EtsBestEffortWaitsOnlyWhileRoceIsBacklogged) {
  // 40% against ets:80: RoCE gets 80%, best-effort 20% while RoCE is backlogged.
  BestEffortQueue q(flow(BestEffort::Sched::ets, 40, 80), 100, 0, 10'000, 100);
  EXPECT_EQ(q.besteffort(0, 100), 100);
  EXPECT_EQ(q.besteffort(250, 100), 350);  // RoCE idle: line rate, it does not queue
  EXPECT_EQ(q.roce(300, 100), 0);
  EXPECT_EQ(q.roce(310, 100), 115);  // 125 ns after the one before: 80%
  EXPECT_EQ(q.besteffort(400, 100), 850);  // RoCE backlogged until 425: 500 ns after the one before it
  EXPECT_EQ(q.end(), 10'100);
}

}  // namespace
}  // namespace roceshark::gen
