// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/icmp_frame.h"

#include <gtest/gtest.h>

#include <numeric>
#include <vector>

#include "tests/captures/test_util.h"

namespace roceshark::gen {
namespace {

using test::hex;

// A router's message about a packet whose first 48 bytes are 0, 1, ... 47.
IcmpFields message(bool v6, const std::vector<uint8_t>& packet) {
  IcmpFields f;
  f.src = *parse_mac("02:53:57:00:00:01");
  f.dst = *parse_mac("02:00:00:00:00:0a");
  f.v6 = v6;
  f.router4 = *parse_ipv4("10.0.0.254"), f.to4 = *parse_ipv4("10.0.0.1");
  f.router6 = *parse_ipv6("fd00::fe"), f.to6 = *parse_ipv6("fd00::1");
  f.ttl = v6 ? 64 : 63;
  f.mtu = 1500;
  f.packet = packet;
  return f;
}

std::vector<uint8_t> counting(size_t n) {
  std::vector<uint8_t> b(n);
  std::iota(b.begin(), b.end(), uint8_t{0});
  return b;
}

// Byte for byte what scapy builds: Ether / IP(tos=0xC0, ttl=63) /
// ICMP(type=3, code=4, nexthopmtu=1500) / the quote, checksums included.
TEST(IcmpFrame, FragmentationNeededMatchesScapy) {
  const auto packet = counting(48);
  EXPECT_EQ(hex(build_icmp_too_big(message(false, packet))),
            "02000000000a025357000001080045c0004c000000003f0165f30a0000fe0a0000010304ccdd000005dc"
            "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f");
}

// Ether / IPv6(hlim=64) / ICMPv6PacketTooBig(mtu=1500) / the quote.
TEST(IcmpFrame, PacketTooBigMatchesScapy) {
  const auto packet = counting(48);
  EXPECT_EQ(hex(build_icmp_too_big(message(true, packet))),
            "02000000000a02535700000186dd6000000000383a40fd0000000000000000000000000000fefd00000000000000"
            "00000000000000010200d26e000005dc"
            "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f202122232425262728292a2b2c2d2e2f");
}

// RFC 1812: the ICMPv4 packet stays within 576 bytes; RFC 4443: ICMPv6 within 1280.
TEST(IcmpFrame, QuotesAsMuchAsFits) {
  const auto packet = counting(4000);
  EXPECT_EQ(build_icmp_too_big(message(false, packet)).size(), 14u + 576);
  EXPECT_EQ(build_icmp_too_big(message(true, packet)).size(), 14u + 1280);
  EXPECT_EQ(build_icmp_too_big(message(false, counting(4))).size(), 60u);  // padded to the minimum
}

}  // namespace
}  // namespace roceshark::gen
