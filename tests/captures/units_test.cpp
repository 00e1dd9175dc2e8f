// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/units.h"

#include <gtest/gtest.h>

namespace roceshark::gen {
namespace {

TEST(Units, Durations) {
  EXPECT_EQ(parse_duration("250ns"), 250);
  EXPECT_EQ(parse_duration("1us"), 1000);
  EXPECT_EQ(parse_duration("1.5us"), 1500);
  EXPECT_EQ(parse_duration("1.1us"), 1100);  // no binary floating point on the way
  EXPECT_EQ(parse_duration("4ms"), 4'000'000);
  EXPECT_EQ(parse_duration("2s"), 2'000'000'000);
  EXPECT_EQ(parse_duration("0.000000001s"), 1);
  EXPECT_EQ(parse_duration("0us"), 0);
}

TEST(Units, BadDurations) {
  for (const char* bad : {"", "1", "us", "ns", "1.us", ".5us", "-1us", "1.5", "1 us", "1xs", "0.5ns", "1.0001us", "1e3us"})
    EXPECT_FALSE(parse_duration(bad)) << bad;
}

TEST(Units, NumbersAndSizes) {
  EXPECT_EQ(parse_uint("42"), 42u);
  EXPECT_EQ(parse_uint("0x2a"), 42u);
  EXPECT_EQ(parse_uint("0xFFFFFF"), 0xFFFFFFu);
  EXPECT_FALSE(parse_uint("0x"));
  EXPECT_FALSE(parse_uint("-1"));
  EXPECT_FALSE(parse_uint("12a"));
  EXPECT_FALSE(parse_uint(""));
  EXPECT_EQ(parse_size("4096"), 4096u);
  EXPECT_EQ(parse_size("64K"), 65536u);
  EXPECT_EQ(parse_size("2M"), 2u * 1024 * 1024);
  EXPECT_FALSE(parse_size("K"));
  EXPECT_FALSE(parse_size("4k"));
}

}  // namespace
}  // namespace roceshark::gen
