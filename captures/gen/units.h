// SPDX-License-Identifier: GPL-2.0-or-later
// Number, size and duration literals of the scenario language.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>

namespace roceshark::gen {

using Ns = int64_t;  // simulated time and durations, nanoseconds

// "42" or "0x2a". Rejects signs, blanks and trailing junk.
std::optional<uint64_t> parse_uint(std::string_view text);

// Bytes: "4096", "64K" (x1024), "2M" (x1024^2).
std::optional<uint64_t> parse_size(std::string_view text);

// "250ns", "1.5us", "4ms", "2s"; a unit is required so "1" is never ambiguous.
std::optional<Ns> parse_duration(std::string_view text);

}  // namespace roceshark::gen
