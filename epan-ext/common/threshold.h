// SPDX-License-Identifier: GPL-2.0-or-later
// One health metric's limits (docs/triage.md): above warn is WARN, above
// fail is FAIL; and their preference text.
#pragma once
#include <optional>
#include <string>
#include <string_view>

namespace roceshark {

struct Threshold {
  double warn, fail;
};

// A preference's "WARN,FAIL" pair, e.g. "0.001,0.01": two decimals, 0 <=
// warn <= fail <= max, finite. Bad input gives nullopt and a sentence in `error`.
std::optional<Threshold> parse_threshold(std::string_view text, std::string& error, double max = 1e9);
std::string format_threshold(const Threshold& t);  // "0.001,0.01"

}  // namespace roceshark
