// SPDX-License-Identifier: GPL-2.0-or-later
// Small helpers the generator's tests share.
#pragma once
#include <gtest/gtest.h>

#include <cstdint>
#include <utility>
#include <string>
#include <vector>

#include "captures/gen/scenario_parser.h"

namespace roceshark::gen::test {

// Bytes as lowercase hex, for byte-layout comparisons.
inline std::string hex(const std::vector<uint8_t>& v) {
  static constexpr char kDigits[] = "0123456789abcdef";
  std::string s;
  for (uint8_t b : v) s += kDigits[b >> 4], s += kDigits[b & 15];
  return s;
}

// The message of the error a scenario raises, or "" if it parses.
inline std::string error_of(const std::string& text) {
  try {
    parse_scenario(text, "t.scn");
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "";
}

// Each scenario text parses (want "") or fails with an error containing want.
inline void expect_errors(const std::vector<std::pair<std::string, std::string>>& cases) {
  for (const auto& [text, want] : cases) {
    std::string e = error_of(text);
    if (want.empty()) {
      EXPECT_EQ(e, "") << text;
    } else {
      EXPECT_NE(e.find(want), std::string::npos) << "input:\n" << text << "error: " << e;
    }
  }
}

}  // namespace roceshark::gen::test
