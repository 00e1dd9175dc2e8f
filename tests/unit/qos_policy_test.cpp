// SPDX-License-Identifier: GPL-2.0-or-later
#include <gtest/gtest.h>

#include "epan-ext/common/qos_policy.h"

namespace roceshark::qos {
namespace {

TEST(QosPolicy, DefaultsAreTheCommonLosslessSetup) {
  const Policy p = Policy::defaults();
  for (uint8_t d = 0; d < 64; ++d) EXPECT_EQ(p.dscp_priority[d], d >> 3) << int(d);
  EXPECT_EQ(p.dscp_priority[26], 3);
  EXPECT_EQ(p.dscp_priority[48], 6);
  EXPECT_EQ(p.lossless_mask, 1u << 3);
  EXPECT_EQ(p.cnp_dscp, 48);
  EXPECT_EQ(p.cnp_priority, 6);
  EXPECT_EQ(p.trust, Trust::dscp);
  EXPECT_TRUE(p.expect_ecn);
  EXPECT_EQ(p.mode, Mode::configured);
  EXPECT_TRUE(p.lossless(3));
  EXPECT_FALSE(p.lossless(0));
  EXPECT_FALSE(p.lossless(6));
  EXPECT_FALSE(p.lossless(8));  // out of range is never lossless
}

TEST(QosPolicy, PriorityUnderTrustDscpIgnoresPcp) {
  Policy p;
  p.dscp_priority[10] = 5;
  EXPECT_EQ(p.priority_of(26, -1), 3);
  EXPECT_EQ(p.priority_of(26, 0), 3);
  EXPECT_EQ(p.priority_of(10, 3), 5);
  EXPECT_EQ(p.priority_of(0, 7), 0);
}

TEST(QosPolicy, PriorityUnderTrustPcpIsThePcpOrThePortDefault) {
  Policy p;
  p.trust = Trust::pcp;
  EXPECT_EQ(p.priority_of(26, 3), 3);
  EXPECT_EQ(p.priority_of(26, 5), 5);
  EXPECT_EQ(p.priority_of(26, 0), 0);
  EXPECT_EQ(p.priority_of(26, -1), 0);  // untagged: port default
  EXPECT_EQ(p.priority_of(0, 3), 3);
}

TEST(QosPolicy, ParsesDscpMapOverrides) {
  std::string err;
  auto m = parse_dscp_map("26:3,48:6", err);
  ASSERT_TRUE(m) << err;
  EXPECT_EQ(*m, default_dscp_map());

  m = parse_dscp_map(" 26 : 4 , 10:0 ", err);
  ASSERT_TRUE(m) << err;
  EXPECT_EQ((*m)[26], 4);
  EXPECT_EQ((*m)[10], 0);
  EXPECT_EQ((*m)[27], 3);  // untouched entries keep DSCP>>3
  EXPECT_EQ((*m)[48], 6);

  m = parse_dscp_map("0:7,63:0", err);  // both ends of both ranges
  ASSERT_TRUE(m) << err;
  EXPECT_EQ((*m)[0], 7);
  EXPECT_EQ((*m)[63], 0);
}

TEST(QosPolicy, EmptyDscpMapIsTheDefault) {
  std::string err;
  for (const char* text : {"", "   "}) {
    auto m = parse_dscp_map(text, err);
    ASSERT_TRUE(m) << text;
    EXPECT_EQ(*m, default_dscp_map());
  }
}

struct BadInput {
  const char* text;
  const char* says;  // a piece of the message the user must see
};

TEST(QosPolicy, RejectsBadDscpMapsWithAClearMessage) {
  for (auto [text, says] : {
           BadInput{"26:9", "priority '9' is out of range 0-7"},
           BadInput{"64:3", "DSCP '64' is out of range 0-63"},
           BadInput{"26", "expected key:value, got '26'"},
           BadInput{"a:b", "DSCP 'a' is not a whole number"},
           BadInput{"26:b", "priority 'b' is not a whole number"},
           BadInput{"26:3,,48:6", "empty"},
           BadInput{"26:3,", "empty"},
           BadInput{"26:3x", "priority '3x' is not a whole number"},
           BadInput{"26:3:4", "priority '3:4' is not a whole number"},
           BadInput{"26:3 ; 48:6", "priority '3 ; 48:6' is not a whole number"},
           BadInput{"26:3,26:4", "'26' is given twice"},
           BadInput{"026:3,26:4", "DSCP 26 is given twice"},
           BadInput{":3", "expected key:value"},
           BadInput{"26:", "expected key:value"},
           BadInput{"-1:3", "not a whole number"},
           BadInput{"26:4294967295", "priority '4294967295' is out of range 0-7"},
           BadInput{"26:nan", "not a whole number"},
           BadInput{"99999999999:3", "out of range 0-63"},
       }) {
    std::string err;
    EXPECT_FALSE(parse_dscp_map(text, err)) << text;
    EXPECT_NE(err.find(says), std::string::npos) << text << " -> " << err;
    EXPECT_NE(err.find("DSCP:PRIORITY"), std::string::npos) << "says what is expected: " << err;
  }
}

TEST(QosPolicy, ParsesPriorityLists) {
  std::string err;
  EXPECT_EQ(parse_priorities("3", err), uint8_t{0x08}) << err;
  EXPECT_EQ(parse_priorities("0,3", err), uint8_t{0x09}) << err;
  EXPECT_EQ(parse_priorities(" 3 , 0 ", err), uint8_t{0x09}) << err;
  EXPECT_EQ(parse_priorities("0,1,2,3,4,5,6,7", err), uint8_t{0xff}) << err;
}

TEST(QosPolicy, RejectsBadPriorityLists) {
  for (auto [text, says] : {
           BadInput{"", "no priority given"},
           BadInput{"  ", "no priority given"},
           BadInput{"8", "priority '8' is out of range 0-7"},
           BadInput{"0,,3", "empty"},
           BadInput{"3,", "empty"},
           BadInput{"x", "priority 'x' is not a whole number"},
           BadInput{"3 4", "'3 4' is not a whole number"},
           BadInput{"3,3", "'3' is given twice"},
           BadInput{"3,03", "priority 3 is given twice"},
           BadInput{"4294967295", "priority '4294967295' is out of range 0-7"},
       }) {
    std::string err;
    EXPECT_FALSE(parse_priorities(text, err)) << text;
    EXPECT_NE(err.find(says), std::string::npos) << text << " -> " << err;
  }
}

TEST(QosPolicy, FormatsOnlyOverridesAndReadsThemBack) {
  EXPECT_EQ(format_dscp_map(default_dscp_map()), "");
  auto m = default_dscp_map();
  m[26] = 4;
  m[10] = 0;
  m[10] = 1;  // DSCP 10 >> 3 == 1: no longer an override
  m[0] = 3;
  EXPECT_EQ(format_dscp_map(m), "0:3,26:4");
  std::string err;
  EXPECT_EQ(parse_dscp_map(format_dscp_map(m), err), m);

  EXPECT_EQ(format_priorities(0x09), "0,3");
  EXPECT_EQ(format_priorities(0x80), "7");
  EXPECT_EQ(format_priorities(0), "");
  EXPECT_EQ(parse_priorities(format_priorities(0xa5), err), uint8_t{0xa5});
  EXPECT_STREQ(trust_name(Trust::pcp), "pcp");
  EXPECT_STREQ(mode_name(Mode::learned), "learned");
}

}  // namespace
}  // namespace roceshark::qos
