// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/pfc_frame.h"

#include <gtest/gtest.h>

#include "tests/captures/test_util.h"

#include <string>
#include <string_view>

namespace roceshark::gen {
namespace {

using test::hex;

PfcFields xoff3() {
  PfcFields f;
  f.src = *parse_mac("02:00:00:00:00:0a");
  f.enable = 1 << 3;
  f.quanta[3] = 0xFFFF;
  return f;
}

// Written out by hand from 802.1Qbb / 802.3 annex 31D; Wireshark 4.0 decodes
// it as CBFC Pause, vector 0x0008, C3 = 65535.
TEST(PfcFrame, ByteLayout) {
  const std::vector<uint8_t> f = build_pfc(xoff3());
  ASSERT_EQ(f.size(), 60u);  // padded to the minimum, no FCS
  EXPECT_EQ(hex(f),
            "0180c2000001" "02000000000a" "8808" "0101" "0008"
            "0000" "0000" "0000" "ffff" "0000" "0000" "0000" "0000"
            + std::string(2 * (60 - 34), '0'));
}

TEST(PfcFrame, ClassesNotEnabledCarryZero) {
  PfcFields p = xoff3();
  p.quanta = {1, 2, 3, 4, 5, 6, 7, 8};
  p.enable = 1 << 0 | 1 << 7;
  const std::vector<uint8_t> f = build_pfc(p);
  EXPECT_EQ(hex(f).substr(32, 4 + 32), "0081" "0001" "0000" "0000" "0000" "0000" "0000" "0000" "0008");
}

TEST(PfcFrame, BadInputVariants) {
  PfcFields p = xoff3();
  p.reserved = 0x01;
  EXPECT_EQ(hex(build_pfc(p)).substr(32, 4), "0108");  // a reserved bit in the upper byte
  p = xoff3();
  p.truncate = 30;
  const std::vector<uint8_t> runt = build_pfc(p);
  EXPECT_EQ(runt.size(), 30u);  // six of the eight pause times
  EXPECT_EQ(hex(runt), hex(build_pfc(xoff3())).substr(0, 60));
  p = xoff3();
  p.dst = *parse_mac("ff:ff:ff:ff:ff:ff");
  EXPECT_EQ(hex(build_pfc(p)).substr(0, 12), "ffffffffffff");
}

}  // namespace
}  // namespace roceshark::gen
