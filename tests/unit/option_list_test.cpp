// SPDX-License-Identifier: GPL-2.0-or-later
// The one parser of list and number preferences: every malformed form.
#include "epan-ext/common/option_list.h"

#include <gtest/gtest.h>

#include <limits>

namespace roceshark::options {
namespace {

TEST(OptionList, EmptyTextIsEmptyList) {
  std::string e;
  for (const char* t : {"", " ", "\t"}) {
    const auto l = parse_list(t, e);
    ASSERT_TRUE(l) << t;
    EXPECT_TRUE(l->empty());
  }
}

TEST(OptionList, WhitespaceAroundItemsIsIgnored) {
  std::string e;
  const auto l = parse_list(" a ,\tb, c\t", e);
  ASSERT_TRUE(l);
  EXPECT_EQ(*l, (std::vector<std::string>{"a", "b", "c"}));
}

TEST(OptionList, EmptyItemsAreErrors) {
  for (const char* t : {"a,,b", "a,", "a, ", ",a", ",", " , ", "26:3,,48:6"}) {
    std::string e;
    EXPECT_FALSE(parse_list(t, e)) << t;
    EXPECT_NE(e.find("empty item"), std::string::npos) << e;
  }
}

TEST(OptionList, DuplicatesAreErrors) {
  std::string e;
  EXPECT_FALSE(parse_list("a,b,a", e));
  EXPECT_NE(e.find("'a' is given twice"), std::string::npos) << e;
  EXPECT_FALSE(parse_list("a, a", e));  // the same after trimming
}

TEST(OptionPairs, SplitsAtTheSeparator) {
  std::string e;
  const auto p = parse_pairs("nic-a:25, leaf:1:400", ':', e, SplitAt::last);
  ASSERT_TRUE(p) << e;
  ASSERT_EQ(p->size(), 2u);
  EXPECT_EQ((*p)[1].first, "leaf:1");
  EXPECT_EQ((*p)[1].second, "400");
  const auto q = parse_pairs("5=leaf-1,eth0 = nic-a", '=', e);
  ASSERT_TRUE(q) << e;
  EXPECT_EQ((*q)[1], (std::pair<std::string, std::string>{"eth0", "nic-a"}));
}

TEST(OptionPairs, MalformedItems) {
  for (const char* t : {"26:3,,48:", "26:3,48:", "26:3,:6", "26", "26:3,", ":", "26 : "}) {
    std::string e;
    EXPECT_FALSE(parse_pairs(t, ':', e)) << t;
    EXPECT_FALSE(e.empty());
  }
}

TEST(OptionPairs, DuplicateKeys) {
  std::string e;
  EXPECT_FALSE(parse_pairs("a:1,b:2,a:3", ':', e));
  EXPECT_NE(e.find("'a' is given twice"), std::string::npos) << e;
}

TEST(OptionNumber, UnsignedInRange) {
  std::string e;
  EXPECT_EQ(parse_unsigned(" 7 ", 0, 7, e), 7u);
  EXPECT_EQ(parse_unsigned("0", 0, 7, e), 0u);
  EXPECT_FALSE(parse_unsigned("8", 0, 7, e));
  EXPECT_NE(e.find("'8' is out of range 0-7"), std::string::npos) << e;
  EXPECT_FALSE(parse_unsigned("0", 1, 10, e));
}

TEST(OptionNumber, UnsignedMalformedAndOverflow) {
  for (const char* t : {"", "x", "-1", "+1", "1.5", "3a", "nan", "inf", "0x10", "1 2"}) {
    std::string e;
    EXPECT_FALSE(parse_unsigned(t, 0, 7, e)) << t;
    EXPECT_NE(e.find("not a whole number"), std::string::npos) << t << ": " << e;
  }
  for (const char* t : {"4294967295", "99999999999999999999", "18446744073709551616"}) {
    std::string e;
    EXPECT_FALSE(parse_unsigned(t, 0, 7, e)) << t;
    // The message names the text given, never a wrapped or clamped value.
    EXPECT_NE(e.find(std::string("'") + t + "' is out of range 0-7"), std::string::npos) << e;
  }
}

TEST(OptionNumber, DecimalFiniteAndInRange) {
  std::string e;
  EXPECT_EQ(parse_decimal("25", 1, 1600, e), 25.0);
  EXPECT_EQ(parse_decimal("2.5e1", 1, 1600, e), 25.0);
  EXPECT_EQ(parse_decimal(" 0.5 ", 0, 100, e), 0.5);
  for (const char* t : {"nan", "NaN", "inf", "-inf", "infinity", "", "x", "-1", "+1", "1,5", "0x1p3", "1e"}) {
    EXPECT_FALSE(parse_decimal(t, 1, 1600, e)) << t;
    EXPECT_NE(e.find("not a number"), std::string::npos) << t << ": " << e;
  }
  for (const char* t : {"0", "1e-300", "1e-400", "99999999999999", "1e400", "1600.5"}) {
    EXPECT_FALSE(parse_decimal(t, 1, 1600, e)) << t;
    EXPECT_NE(e.find("out of range 1-1600"), std::string::npos) << t << ": " << e;
  }
}

TEST(OptionNumber, RangeText) {
  EXPECT_EQ(range_text(1, 1600), "1-1600");
  EXPECT_EQ(range_text(0, 0.5), "0-0.5");
}

}  // namespace
}  // namespace roceshark::options
