// SPDX-License-Identifier: GPL-2.0-or-later
// The one parser of the text in `roce.*` preferences: comma lists, key/value
// pairs and numbers, with one set of rules (docs/preferences in README.md):
//   - items are separated by commas; spaces and tabs around an item are ignored;
//   - an empty text is an empty list; an empty item ("a,,b", "a,", ",a") is an error;
//   - the same item (or key) twice is an error;
//   - numbers are decimal, finite and inside the stated range: no sign, no
//     "nan" or "inf", no overflow.
// Errors are one sentence in `error`, naming the bad text and the accepted form.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace roceshark::options {

std::string_view trim(std::string_view s);  // spaces and tabs

// "a, b,c" -> {"a","b","c"}. Repeats::allowed for tuples such as "WARN,FAIL".
enum class Repeats : uint8_t { rejected, allowed };
std::optional<std::vector<std::string>> parse_list(std::string_view text, std::string& error,
                                                   Repeats repeats = Repeats::rejected);

// "k1:v1,k2:v2" -> {{"k1","v1"},{"k2","v2"}}: each item split at the first
// `sep` (the last one with `at_last`), key and value non-empty, keys unique.
enum class SplitAt : uint8_t { first, last };
std::optional<std::vector<std::pair<std::string, std::string>>> parse_pairs(std::string_view text, char sep,
                                                                           std::string& error,
                                                                           SplitAt at = SplitAt::first);

// A whole decimal number in [lo, hi].
std::optional<uint64_t> parse_unsigned(std::string_view text, uint64_t lo, uint64_t hi, std::string& error);
// A finite decimal number in [lo, hi].
std::optional<double> parse_decimal(std::string_view text, double lo, double hi, std::string& error);

// "1-1600", "0.001-100": a range as the messages and docs print it.
std::string range_text(double lo, double hi);

}  // namespace roceshark::options
