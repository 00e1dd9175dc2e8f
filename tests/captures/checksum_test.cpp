// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/checksum.h"

#include <gtest/gtest.h>

#include <vector>

namespace roceshark::gen {
namespace {

TEST(Checksum, Rfc1071Example) {
  // RFC 1071 section 3: the sum of these words is ddf2, its complement 220d.
  const std::vector<uint8_t> b{0x00, 0x01, 0xf2, 0x03, 0xf4, 0xf5, 0xf6, 0xf7};
  EXPECT_EQ(ones_sum(b), 0xddf2u);
  EXPECT_EQ(fold_complement(ones_sum(b)), 0x220d);
}

TEST(Checksum, Ipv4HeaderIgnoresItsOwnField) {
  // A textbook header (192.168.0.1 -> 192.168.0.199, UDP, TTL 64) whose checksum is b861.
  std::vector<uint8_t> h{0x45, 0x00, 0x00, 0x73, 0x00, 0x00, 0x40, 0x00, 0x40, 0x11,
                         0x00, 0x00, 0xc0, 0xa8, 0x00, 0x01, 0xc0, 0xa8, 0x00, 0xc7};
  EXPECT_EQ(ipv4_header_checksum(h), 0xb861);
  h[10] = 0x12;  // whatever is in the field does not matter
  h[11] = 0x34;
  EXPECT_EQ(ipv4_header_checksum(h), 0xb861);
}

TEST(Checksum, OddLengthPadsWithZero) {
  const std::vector<uint8_t> odd{0x12, 0x34, 0x56};
  EXPECT_EQ(ones_sum(odd), 0x1234u + 0x5600u);
}

TEST(Checksum, Udp6VerifiesToAllOnes) {
  std::array<uint8_t, 16> src{}, dst{};
  src[0] = 0xfd, src[15] = 1;
  dst[0] = 0xfd, dst[15] = 2;
  std::vector<uint8_t> udp{0xc0, 0x00, 0x12, 0xb7, 0x00, 0x0d, 0x00, 0x00, 'h', 'e', 'l', 'l', 'o'};
  uint16_t c = udp6_checksum(src, dst, udp);
  udp[6] = static_cast<uint8_t>(c >> 8);
  udp[7] = static_cast<uint8_t>(c);
  // Receiver's view: the sum over pseudo-header and datagram is all ones.
  const std::array<uint8_t, 8> tail{0, 0, 0, 13, 0, 0, 0, 17};
  uint32_t s = ones_sum(udp, ones_sum(tail, ones_sum(dst, ones_sum(src))));
  EXPECT_EQ(fold_complement(s), 0);
  EXPECT_NE(c, 0);  // 0 would mean "no checksum", which IPv6 forbids
}

}  // namespace
}  // namespace roceshark::gen
