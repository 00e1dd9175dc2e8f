// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/decode/psn.h"

#include <gtest/gtest.h>

namespace roceshark::psn {
namespace {

TEST(Psn, AddWrapsAt24Bits) {
  EXPECT_EQ(add(0xFFFFFF, 1), 0u);
  EXPECT_EQ(add(0xFFFFFE, 5), 3u);
  EXPECT_EQ(add(0, -1), 0xFFFFFFu);
}

TEST(Psn, DiffAcrossTheWrap) {
  EXPECT_EQ(diff(0, 0xFFFFFF), 1);
  EXPECT_EQ(diff(0xFFFFFF, 0), -1);
  EXPECT_EQ(diff(5, 0xFFFFFB), 10);
  EXPECT_TRUE(after(2, 0xFFFFF0));
  EXPECT_FALSE(after(0xFFFFF0, 2));
}

TEST(Psn, DiffBoundaryIsHalfTheSpace) {
  EXPECT_EQ(diff(0x7FFFFF, 0), 0x7FFFFF);
  EXPECT_EQ(diff(0x800000, 0), -0x800000);
  EXPECT_TRUE(at_or_after(7, 7));
}

}  // namespace
}  // namespace roceshark::psn
