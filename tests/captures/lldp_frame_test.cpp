// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/lldp_frame.h"

#include <gtest/gtest.h>

#include "tests/captures/test_util.h"

#include <string>
#include <string_view>

namespace roceshark::gen {
namespace {

using test::hex;

LldpFields dcbx() {
  LldpFields f;
  f.src = *parse_mac("02:00:00:00:00:0a");
  f.port = "eth0";
  f.pfc_enable = 1 << 3;
  f.app = {{3, kAppSelectorDscp, 26}, {6, kAppSelectorDscp, 48}};
  return f;
}

// Built independently in Python from 802.1AB / 802.1Qaz and decoded by
// Wireshark 4.0: PFC on priority 3 (8 classes capable), APP 26 -> 3, 48 -> 6.
constexpr std::string_view kDcbx =
    "0180c200000e" "02000000000a" "88cc"
    "0207" "04" "02000000000a"          // Chassis ID, subtype MAC
    "0405" "05" "65746830"              // Port ID, interface name "eth0"
    "0602" "0078"                       // TTL 120 s
    "fe06" "0080c2" "0b" "08" "08"      // PFC Configuration: cap 8, enable {3}
    "fe0b" "0080c2" "0c" "00"           // Application Priority, reserved byte
    "65" "001a" "c5" "0030"             // 3|sel 5: 26, 6|sel 5: 48
    "0000"                              // End
    "000000";                           // pad to 60

TEST(LldpFrame, ByteLayout) {
  const std::vector<uint8_t> f = build_lldp(dcbx());
  EXPECT_EQ(f.size(), 60u);
  EXPECT_EQ(hex(f), kDcbx);
}

TEST(LldpFrame, FlagsAndOptionalTlvs) {
  LldpFields f = dcbx();
  f.willing = true;
  f.mbc = true;
  f.pfc_cap = 4;
  f.pfc_enable = 0;  // PFC disabled everywhere: the TLV is still sent
  f.app.clear();     // no Application Priority TLV
  const std::string h = hex(build_lldp(f));
  EXPECT_EQ(h.substr(2 * 34, 2 * 8), "fe060080c20bc400");
  EXPECT_EQ(h.substr(2 * 42, 4), "0000");  // End right after
  f.pfc_enable.reset();
  f.app = {{0, kAppSelectorDscp, 26}};
  EXPECT_EQ(hex(build_lldp(f)).substr(2 * 34, 2 * 10), "fe080080c20c0005001a");  // priority 0 for DSCP 26
}

TEST(LldpFrame, LongFramesAreNotPadded) {
  LldpFields f = dcbx();
  for (uint16_t d = 0; d < 10; ++d) f.app.push_back({1, kAppSelectorDscp, d});
  const std::vector<uint8_t> b = build_lldp(f);
  EXPECT_EQ(b.size(), 57u + 30u);
  EXPECT_EQ(hex(b).substr(2 * (b.size() - 2)), "0000");  // ends with the End TLV
}

}  // namespace
}  // namespace roceshark::gen
