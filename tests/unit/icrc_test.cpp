// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/decode/icrc.h"

#include <gtest/gtest.h>

#include <string_view>
#include <vector>

namespace roceshark {
namespace {

std::vector<uint8_t> hex(std::string_view s) {
  std::vector<uint8_t> out;
  for (size_t i = 0; i + 1 < s.size(); i += 2) out.push_back(static_cast<uint8_t>(std::stoi(std::string(s.substr(i, 2)), nullptr, 16)));
  return out;
}

// Built with scapy.contrib.roce: IP(tos=0x68, ttl=63)/UDP/BTH(RDMA WRITE ONLY,
// dqpn=0x12, psn=0xfffffe, ackreq, fecn)/32 bytes. scapy computed the ICRC.
constexpr std::string_view kScapyV4 =
    "4568004c000100003f1167360a0000010a000002c00012b7003827b80a00ffff8000001280fffffe"
    "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f4848acb1";

uint32_t trailer(const std::vector<uint8_t>& p) {
  return read_icrc(std::span<const uint8_t, 4>(p.data() + p.size() - 4, 4));
}

TEST(Icrc, MatchesScapyOnIpv4) {
  auto p = hex(kScapyV4);
  auto c = compute_icrc(std::span(p).first(p.size() - 4), L3Kind::ipv4);
  ASSERT_TRUE(c);
  EXPECT_EQ(*c, trailer(p));
}

TEST(Icrc, VariantFieldsDoNotChangeIt) {
  auto p = hex(kScapyV4);
  p[1] = 0x03;   // DSCP/ECN rewritten mid-path
  p[8] = 12;     // TTL
  p[10] ^= 0xAA; // checksum
  p[26] = 0x12;  // UDP checksum
  p[32] = 0x40;  // BECN
  auto c = compute_icrc(std::span(p).first(p.size() - 4), L3Kind::ipv4);
  ASSERT_TRUE(c);
  EXPECT_EQ(*c, trailer(p));
}

TEST(Icrc, PayloadCorruptionChangesIt) {
  auto p = hex(kScapyV4);
  p[50] ^= 0x01;
  auto c = compute_icrc(std::span(p).first(p.size() - 4), L3Kind::ipv4);
  ASSERT_TRUE(c);
  EXPECT_NE(*c, trailer(p));
}

TEST(Icrc, TruncatedHeadersGiveNothing) {
  auto p = hex(kScapyV4);
  EXPECT_FALSE(compute_icrc(std::span(p).first(30), L3Kind::ipv4));
  EXPECT_FALSE(compute_icrc(std::span(p).first(0), L3Kind::ipv6));
  EXPECT_FALSE(compute_icrc(std::span(p).first(39), L3Kind::grh));
}

TEST(Icrc, RejectsWrongLayer) {
  auto p = hex(kScapyV4);
  EXPECT_FALSE(compute_icrc(std::span(p).first(p.size() - 4), L3Kind::ipv6));
  p[9] = 6;  // TCP
  EXPECT_FALSE(compute_icrc(std::span(p).first(p.size() - 4), L3Kind::ipv4));
}

}  // namespace
}  // namespace roceshark
