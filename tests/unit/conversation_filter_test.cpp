// SPDX-License-Identifier: GPL-2.0-or-later
// What the conversation and endpoint tables answer Wireshark for a row's
// filter (tests/tshark/conversations_test.py applies these texts).
#include "epan-ext/report/conversation_filter.h"

#include <gtest/gtest.h>

namespace roceshark::conversation {
namespace {

TEST(ConversationFilter, StreamThenTheConnectionsOwnAddressField) {
  EXPECT_EQ(filter_field(3, Family::ipv4, Side::src), "roce.qp.stream == 3 && roce.ip.src");
  EXPECT_EQ(filter_field(3, Family::ipv4, Side::dst), "roce.qp.stream == 3 && roce.ip.dst");
  EXPECT_EQ(filter_field(0, Family::ipv4, Side::any), "roce.qp.stream == 0 && roce.ip.addr");
  EXPECT_EQ(filter_field(4294967294u, Family::ipv6, Side::any), "roce.qp.stream == 4294967294 && roce.ipv6.addr");
  EXPECT_EQ(filter_field(7, Family::ipv6, Side::src), "roce.qp.stream == 7 && roce.ipv6.src");
}

TEST(ConversationFilter, EndpointsNameTheAddressAlone) {
  EXPECT_STREQ(address_field(Family::ipv4, Side::any), "roce.ip.addr");
  EXPECT_STREQ(address_field(Family::ipv6, Side::dst), "roce.ipv6.dst");
}

}  // namespace
}  // namespace roceshark::conversation
