// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/decode/frame_decoder.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <string_view>
#include <vector>

#include "epan-ext/common/points.h"
#include "tests/unit/decode_fixtures.h"

namespace roceshark::decode {
namespace {

using Bytes = std::vector<uint8_t>;
using test::kAckIpv6, test::kCmpSwap, test::kCmReq, test::kDns, test::kErspan2, test::kErspan3, test::kLldp,
    test::kPause, test::kPfc, test::kQinQ, test::kRocev1, test::kWriteOnlyVlan, test::kIcmpFragNeeded,
    test::kIcmpShortQuote, test::kIcmpNotRoce, test::kIcmpv6TooBig, test::kIcmpv6Echo;

Bytes hex(std::string_view s) {
  Bytes b;
  for (size_t i = 0; i + 1 < s.size(); i += 2) b.push_back(static_cast<uint8_t>(std::stoi(std::string(s.substr(i, 2)), nullptr, 16)));
  return b;
}

// The frame cut to `snap` bytes, its wire length the whole frame's.
Decoded run(const Bytes& f, size_t snap = SIZE_MAX, bool icrc = true) {
  FrameIn in;
  in.bytes = {f.data(), std::min(snap, f.size())};
  in.wire_len = static_cast<uint32_t>(f.size());
  in.frame = 7, in.point = 3, in.ts_ns = 1000, in.check_icrc = icrc;
  return decode_frame(in);
}

void set16(Bytes& f, size_t at, uint16_t v) { f[at] = static_cast<uint8_t>(v >> 8), f[at + 1] = static_cast<uint8_t>(v); }

const Mac kA = {2, 0, 0, 0, 0, 0x0a}, kB = {2, 0, 0, 0, 0, 0x0b}, kPfcDst = {0x01, 0x80, 0xC2, 0, 0, 1};

Address ip4(uint8_t last) { return Address::from(Bytes{10, 0, 0, last}); }

TEST(Decode, RoceV2Ipv4WithVlanAndReth) {
  const Decoded d = run(hex(kWriteOnlyVlan));
  ASSERT_EQ(d.kind, Kind::roce) << d.reason_text();
  const PacketInfo& p = d.packet;
  EXPECT_FALSE(p.truncated);
  EXPECT_EQ(p.encap, Encap::rocev2_ipv4);
  EXPECT_EQ(p.src, ip4(1));
  EXPECT_EQ(p.dst, ip4(2));
  EXPECT_EQ(p.opcode, 0x0A);
  EXPECT_EQ(p.dest_qp, 0x162u);
  EXPECT_EQ(p.psn, 5u);
  EXPECT_TRUE(p.ack_req);
  EXPECT_FALSE(p.fecn || p.becn);
  EXPECT_TRUE(p.has_reth);
  EXPECT_EQ(p.dma_len, 64u);
  EXPECT_FALSE(p.has_aeth);
  EXPECT_EQ(p.payload_len, 64u);
  EXPECT_EQ(p.frame_len, 142u);
  EXPECT_EQ(p.dscp, 26);
  EXPECT_EQ(p.ecn, 2);
  EXPECT_EQ(p.ttl, 64);
  EXPECT_TRUE(p.has_ip_id);
  EXPECT_EQ(p.ip_id, 0x1234);
  EXPECT_EQ(p.pcp, 3);
  EXPECT_EQ(p.vlan_id, 100);
  EXPECT_EQ(p.src_mac, kA);
  EXPECT_EQ(p.dst_mac, kB);
  EXPECT_EQ(p.frame, 7u);
  EXPECT_EQ(p.point, 3u);
  EXPECT_EQ(p.ts_ns, 1000u);
  EXPECT_EQ(p.icrc, IcrcState::good);  // scapy's ICRC
  EXPECT_EQ(p.icrc_value, p.icrc_expected);
  EXPECT_EQ(d.outer_vlan, 100);
  EXPECT_FALSE(d.erspan_session);
  EXPECT_EQ(d.reason, Reason::none);
}

TEST(Decode, IcrcPreferenceOffLeavesItUnchecked) {
  EXPECT_EQ(run(hex(kWriteOnlyVlan), SIZE_MAX, false).packet.icrc, IcrcState::unchecked);
  Bytes f = hex(kWriteOnlyVlan);
  f[80] ^= 1;  // a payload bit
  EXPECT_EQ(run(f).packet.icrc, IcrcState::bad);
}

TEST(Decode, RoceV2Ipv6Ack) {
  const Decoded d = run(hex(kAckIpv6), SIZE_MAX, false);
  ASSERT_EQ(d.kind, Kind::roce) << d.reason_text();
  const PacketInfo& p = d.packet;
  EXPECT_EQ(p.encap, Encap::rocev2_ipv6);
  EXPECT_EQ(p.src.len, 16);
  EXPECT_EQ(p.src.bytes[0], 0xfd);
  EXPECT_EQ(p.src.bytes[15], 2);
  EXPECT_EQ(p.opcode, 0x11);
  EXPECT_TRUE(p.has_aeth);
  EXPECT_EQ(p.syndrome, 0x1F);
  EXPECT_EQ(p.msn, 3u);
  EXPECT_EQ(p.psn, 7u);
  EXPECT_EQ(p.payload_len, 0u);
  EXPECT_EQ(p.dscp, 26);
  EXPECT_EQ(p.ecn, 1);
  EXPECT_EQ(p.ttl, 63);
  EXPECT_FALSE(p.has_ip_id);
  EXPECT_EQ(p.pcp, -1);
  EXPECT_EQ(p.icrc, IcrcState::unchecked);
  EXPECT_FALSE(d.outer_vlan);
}

TEST(Decode, QinQTakesTheTagNearestThePacket) {
  const Decoded d = run(hex(kQinQ));
  ASSERT_EQ(d.kind, Kind::roce) << d.reason_text();
  EXPECT_EQ(d.packet.pcp, 5);
  EXPECT_EQ(d.packet.vlan_id, 20);
  EXPECT_EQ(d.outer_vlan, 10);  // 802.1ad outer tag: roce.point_key:vlan
  EXPECT_EQ(d.packet.payload_len, 16u);
  EXPECT_EQ(d.packet.icrc, IcrcState::good);
}

TEST(Decode, ErspanIIReportsTheSessionAndTheInnerPacket) {
  const Decoded d = run(hex(kErspan2));
  ASSERT_EQ(d.kind, Kind::roce) << d.reason_text();
  EXPECT_EQ(d.erspan_session, 100);
  EXPECT_FALSE(d.outer_vlan);
  const PacketInfo& p = d.packet;
  EXPECT_EQ(p.src, ip4(1));  // the inner packet, not the mirror's 192.168.0.x
  EXPECT_EQ(p.src_mac, kA);
  EXPECT_EQ(p.pcp, 3);
  EXPECT_EQ(p.dma_len, 64u);
  EXPECT_EQ(p.frame_len, 192u);  // the mirrored frame on the wire
  EXPECT_EQ(p.icrc, IcrcState::good);
}

TEST(Decode, ErspanIII) {
  const Decoded d = run(hex(kErspan3));
  ASSERT_EQ(d.kind, Kind::roce) << d.reason_text();
  EXPECT_EQ(d.erspan_session, 200);
  EXPECT_EQ(d.packet.pcp, -1);
  EXPECT_EQ(d.packet.psn, 5u);
  EXPECT_EQ(d.packet.icrc, IcrcState::good);
}

TEST(Decode, ErspanIIIWithPlatformSubheader) {
  Bytes f = hex(kErspan3);
  // GRE at 34 (8 bytes with the sequence), ERSPAN III at 42: set O and add 8 bytes of subheader.
  f[42 + 11] |= 1;
  f.insert(f.begin() + 54, 8, 0xEE);
  set16(f, 16, static_cast<uint16_t>(f.size() - 14));
  const Decoded d = run(f);
  ASSERT_EQ(d.kind, Kind::roce) << d.reason_text();
  EXPECT_EQ(d.packet.src, ip4(1));
}

TEST(Decode, ErspanTypeIHasNoHeader) {
  Bytes f = hex(kErspan2);
  f.erase(f.begin() + 38, f.begin() + 50);  // sequence number and ERSPAN II header
  set16(f, 34, 0x0000);                      // GRE: no sequence number
  set16(f, 16, static_cast<uint16_t>(f.size() - 14));
  const Decoded d = run(f);
  ASSERT_EQ(d.kind, Kind::roce) << d.reason_text();
  EXPECT_FALSE(d.erspan_session);
  EXPECT_EQ(d.packet.src, ip4(1));
}

TEST(Decode, RoceV1) {
  const Decoded d = run(hex(kRocev1), SIZE_MAX, false);
  ASSERT_EQ(d.kind, Kind::roce) << d.reason_text();
  const PacketInfo& p = d.packet;
  EXPECT_EQ(p.encap, Encap::rocev1);
  EXPECT_EQ(p.src.len, 16);
  EXPECT_EQ(p.src.bytes[15], 0x0a);
  EXPECT_EQ(p.opcode, 0x0C);
  EXPECT_TRUE(p.has_reth);
  EXPECT_EQ(p.dma_len, 4096u);
  EXPECT_EQ(p.dscp, 26);
  EXPECT_EQ(p.ecn, 2);
  EXPECT_EQ(p.ttl, 64);
  EXPECT_EQ(p.payload_len, 0u);
}

TEST(Decode, CmReq) {
  const Decoded d = run(hex(kCmReq));
  ASSERT_EQ(d.kind, Kind::roce) << d.reason_text();
  const CmMessage& cm = d.packet.cm;
  EXPECT_EQ(cm.kind, CmMessage::Kind::req);
  EXPECT_EQ(cm.local_comm_id, 0xC0DE0001u);
  EXPECT_EQ(cm.local_qpn, 0x161u);
  EXPECT_EQ(cm.start_psn, 0xABCu);
  EXPECT_EQ(cm.path_mtu, 4096u);  // data byte 50 = 0x57: MTU code 5 | RDC 0 | RNR retry 7
  EXPECT_EQ(d.packet.icrc, IcrcState::good);
}

TEST(Decode, CmReqPathMtuCodes) {
  const size_t mtu_byte = 62 + 24 + 50;  // MAD at 62, its data after the 24-byte header
  for (auto [code, bytes] : {std::pair{1u, 256u}, {3u, 1024u}, {5u, 4096u}, {0u, 0u}, {6u, 0u}, {15u, 0u}}) {
    Bytes f = hex(kCmReq);
    f[mtu_byte] = static_cast<uint8_t>(code << 4 | 7);
    EXPECT_EQ(run(f, SIZE_MAX, false).packet.cm.path_mtu, bytes) << "code " << code;
  }
  // Cut before that byte: the rest of the REQ is read, the MTU is not known.
  const CmMessage cut = run(hex(kCmReq), mtu_byte, false).packet.cm;
  EXPECT_EQ(cut.kind, CmMessage::Kind::req);
  EXPECT_EQ(cut.start_psn, 0xABCu);
  EXPECT_EQ(cut.path_mtu, 0u);
}

TEST(Decode, CmRep) {
  Bytes f = hex(kCmReq);
  const size_t data = 62 + 24;  // MAD at 62, its data after the 24-byte header
  set16(f, 62 + 16, 0x0013);
  f[data + 7] = 0x09;                                      // remote comm id 9
  f[data + 12] = 0, f[data + 13] = 0x01, f[data + 14] = 0x62;  // QPN 0x162
  f[data + 20] = 0, f[data + 21] = 0, f[data + 22] = 0x77;     // start PSN 0x77
  const CmMessage cm = run(f).packet.cm;
  EXPECT_EQ(cm.kind, CmMessage::Kind::rep);
  EXPECT_EQ(cm.remote_comm_id, 9u);
  EXPECT_EQ(cm.local_qpn, 0x162u);
  EXPECT_EQ(cm.start_psn, 0x77u);
  EXPECT_EQ(cm.path_mtu, 0u);  // a REP carries none
}

TEST(Decode, CmOnlyOnQp1) {
  Bytes f = hex(kCmReq);
  f[42 + 7] = 2;  // BTH dest QP 2
  EXPECT_EQ(run(f).packet.cm.kind, CmMessage::Kind::none);
}

TEST(Decode, AtomicEth) {
  const Decoded d = run(hex(kCmpSwap));
  ASSERT_EQ(d.kind, Kind::roce) << d.reason_text();
  const PacketInfo& p = d.packet;
  EXPECT_TRUE(p.has_atomic_eth);
  EXPECT_EQ(p.atomic_va, 0x3000u);
  EXPECT_EQ(p.atomic_rkey, 0x44u);
  EXPECT_EQ(p.atomic_swap_add, 0x55u);
  EXPECT_EQ(p.atomic_compare, 0x66u);
  EXPECT_EQ(p.payload_len, 0u);
}

TEST(Decode, Pfc) {
  const Decoded d = run(hex(kPfc));
  ASSERT_EQ(d.kind, Kind::pause) << d.reason_text();
  const pfc::PauseFrame& f = d.pause;
  EXPECT_EQ(f.enable, 0x18);
  EXPECT_EQ(f.quanta[3], 0xFFFF);
  EXPECT_EQ(f.quanta[4], 0x10);
  EXPECT_EQ(f.quanta[0], 0);
  EXPECT_EQ(f.captured, 8);
  EXPECT_EQ(f.src, kB);
  EXPECT_EQ(f.dst, kPfcDst);
  EXPECT_EQ(f.wire_len, 60u);
  EXPECT_EQ(f.frame, 7u);
  EXPECT_EQ(f.point, 3u);
  EXPECT_EQ(f.ts_ns, 1000u);
}

TEST(Decode, PfcCutKeepsTheCapturedClasses) {
  // MAC control at 14: opcode, vector, then class 0 at 18: 5 bytes of times = 2 classes.
  const Decoded d = run(hex(kPfc), 23);
  ASSERT_EQ(d.kind, Kind::pause);
  EXPECT_EQ(d.pause.captured, 2);
  EXPECT_EQ(run(hex(kPfc), 17).where, std::string_view("MAC control"));
}

TEST(Decode, PauseIsAPfcFrameEnablingAllEight) {
  const Decoded d = run(hex(kPause));
  ASSERT_EQ(d.kind, Kind::pause);
  EXPECT_EQ(d.pause.enable, 0xFF);
  for (uint16_t q : d.pause.quanta) EXPECT_EQ(q, 0x100);
}

TEST(Decode, OtherMacControlIsNotOurs) {
  Bytes f = hex(kPause);
  set16(f, 14, 0x0002);  // GATE
  const Decoded d = run(f);
  EXPECT_EQ(d.kind, Kind::not_ours);
  EXPECT_EQ(d.reason, Reason::not_roce);
}

TEST(Decode, LldpWithDcbx) {
  const Decoded d = run(hex(kLldp));
  ASSERT_EQ(d.kind, Kind::dcbx) << d.reason_text();
  EXPECT_TRUE(d.dcbx.has_pfc);
  EXPECT_EQ(d.dcbx.pfc_enabled, 0x08);
  ASSERT_EQ(d.dcbx.app_dscp.size(), 1u);
  EXPECT_EQ(d.dcbx.app_dscp[0], std::make_pair(uint8_t{26}, uint8_t{3}));
  EXPECT_EQ(d.dcbx.mac, kB);
  EXPECT_EQ(d.dcbx.point, 3u);
}

TEST(Decode, LldpWithoutDcbxIsNotOurs) {
  const Decoded d = run(hex(kLldp), 14 + 22);  // chassis, port, TTL only
  EXPECT_EQ(d.kind, Kind::not_ours);
  EXPECT_EQ(d.reason_text(), "not ours: not RoCE, PFC or DCBX (LLDP without DCBX)");
}

TEST(Decode, UdpToAnotherPortIsCrossTraffic) {
  const Decoded d = run(hex(kDns));
  EXPECT_EQ(d.kind, Kind::cross);
  EXPECT_EQ(d.reason, Reason::none);
  EXPECT_EQ(d.cross.proto, 17);
  EXPECT_EQ(d.cross.sport, 49152);
  EXPECT_EQ(d.cross.dport, 53);
  EXPECT_EQ(d.cross.seq, 0u);  // the payload's first bytes (zeros)
  EXPECT_EQ(d.cross.point, 3u);
}

// Ethernet | 802.1Q PCP 0 VLAN 5 | IPv4 DSCP 10 ID 0x1234 | TCP 40000 -> 5201 seq 0x01020304, 100 payload bytes.
Bytes tcp_frame() {
  Bytes f(14 + 4 + 20 + 20 + 100);
  std::copy(kB.begin(), kB.end(), f.begin());
  std::copy(kA.begin(), kA.end(), f.begin() + 6);
  set16(f, 12, 0x8100), set16(f, 14, 5), set16(f, 16, 0x0800);
  uint8_t* ip = &f[18];
  ip[0] = 0x45, ip[1] = 10 << 2;
  set16(f, 20, 140), set16(f, 22, 0x1234);
  ip[8] = 64, ip[9] = 6;
  ip[12] = 10, ip[15] = 9, ip[16] = 10, ip[19] = 2;
  set16(f, 38, 40000), set16(f, 40, 5201);
  f[42] = 1, f[43] = 2, f[44] = 3, f[45] = 4;
  f[50] = 0x50;
  return f;
}

TEST(Decode, TcpIsCrossTraffic) {
  const Decoded d = run(tcp_frame());
  ASSERT_EQ(d.kind, Kind::cross) << d.reason_text();
  const CrossPacket& c = d.cross;
  EXPECT_EQ(c.src, ip4(9));
  EXPECT_EQ(c.dst, ip4(2));
  EXPECT_EQ(c.proto, 6);
  EXPECT_EQ(c.sport, 40000);
  EXPECT_EQ(c.dport, 5201);
  EXPECT_EQ(c.ip_id, 0x1234);
  EXPECT_EQ(c.seq, 0x01020304u);
  EXPECT_EQ(c.ip_len, 140u);
  EXPECT_EQ(c.frame_len, 158u);
  EXPECT_EQ(c.dscp, 10);
  EXPECT_EQ(c.pcp, 0);
  EXPECT_EQ(c.frame, 7u);
  EXPECT_EQ(c.ts_ns, 1000u);
  // Keyed by its only VLAN tag (RSPAN), the tag is the mirror's, as for RoCE.
  Decoded keyed = run(tcp_frame());
  keyed.set_point(points::kVlan | 5);
  EXPECT_EQ(keyed.cross.pcp, -1);
  EXPECT_EQ(keyed.cross.frame_len, 154u);
  // Cut before the sequence number: nothing to match it by.
  const Decoded cut = run(tcp_frame(), 14 + 4 + 20 + 6);
  EXPECT_EQ(cut.kind, Kind::not_ours);
  EXPECT_EQ(cut.reason_text(), "not ours: not RoCE, PFC or DCBX (IP protocol)");
}

Address ip6(uint8_t last) {
  Bytes b(16);
  b[0] = 0xfd, b[15] = last;
  return Address::from(b);
}

TEST(Decode, IcmpFragmentationNeededQuotingRoce) {
  const Decoded d = run(hex(kIcmpFragNeeded));
  ASSERT_EQ(d.kind, Kind::icmp) << d.reason_text();
  const icmp::TooBig& m = d.icmp;
  EXPECT_FALSE(m.v6);
  EXPECT_EQ(m.reporter, ip4(254));
  EXPECT_EQ(m.mtu, 1500u);
  EXPECT_EQ(m.src, ip4(1));
  EXPECT_EQ(m.dst, ip4(2));
  EXPECT_EQ(m.quoted_len, 20u + 8 + 12 + 16 + 4096 + 4);  // the original's total length, not the quote's
  EXPECT_TRUE(m.has_bth);
  EXPECT_EQ(m.dest_qp, 0x000162u);
  EXPECT_EQ(m.psn, 0x00ABCDu);
  EXPECT_EQ(m.frame, 7u);
  EXPECT_EQ(m.point, 3u);
  EXPECT_EQ(m.ts_ns, 1000u);
}

TEST(Decode, IcmpQuoteShortOfTheBthStillNamesTheHosts) {
  const Decoded d = run(hex(kIcmpShortQuote));
  ASSERT_EQ(d.kind, Kind::icmp) << d.reason_text();
  EXPECT_EQ(d.icmp.mtu, 4000u);
  EXPECT_EQ(d.icmp.src, ip4(1));
  EXPECT_EQ(d.icmp.dst, ip4(2));
  EXPECT_FALSE(d.icmp.has_bth);
}

TEST(Decode, Icmpv6PacketTooBig) {
  const Decoded d = run(hex(kIcmpv6TooBig));
  ASSERT_EQ(d.kind, Kind::icmp) << d.reason_text();
  const icmp::TooBig& m = d.icmp;
  EXPECT_TRUE(m.v6);
  EXPECT_EQ(m.reporter, ip6(0xfe));
  EXPECT_EQ(m.mtu, 1500u);
  EXPECT_EQ(m.src, ip6(1));
  EXPECT_EQ(m.dst, ip6(2));
  EXPECT_EQ(m.quoted_len, 40u + 8 + 12 + 16 + 4096 + 4);
  EXPECT_TRUE(m.has_bth);
  EXPECT_EQ(m.dest_qp, 0x000162u);
  EXPECT_EQ(m.psn, 0x00ABCDu);
}

TEST(Decode, IcmpNotAboutRoceIsNotOurs) {
  EXPECT_EQ(run(hex(kIcmpNotRoce)).reason_text(), "not ours: not RoCE, PFC or DCBX (ICMP quote not RoCE)");
  EXPECT_EQ(run(hex(kIcmpv6Echo)).reason_text(), "not ours: not RoCE, PFC or DCBX (ICMP type)");
  Bytes other = hex(kIcmpFragNeeded);
  other[14 + 20 + 1] = 1;  // code 1: host unreachable
  EXPECT_EQ(run(other).reason_text(), "not ours: not RoCE, PFC or DCBX (ICMP type)");
}

TEST(Decode, IcmpCutOrMalformedIsNotOursWithAReason) {
  const Bytes f = hex(kIcmpFragNeeded);
  const size_t icmp = 14 + 20;
  EXPECT_EQ(run(f, icmp + 4).reason_text(), "truncated at ICMP header");
  EXPECT_EQ(run(f, icmp + 8 + 10).reason_text(), "truncated at ICMP quoted IPv4 header");
  EXPECT_EQ(run(f, icmp + 8 + 20 + 2).reason_text(), "truncated at ICMP quoted UDP header");
  const Decoded cut = run(f, icmp + 8 + 20 + 8 + 6);  // the BTH's QP, not its PSN
  ASSERT_EQ(cut.kind, Kind::icmp);
  EXPECT_FALSE(cut.icmp.has_bth);
  Bytes bad = f;
  bad[icmp + 8] = 0x65;  // quoted version 6 in an ICMPv4 message
  EXPECT_EQ(run(bad).reason_text(), "malformed ICMP quoted IP version or header length");
  Bytes shorter = f;
  set16(shorter, 14 + 2, 20 + 4);  // the IP total length leaves 4 bytes of ICMP
  EXPECT_EQ(run(shorter).reason_text(), "malformed ICMP length");
  const Bytes v6 = hex(kIcmpv6TooBig);
  EXPECT_EQ(run(v6, 14 + 40 + 8 + 39).reason_text(), "truncated at ICMP quoted IPv6 header");
  for (size_t snap = 0; snap <= f.size(); ++snap) run(f, snap);  // never reads past the bytes (ASan, fuzzer)
  for (size_t snap = 0; snap <= v6.size(); ++snap) run(v6, snap);
}

TEST(Decode, IcmpIsKeyedToItsPoint) {
  Decoded d = run(hex(kIcmpFragNeeded));
  d.set_point(9);
  EXPECT_EQ(d.icmp.point, 9u);
}

TEST(Decode, OtherLinkTypesAreNotOurs) {
  const Bytes f = hex(kWriteOnlyVlan);
  FrameIn in;
  in.bytes = f;
  in.wire_len = static_cast<uint32_t>(f.size());
  in.link = LinkType::other;
  const Decoded d = decode_frame(in);
  EXPECT_EQ(d.kind, Kind::not_ours);
  EXPECT_EQ(d.reason, Reason::link_type);
  EXPECT_EQ(d.reason_text(), "not ours: link type is not Ethernet");
}

TEST(Decode, ErfEthernetRecordsAreEthernet) {
  for (int type : {2, 16, 19, 22}) {
    EXPECT_EQ(erf_link(static_cast<uint8_t>(type)), LinkType::ethernet) << type;
    EXPECT_EQ(erf_link(static_cast<uint8_t>(type | 0x80)), LinkType::ethernet) << "with extension headers, " << type;
  }
  for (int type : {0, 1, 3, 5, 10, 18, 21, 24})  // legacy, HDLC, ATM, multichannel, AAL, IPv4/IPv6...
    EXPECT_EQ(erf_link(static_cast<uint8_t>(type)), LinkType::other) << type;
}

TEST(Decode, IpFragmentIsNotOurs) {
  Bytes f = hex(kWriteOnlyVlan);
  set16(f, 18 + 6, 0x2000);  // more fragments
  EXPECT_EQ(run(f).where, std::string_view("IPv4 fragment"));
}

struct Cut {
  size_t snap;
  Kind kind;
  Reason reason;
  const char* where;
};

// Every snaplen, layer by layer: where the decoder says it was cut.
void expect_cuts(const Bytes& f, std::initializer_list<Cut> cuts) {
  auto next = cuts.begin();
  for (size_t snap = 0; snap <= f.size(); ++snap) {
    while (std::next(next) != cuts.end() && snap >= std::next(next)->snap) ++next;
    const Decoded d = run(f, snap);
    SCOPED_TRACE("snap " + std::to_string(snap) + ": " + d.reason_text());
    EXPECT_EQ(d.kind, next->kind);
    EXPECT_EQ(d.reason, next->reason);
    EXPECT_EQ(std::string_view(d.where), next->where);
    if (d.kind == Kind::roce) {
      EXPECT_EQ(d.packet.truncated, d.reason == Reason::truncated);
    }
  }
}

TEST(Decode, TruncatedAtEveryLayerOfRoceV2) {
  const Bytes f = hex(kWriteOnlyVlan);
  expect_cuts(f, {{0, Kind::not_ours, Reason::truncated, "Ethernet header"},
                  {14, Kind::not_ours, Reason::truncated, "VLAN tag"},
                  {18, Kind::not_ours, Reason::truncated, "IPv4 header"},
                  {38, Kind::not_ours, Reason::truncated, "UDP header"},
                  {46, Kind::roce, Reason::truncated, "BTH"},
                  {58, Kind::roce, Reason::none, ""}});
  // Past the BTH the packet is analysed; what was cut after it is said per header.
  EXPECT_FALSE(run(f, 73).packet.has_reth);
  EXPECT_TRUE(run(f, 74).packet.has_reth);
  EXPECT_EQ(run(f, 141).packet.icrc, IcrcState::not_captured);
  EXPECT_EQ(run(f, 141).packet.payload_len, 64u);  // from the IP length, not the capture
  EXPECT_EQ(run(f, 46).packet.frame, 7u);
  EXPECT_EQ(run(f, 46).packet.point, 3u);
}

TEST(Decode, TruncatedAethAndIpv6Header) {
  expect_cuts(hex(kAckIpv6), {{0, Kind::not_ours, Reason::truncated, "Ethernet header"},
                              {14, Kind::not_ours, Reason::truncated, "IPv6 header"},
                              {54, Kind::not_ours, Reason::truncated, "UDP header"},
                              {62, Kind::roce, Reason::truncated, "BTH"},
                              {74, Kind::roce, Reason::truncated, "AETH"},
                              {78, Kind::roce, Reason::none, ""}});
}

TEST(Decode, TruncatedInsideErspan) {
  expect_cuts(hex(kErspan2), {{0, Kind::not_ours, Reason::truncated, "Ethernet header"},
                              {14, Kind::not_ours, Reason::truncated, "IPv4 header"},
                              {34, Kind::not_ours, Reason::truncated, "GRE header"},
                              {42, Kind::not_ours, Reason::truncated, "ERSPAN header"},
                              {50, Kind::not_ours, Reason::truncated, "Ethernet header"},
                              {64, Kind::not_ours, Reason::truncated, "VLAN tag"},
                              {68, Kind::not_ours, Reason::truncated, "IPv4 header"},
                              {88, Kind::not_ours, Reason::truncated, "UDP header"},
                              {96, Kind::roce, Reason::truncated, "BTH"},
                              {108, Kind::roce, Reason::none, ""}});
}

TEST(Decode, TruncatedRoceV1IsRoceFromTheGrhOn) {
  expect_cuts(hex(kRocev1), {{0, Kind::not_ours, Reason::truncated, "Ethernet header"},
                             {14, Kind::roce, Reason::truncated, "GRH"},
                             {54, Kind::roce, Reason::truncated, "BTH"},
                             {66, Kind::roce, Reason::none, ""}});
}

TEST(Decode, LengthsThatDisagreeWithTheFrameAreMalformed) {
  const auto where = [](Bytes f) { return std::string(run(f).where) + "/" + run(f).reason_text(); };
  Bytes f = hex(kWriteOnlyVlan);
  set16(f, 18 + 2, 200);  // IPv4 total length past the frame
  EXPECT_EQ(where(f), "IPv4 total length/malformed IPv4 total length");
  f = hex(kWriteOnlyVlan);
  f[18] = 0x44;  // IHL 4
  EXPECT_EQ(where(f), "IPv4 header length/malformed IPv4 header length");
  f = hex(kWriteOnlyVlan);
  set16(f, 38 + 4, 100);  // UDP length short of the IP payload
  EXPECT_EQ(where(f), "UDP length/malformed UDP length");
  f = hex(kAckIpv6);
  set16(f, 14 + 4, 100);  // IPv6 payload length past the frame
  EXPECT_EQ(where(f), "IPv6 payload length/malformed IPv6 payload length");
  f = hex(kRocev1);
  set16(f, 14 + 4, 100);  // GRH payload length past the frame
  EXPECT_EQ(where(f), "GRH payload length/malformed GRH payload length");
  f = hex(kRocev1);
  set16(f, 14 + 4, 12);  // room for the BTH, none for the ICRC
  EXPECT_EQ(run(f).reason, Reason::malformed);
  f = hex(kErspan2);
  set16(f, 14 + 2, 60);  // the outer IP ends inside the inner frame's headers
  EXPECT_EQ(run(f).reason, Reason::malformed);
}

TEST(Decode, MalformedEvenWhenCut) {
  Bytes f = hex(kWriteOnlyVlan);
  set16(f, 18 + 2, 200);
  EXPECT_EQ(run(f, 60).reason, Reason::malformed);  // the length is wrong whatever the snaplen
}

TEST(Decode, HostileLengthsAtTheirMaximum) {
  Bytes f = hex(kErspan2);
  set16(f, 14 + 2, 0xFFFF);  // outer IPv4 total length
  set16(f, 68 + 2, 0xFFFF);  // inner IPv4 total length
  set16(f, 88 + 4, 0xFFFF);  // UDP length
  EXPECT_EQ(run(f).reason, Reason::malformed);
  // Lengths consistent with a 64 KiB frame of which 200 bytes were captured.
  f.resize(65535 + 14, 0);
  set16(f, 14 + 2, 0xFFFF);
  set16(f, 68 + 2, static_cast<uint16_t>(0xFFFF - 54));
  set16(f, 88 + 4, static_cast<uint16_t>(0xFFFF - 54 - 20));
  const Decoded d = run(f, 200);
  ASSERT_EQ(d.kind, Kind::roce) << d.reason_text();
  EXPECT_EQ(d.packet.icrc, IcrcState::not_captured);
  // A frame of all ones: tags until the end.
  EXPECT_EQ(run(Bytes(1500, 0xFF)).reason, Reason::not_roce);
  Bytes tags(12, 0);
  for (int i = 0; i < 400; ++i) tags.insert(tags.end(), {0x81, 0x00, 0x20, 0x01});
  EXPECT_EQ(run(tags).where, std::string_view("VLAN tag"));
}

TEST(Decode, NestedTunnelsAreBounded) {
  // ERSPAN II in ERSPAN II ... : the outer frame's headers repeated.
  const Bytes inner = hex(kWriteOnlyVlan);
  const Bytes outer = hex(kErspan2);
  Bytes f = inner;
  for (int i = 0; i < 6; ++i) {
    Bytes g(outer.begin(), outer.begin() + 50);
    g.insert(g.end(), f.begin(), f.end());
    set16(g, 16, static_cast<uint16_t>(g.size() - 14));
    f = g;
  }
  const Decoded d = run(f);
  EXPECT_EQ(d.reason, Reason::malformed);
  EXPECT_EQ(std::string_view(d.where), "tunnel nesting");
}

TEST(Decode, SetPointRekeysTheRecord) {
  Decoded d = run(hex(kErspan2));
  d.set_point(0x01000064);
  EXPECT_EQ(d.packet.point, 0x01000064u);
}

}  // namespace
}  // namespace roceshark::decode
