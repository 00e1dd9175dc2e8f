// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/decode/lldp.h"

#include <gtest/gtest.h>

#include <vector>

namespace roceshark::qos {
namespace {

void tlv(std::vector<uint8_t>& out, uint8_t type, std::vector<uint8_t> info) {
  out.push_back(static_cast<uint8_t>(type << 1 | (info.size() >> 8)));
  out.push_back(static_cast<uint8_t>(info.size()));
  out.insert(out.end(), info.begin(), info.end());
}

std::vector<uint8_t> pdu(uint8_t pfc, std::vector<std::pair<uint16_t, uint8_t>> app) {
  std::vector<uint8_t> p;
  tlv(p, 1, {4, 0x02, 0, 0, 0, 0, 0x0b});  // chassis ID
  tlv(p, 2, {3, 0x02, 0, 0, 0, 0, 0x0b});  // port ID
  tlv(p, 3, {0, 120});                      // TTL
  tlv(p, 127, {0x00, 0x80, 0xC2, 0x0B, 0x08, pfc});
  std::vector<uint8_t> a = {0x00, 0x80, 0xC2, 0x0C, 0x00};
  for (auto [proto, prio] : app) {
    a.push_back(static_cast<uint8_t>(prio << 5 | 5));
    a.push_back(static_cast<uint8_t>(proto >> 8));
    a.push_back(static_cast<uint8_t>(proto));
  }
  tlv(p, 127, a);
  tlv(p, 0, {});
  return p;
}

TEST(Lldp, ReadsPfcAndDscpAppEntries) {
  const auto p = pdu(0x08, {{26, 3}, {48, 6}});
  const auto a = parse_lldp_dcbx(p);
  ASSERT_TRUE(a);
  EXPECT_TRUE(a->has_pfc);
  EXPECT_EQ(a->pfc_enabled, 0x08);
  EXPECT_EQ(a->app_dscp, (std::vector<std::pair<uint8_t, uint8_t>>{{26, 3}, {48, 6}}));
}

TEST(Lldp, SkipsOtherSelectorsAndBadDscps) {
  auto p = pdu(0x00, {{26, 3}, {200, 1}});
  // make the first entry selector 2 (TCP port) instead of DSCP
  for (size_t i = 0; i + 4 < p.size(); ++i)
    if (p[i] == 0x00 && p[i + 1] == 0x80 && p[i + 2] == 0xC2 && p[i + 3] == 0x0C) p[i + 5] = 3 << 5 | 2;
  const auto a = parse_lldp_dcbx(p);
  ASSERT_TRUE(a);
  EXPECT_TRUE(a->app_dscp.empty());
}

TEST(Lldp, NoDcbxIsNothing) {
  std::vector<uint8_t> p;
  tlv(p, 1, {4, 1, 2, 3, 4, 5, 6});
  tlv(p, 0, {});
  EXPECT_FALSE(parse_lldp_dcbx(p));
}

TEST(Lldp, ReadsThe8023MaximumFrameSize) {
  std::vector<uint8_t> p;
  tlv(p, 1, {4, 1, 2, 3, 4, 5, 6});
  tlv(p, 127, {0x00, 0x12, 0x0F, 0x04, 0x05, 0xF2});  // 1522
  tlv(p, 0, {});
  const auto a = parse_lldp_dcbx(p);
  ASSERT_TRUE(a);  // an announcement even without DCBX
  EXPECT_EQ(a->max_frame_size, 1522);
  EXPECT_FALSE(a->has_pfc);
}

TEST(Lldp, IgnoresOther8023SubtypesAndAZeroSize) {
  std::vector<uint8_t> p;
  tlv(p, 127, {0x00, 0x12, 0x0F, 0x01, 0x03, 0x6C, 0x00, 0x00, 0x1E});  // MAC/PHY
  tlv(p, 127, {0x00, 0x12, 0x0F, 0x04, 0x00, 0x00});                    // size 0
  tlv(p, 127, {0x00, 0x12, 0x0F, 0x04, 0x05});                          // cut short
  tlv(p, 127, {0x00, 0x80, 0xC2, 0x04, 0x05, 0xF2});                    // 802.1, not 802.3
  tlv(p, 0, {});
  EXPECT_FALSE(parse_lldp_dcbx(p));
}

TEST(Lldp, ReadsEtsConfigurationAndRecommendation) {
  std::vector<uint8_t> p;
  // willing 1, max TCs 8; priority 3 -> TC 3, 6 -> TC 6; TC0 50%, TC3 50%; TC6 strict
  tlv(p, 127, {0x00, 0x80, 0xC2, 0x09, 0x88, 0x00, 0x03, 0x00, 0x60, 50, 0, 0, 50, 0, 0, 0, 0,
               2, 2, 2, 2, 2, 2, 0, 2});
  tlv(p, 127, {0x00, 0x80, 0xC2, 0x0A, 0x00, 0x00, 0x03, 0x00, 0x00, 60, 0, 0, 40, 0, 0, 0, 0,
               2, 2, 2, 2, 2, 2, 2, 2});
  tlv(p, 0, {});
  const auto a = parse_lldp_dcbx(p);
  ASSERT_TRUE(a && a->ets && a->ets_recommended);
  EXPECT_EQ(a->ets->tc, (std::array<uint8_t, 8>{0, 0, 0, 3, 0, 0, 6, 0}));
  EXPECT_EQ(a->ets->bw[3], 50);
  EXPECT_EQ(a->ets->tsa[6], kTsaStrict);
  EXPECT_EQ(a->ets_recommended->bw[0], 60);
  EXPECT_EQ(a->ets_recommended->tc[6], 0);
}

TEST(Lldp, ShortEtsTlvIsSkipped) {
  std::vector<uint8_t> p;
  tlv(p, 127, {0x00, 0x80, 0xC2, 0x09, 0x88, 0x00, 0x03, 0x00, 0x60, 50, 0, 0, 50});  // cut in its tables
  tlv(p, 0, {});
  EXPECT_FALSE(parse_lldp_dcbx(p));
}

TEST(Lldp, TruncatedPduKeepsWhatWasRead) {
  auto p = pdu(0x08, {{26, 3}});
  p.resize(p.size() - 8);  // cut into the APP TLV
  const auto a = parse_lldp_dcbx(p);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->pfc_enabled, 0x08);
  EXPECT_TRUE(a->app_dscp.empty());
  EXPECT_FALSE(parse_lldp_dcbx(std::span(p).first(3)));
}

}  // namespace
}  // namespace roceshark::qos
