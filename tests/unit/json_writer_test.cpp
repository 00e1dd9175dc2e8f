// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/common/json_writer.h"

#include <gtest/gtest.h>

namespace roceshark {
namespace {

TEST(JsonWriter, NestsAndSeparates) {
  JsonWriter w;
  w.begin_object().field("a", uint64_t{1}).key("b").begin_array().value(true).value(-2).null().end_array();
  w.key("c").begin_object().end_object().end_object();
  EXPECT_EQ(w.str(), R"({"a":1,"b":[true,-2,null],"c":{}})");
}

TEST(JsonWriter, EscapesStrings) {
  JsonWriter w;
  w.begin_array().value("q\"b\\s\n\x01").end_array();
  EXPECT_EQ(w.str(), R"(["q\"b\\s\u000a\u0001"])");
}

TEST(JsonWriter, NonFiniteIsNull) {
  JsonWriter w;
  w.begin_array().value(0.5).value(1.0 / 0.0).end_array();
  EXPECT_EQ(w.str(), "[0.5,null]");
}

TEST(JsonWriter, FixedIsExact) {
  JsonWriter w;
  w.begin_array().fixed(534, 9).fixed(1'700'000'000'123'456'789, 9).fixed(5, 0).end_array();
  EXPECT_EQ(w.str(), "[0.000000534,1700000000.123456789,5]");
}

}  // namespace
}  // namespace roceshark
