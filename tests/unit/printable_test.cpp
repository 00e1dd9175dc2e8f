// SPDX-License-Identifier: GPL-2.0-or-later
// Capture text made safe for terminals and XML (epan-ext/common/printable.h).
#include "epan-ext/common/printable.h"

#include <gtest/gtest.h>

namespace roceshark {
namespace {

TEST(Printable, PlainTextAndUtf8Stay) {
  EXPECT_EQ(printable("leaf-1 eth1/12"), "leaf-1 eth1/12");
  EXPECT_EQ(printable("Spine \xc3\xa9t\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80"), "Spine \xc3\xa9t\xc3\xa9 \xe2\x86\x92 \xf0\x9f\x98\x80");
}

TEST(Printable, ControlCharactersCannotForgeLinesOrDriveTheTerminal) {
  EXPECT_EQ(printable("nic\n#1 ERROR fake"), "nic\\n#1 ERROR fake");
  EXPECT_EQ(printable("a\x1b]0;title\x07z"), "a\\x1b]0;title\\az");
  EXPECT_EQ(printable("\x1b[2J\r\t"), "\\x1b[2J\\r\\t");
  EXPECT_EQ(printable(std::string_view("a\0b", 3)), "a\\x00b");
  EXPECT_EQ(printable("del\x7f"), "del\\x7f");
}

TEST(Printable, C1ControlsAndInvalidUtf8AreEscaped) {
  EXPECT_EQ(printable("\xc2\x9b" "31m"), "\\xc2\\x9b31m");  // CSI as UTF-8
  EXPECT_EQ(printable("\xff\xfe"), "\\xff\\xfe");
  EXPECT_EQ(printable("\xe2\x82"), "\\xe2\\x82");        // cut short
  EXPECT_EQ(printable("\xc0\xaf"), "\\xc0\\xaf");        // overlong
  EXPECT_EQ(printable("\xed\xa0\x80"), "\\xed\\xa0\\x80");  // a surrogate
}

TEST(Printable, ABackslashIsDoubledSoEscapesStayUnambiguous) {
  EXPECT_EQ(printable("\\Device\\NPF_{x}"), "\\\\Device\\\\NPF_{x}");
}

TEST(Printable, IsPrintableIsWhatPrintableKeeps) {
  EXPECT_TRUE(is_printable(""));
  EXPECT_TRUE(is_printable("leaf-1 \\ caf\xc3\xa9"));
  EXPECT_FALSE(is_printable("a\nb"));
  EXPECT_FALSE(is_printable("\x1b[31m"));
  EXPECT_FALSE(is_printable("\x7f"));
  EXPECT_FALSE(is_printable("\xc2\x9b"));  // C1 CSI
  EXPECT_FALSE(is_printable("\xff"));
}

}  // namespace
}  // namespace roceshark
