// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/packet_builder.h"

#include <gtest/gtest.h>

#include "tests/captures/test_util.h"

#include <string>
#include <string_view>

#include "captures/gen/byte_writer.h"
#include "captures/gen/checksum.h"
#include "captures/gen/opcodes.h"
#include "epan-ext/decode/icrc.h"

namespace roceshark::gen {
namespace {

using test::hex;

LinkHeader link(bool vlan) {
  LinkHeader l;
  l.src = *parse_mac("02:00:00:00:00:0a");
  l.dst = *parse_mac("02:00:00:00:00:0b");
  if (vlan) l.vlan = 100, l.pcp = 3;
  return l;
}

NetHeader net_v4() {
  NetHeader n;
  n.src4 = *parse_ipv4("10.0.0.1");
  n.dst4 = *parse_ipv4("10.0.0.2");
  n.dscp = 26;
  n.ecn = 2;
  n.ip_id = 0x1234;
  n.udp_sport = 0xC123;
  return n;
}

// Built with scapy: Ether/Dot1Q(prio=3, vlan=100)/IP(tos=0x6a, id=0x1234,
// DF, ttl 64)/UDP(sport=0xc123, chksum=0)/BTH(SEND ONLY, pad 1, dqpn 0x12,
// ackreq, psn 100)/"ABCDEFG\0"; scapy computed the ICRC.
constexpr std::string_view kScapySendOnly =
    "02000000000b02000000000a810060640800456a003412344000401114190a0000010a000002c12312b7002000000410ffff00000012"
    "800000644142434445464700326af374";

// A request from a to b's QP 0x12 at PSN 100, with AckReq.
Bth request_bth(uint8_t opcode) {
  Bth b;
  b.opcode = opcode;
  b.dest_qp = 0x12;
  b.ackreq = true;
  b.psn = 100;
  return b;
}

TEST(PacketBuilder, MatchesScapyByteForByte) {
  Bth b = request_bth(op::kSendOnly);
  b.pad = 1;
  const std::vector<uint8_t> payload{'A', 'B', 'C', 'D', 'E', 'F', 'G'};
  BuiltFrame f = build_frame(link(true), net_v4(), b, {}, payload);
  EXPECT_EQ(hex(f.bytes), kScapySendOnly);
  EXPECT_EQ(f.at.l3, 18);
  EXPECT_EQ(f.at.payload, 18 + 20 + 8 + 12);
  EXPECT_EQ(f.at.payload_len, 7u);
  EXPECT_EQ(f.at.l3_end, f.bytes.size());
}

// scapy again: an untagged ACK (AETH 0x1f, MSN 5) at PSN 0xfffffe.
constexpr std::string_view kScapyAck =
    "02000000000a02000000000b0800456a0030000740004011264a0a0000020a000001c12312b7001c00001100ffff0000001100fffffe"
    "1f000005ed7ecbe1";

// A response from b to a's QP 0x11 (AETH: ACK, MSN 5): link(false) and
// net_v4() the other way, IP ID 7.
BuiltFrame ack_from_b(uint8_t opcode, uint32_t psn, Extensions e = {}) {
  Bth b;
  b.opcode = opcode;
  b.dest_qp = 0x11;
  b.psn = psn;
  e.aeth = Aeth{0x1F, 5};
  LinkHeader l = link(false);
  std::swap(l.src, l.dst);
  NetHeader n = net_v4();
  std::swap(n.src4, n.dst4);
  n.ip_id = 7;
  return build_frame(l, n, b, e, {});
}

TEST(PacketBuilder, AckMatchesScapy) {
  EXPECT_EQ(hex(ack_from_b(op::kAck, 0xFFFFFE).bytes), kScapyAck);  // 62 bytes: no Ethernet padding needed
}

// scapy: an untagged FetchAdd (AtomicETH VA 0x7e0000001000, R_Key 0x1234,
// add 5, compare 0) at PSN 100, and the ATOMIC ACKNOWLEDGE answering it
// (AETH 0x1f, MSN 5, original data 0x0123456789abcdef).
constexpr std::string_view kScapyFetchAdd =
    "02000000000b02000000000a0800456a004812344000401114050a0000010a000002c12312b7003400001400ffff000000128000006400"
    "007e0000001000000012340000000000000005000000000000000045d543bf";
constexpr std::string_view kScapyAtomicAck =
    "02000000000a02000000000b0800456a003800074000401126420a0000020a000001c12312b7002400001200ffff00000011000000641f"
    "0000050123456789abcdef0341d136";

TEST(PacketBuilder, AtomicAndAtomicAckMatchScapy) {
  Extensions e;
  e.atomic = AtomicEth{0x7E0000001000, 0x1234, 5, 0};
  EXPECT_EQ(hex(build_frame(link(false), net_v4(), request_bth(op::kFetchAdd), e, {}).bytes), kScapyFetchAdd);

  Extensions ack;
  ack.atomic_ack = 0x0123456789ABCDEF;
  EXPECT_EQ(hex(ack_from_b(op::kAtomicAck, 100, ack).bytes), kScapyAtomicAck);
}

TEST(PacketBuilder, ShortFramesArePaddedTo60AfterTheIcrc) {
  Bth b;
  b.opcode = op::kSendOnly;
  BuiltFrame f = build_frame(link(false), net_v4(), b, {}, {});
  ASSERT_EQ(f.bytes.size(), 60u);
  EXPECT_EQ(f.at.l3_end, 58u);  // IPv4 total length ends at the ICRC
  EXPECT_EQ(f.bytes[58], 0);
  EXPECT_EQ(f.bytes[59], 0);
  auto icrc = compute_icrc(std::span<const uint8_t>(f.bytes).subspan(14, 58 - 14 - 4), L3Kind::ipv4);
  EXPECT_EQ(icrc, read_icrc(std::span<const uint8_t, 4>(f.bytes.data() + 54, 4)));
}

TEST(PacketBuilder, EcnAndTtlEditsKeepChecksumAndIcrc) {
  Bth b;
  b.opcode = op::kWriteOnly;
  Extensions e;
  e.reth = Reth{0x7f0000001000, 0x1234, 16};
  const std::vector<uint8_t> payload(16, 0xAB);
  BuiltFrame f = build_frame(link(true), net_v4(), b, e, payload);
  std::span<uint8_t> bytes(f.bytes);
  set_ecn(bytes, f.at, Transport::v2_ipv4, 3);
  decrement_ttl(bytes, f.at, Transport::v2_ipv4);
  const uint8_t* ip = f.bytes.data() + f.at.l3;
  EXPECT_EQ(ip[1], (26 << 2) | 3);
  EXPECT_EQ(ip[8], 63);
  EXPECT_EQ(get_ecn(bytes, f.at, Transport::v2_ipv4), 3);
  EXPECT_EQ(fold_complement(ones_sum({ip, 20})), 0);  // header still verifies
  auto icrc = compute_icrc(std::span<const uint8_t>(f.bytes).subspan(f.at.l3, f.at.l3_end - f.at.l3 - 4), L3Kind::ipv4);
  EXPECT_EQ(icrc, read_icrc(std::span<const uint8_t, 4>(f.bytes.data() + f.at.l3_end - 4, 4)));
}

TEST(PacketBuilder, Ipv6CarriesTrafficClassAndAValidUdpChecksum) {
  NetHeader n = net_v4();
  n.transport = Transport::v2_ipv6;
  n.src6 = *parse_ipv6("fd00::1");
  n.dst6 = *parse_ipv6("fd00::2");
  n.flow_label = 0xABCDE;
  Bth b;
  b.opcode = op::kSendOnly;
  const std::vector<uint8_t> payload{1, 2, 3, 4};
  BuiltFrame f = build_frame(link(false), n, b, {}, payload);
  const uint8_t* ip = f.bytes.data() + 14;
  EXPECT_EQ(ip[0], 0x60 | ((26 << 2 | 2) >> 4));
  EXPECT_EQ(ip[1] >> 4, (26 << 2 | 2) & 0xF);
  EXPECT_EQ(ip[6], 17);
  EXPECT_EQ(get_u16(ip + 4), 8u + 12 + 4 + 4);  // payload length
  set_ecn(std::span<uint8_t>(f.bytes), f.at, Transport::v2_ipv6, 3);
  EXPECT_EQ(get_ecn(f.bytes, f.at, Transport::v2_ipv6), 3);
  const std::span<const uint8_t> udp(f.bytes.data() + 14 + 40, f.bytes.size() - 14 - 40);
  std::array<uint8_t, 16> s{}, d{};
  std::copy(ip + 8, ip + 24, s.begin());
  std::copy(ip + 24, ip + 40, d.begin());
  std::vector<uint8_t> zeroed(udp.begin(), udp.end());
  zeroed[6] = zeroed[7] = 0;
  EXPECT_EQ(udp6_checksum(s, d, zeroed), get_u16(udp.data() + 6));
}

TEST(PacketBuilder, RoceV1HasGrhAndNoUdp) {
  NetHeader n;
  n.transport = Transport::v1;
  n.src6 = link_local_gid(*parse_mac("02:00:00:00:00:0a"));
  n.dst6 = link_local_gid(*parse_mac("02:00:00:00:00:0b"));
  n.dscp = 26;
  Bth b;
  b.opcode = op::kAck;
  Extensions e;
  e.aeth = Aeth{0x1F, 1};
  BuiltFrame f = build_frame(link(true), n, b, e, {});
  EXPECT_EQ(get_u16(f.bytes.data() + 16), kEthertypeRoceV1);
  const uint8_t* grh = f.bytes.data() + 18;
  EXPECT_EQ(grh[6], 0x1B);                    // next header: BTH
  EXPECT_EQ(get_u16(grh + 4), 12u + 4 + 4);   // BTH + AETH + ICRC
  EXPECT_EQ(grh[8], 0xFE);                    // fe80::/64 GID
  EXPECT_EQ(grh[16], 0x00);                   // 02: the universal/local bit flipped
  decrement_ttl(std::span<uint8_t>(f.bytes), f.at, Transport::v1);
  EXPECT_EQ(grh[7], 64);                      // bridged: the GRH hop limit stays
}

// The ICRC a frame carries still matches its bytes.
bool icrc_valid(const BuiltFrame& f, L3Kind kind) {
  auto icrc = compute_icrc(std::span<const uint8_t>(f.bytes).subspan(f.at.l3, f.at.l3_end - f.at.l3 - 4), kind);
  return icrc == read_icrc(std::span<const uint8_t, 4>(f.bytes.data() + f.at.l3_end - 4, 4));
}

TEST(PacketBuilder, DscpRewriteKeepsEcnChecksumAndIcrc) {
  Bth b;
  b.opcode = op::kSendOnly;
  const std::vector<uint8_t> payload(8, 0x5A);
  BuiltFrame f = build_frame(link(false), net_v4(), b, {}, payload);
  std::span<uint8_t> bytes(f.bytes);
  set_ecn(bytes, f.at, Transport::v2_ipv4, 3);
  EXPECT_EQ(get_dscp(bytes, f.at, Transport::v2_ipv4), 26);
  set_dscp(bytes, f.at, Transport::v2_ipv4, 0);
  EXPECT_EQ(get_dscp(bytes, f.at, Transport::v2_ipv4), 0);
  EXPECT_EQ(get_ecn(bytes, f.at, Transport::v2_ipv4), 3);  // the ECN bits stay
  EXPECT_EQ(fold_complement(ones_sum({f.bytes.data() + f.at.l3, 20})), 0);
  EXPECT_TRUE(icrc_valid(f, L3Kind::ipv4));  // DSCP is a variant field: masked in the ICRC
  f.bytes[f.at.l3 + 9] ^= 1;                  // ... the protocol byte is not
  EXPECT_FALSE(icrc_valid(f, L3Kind::ipv4));
}

TEST(PacketBuilder, DscpInTheIpv6AndGrhTrafficClass) {
  for (Transport t : {Transport::v2_ipv6, Transport::v1}) {
    NetHeader n = net_v4();
    n.transport = t;
    n.src6 = *parse_ipv6("fd00::1");
    n.dst6 = *parse_ipv6("fd00::2");
    n.dscp = 26;
    n.ecn = t == Transport::v1 ? 0 : 2;
    Bth b;
    b.opcode = op::kAck;
    Extensions e;
    e.aeth = Aeth{0x1F, 1};
    BuiltFrame f = build_frame(link(false), n, b, e, {});
    std::span<uint8_t> bytes(f.bytes);
    EXPECT_EQ(get_dscp(bytes, f.at, t), 26);
    set_dscp(bytes, f.at, t, 0x2B);  // 101011: bits on both sides of the byte boundary
    EXPECT_EQ(get_dscp(bytes, f.at, t), 0x2B);
    const uint8_t tclass = static_cast<uint8_t>((f.bytes[f.at.l3] & 0x0F) << 4 | f.bytes[f.at.l3 + 1] >> 4);
    EXPECT_EQ(tclass, 0x2B << 2 | n.ecn);  // DSCP << 2 | ECN
    EXPECT_EQ(f.bytes[f.at.l3] >> 4, 6);   // version untouched
    EXPECT_TRUE(icrc_valid(f, t == Transport::v1 ? L3Kind::grh : L3Kind::ipv6));
    EXPECT_EQ(frame_priority(bytes, f.at, t), 0x2B >> 3);
  }
}

TEST(PacketBuilder, PcpAndPriority) {
  Bth b;
  b.opcode = op::kSendOnly;
  BuiltFrame tagged = build_frame(link(true), net_v4(), b, {}, {});
  std::span<uint8_t> t(tagged.bytes);
  EXPECT_EQ(get_pcp(t), 3);
  EXPECT_EQ(frame_priority(t, tagged.at, Transport::v2_ipv4), 3);
  set_pcp(t, 0);
  EXPECT_EQ(get_pcp(t), 0);
  EXPECT_EQ(get_u16(tagged.bytes.data() + 14) & 0x0FFF, 100u);  // the VLAN ID stays
  EXPECT_EQ(frame_priority(t, tagged.at, Transport::v2_ipv4), 0);  // PCP wins over DSCP 26
  EXPECT_TRUE(icrc_valid(tagged, L3Kind::ipv4));
  BuiltFrame untagged = build_frame(link(false), net_v4(), b, {}, {});
  std::span<uint8_t> u(untagged.bytes);
  EXPECT_FALSE(get_pcp(u));
  set_pcp(u, 5);  // nothing to set
  EXPECT_EQ(untagged.bytes, build_frame(link(false), net_v4(), b, {}, {}).bytes);
  EXPECT_EQ(frame_priority(u, untagged.at, Transport::v2_ipv4), 26 >> 3);  // DSCP 26 -> 3
  set_dscp(u, untagged.at, Transport::v2_ipv4, 48);
  EXPECT_EQ(frame_priority(u, untagged.at, Transport::v2_ipv4), 6);
}

TEST(PacketBuilder, UdpSourcePortFromTheQpPair) {
  // Linux: flow label from lqpn * rqpn folded to 20 bits, then into 0xC000-0xFFFF.
  const uint32_t fl = roce_flow_label(0x11, 0x22);
  EXPECT_EQ(fl, (0x11u * 0x22u) & 0xFFFFF);
  EXPECT_EQ(roce_flow_label(0x22, 0x11), fl);  // both directions hash alike
  EXPECT_EQ(roce_udp_sport(fl), 0xC000 | (fl & 0x3FFF));
  EXPECT_GE(roce_udp_sport(roce_flow_label(0xFFFFFF, 0xFFFFFE)), 0xC000);
}

}  // namespace
}  // namespace roceshark::gen
