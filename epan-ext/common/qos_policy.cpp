// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/common/qos_policy.h"

#include <algorithm>
#include <cctype>
#include <vector>

#include "epan-ext/common/option_list.h"

namespace roceshark::qos {
namespace {

constexpr std::string_view kMapHelp = " (expected DSCP:PRIORITY pairs such as 26:3,48:6)";
constexpr std::string_view kPrioHelp = " (expected priorities 0-7 such as 3 or 0,3)";

std::string_view trim(std::string_view s) { return options::trim(s); }

std::string quoted(std::string_view s) { return "\"" + std::string(s) + "\""; }

// A small decimal number; `what` names it in the error ("DSCP", "priority").
std::optional<unsigned> parse_in_range(std::string_view field, std::string_view what, unsigned max,
                                       std::string& error) {
  std::string why;
  const auto v = options::parse_unsigned(field, 0, max, why);
  if (!v) {
    error = std::string(what) + " " + why;
    return std::nullopt;
  }
  return static_cast<unsigned>(*v);
}

}  // namespace

uint8_t Policy::priority_of(uint8_t dscp, int pcp) const {
  if (trust == Trust::pcp) return pcp >= 0 ? static_cast<uint8_t>(pcp & 7) : 0;
  return dscp_priority[dscp & 63u];
}

std::optional<std::array<uint8_t, 64>> parse_dscp_map(std::string_view text, std::string& error) {
  auto map = default_dscp_map();
  text = trim(text);
  if (text.empty()) return map;
  auto fail = [&](const std::string& why) {
    error = "bad DSCP map " + quoted(text) + ": " + why + std::string(kMapHelp);
    return std::nullopt;
  };
  std::string why;
  const auto pairs = options::parse_pairs(text, ':', why);
  if (!pairs) return fail(why);
  uint64_t given = 0;
  for (const auto& [d, prio] : *pairs) {
    const std::string entry = d + ":" + prio;
    auto dscp = parse_in_range(d, "DSCP", 63, why);
    if (!dscp) return fail("entry " + quoted(entry) + ": " + why);
    auto priority = parse_in_range(prio, "priority", 7, why);
    if (!priority) return fail("entry " + quoted(entry) + ": " + why);
    if (given >> *dscp & 1u) return fail("DSCP " + std::to_string(*dscp) + " is given twice");
    given |= uint64_t{1} << *dscp;
    map[*dscp] = static_cast<uint8_t>(*priority);
  }
  return map;
}

std::optional<uint8_t> parse_priorities(std::string_view text, std::string& error) {
  text = trim(text);
  auto fail = [&](const std::string& why) {
    error = "bad priority list " + quoted(text) + ": " + why + std::string(kPrioHelp);
    return std::nullopt;
  };
  if (text.empty()) return fail("no priority given");
  std::string why;
  const auto items = options::parse_list(text, why);
  if (!items) return fail(why);
  uint8_t mask = 0;
  for (const std::string& entry : *items) {
    auto p = parse_in_range(entry, "priority", 7, why);
    if (!p) return fail(why);
    const uint8_t b = priority_bit(static_cast<uint8_t>(*p));
    // A repeat is most likely a typo for another priority, which would then lose PFC silently.
    if (mask & b) return fail("priority " + std::to_string(*p) + " is given twice");
    mask = static_cast<uint8_t>(mask | b);
  }
  return mask;
}

std::string format_dscp_map(const std::array<uint8_t, 64>& map) {
  const auto base = default_dscp_map();
  std::string out;
  for (size_t d = 0; d < map.size(); ++d)
    if (map[d] != base[d]) out += (out.empty() ? "" : ",") + std::to_string(d) + ":" + std::to_string(map[d]);
  return out;
}

std::string format_priorities(uint8_t mask) {
  std::string out;
  for (unsigned p = 0; p < 8; ++p)
    if (mask >> p & 1u) out += (out.empty() ? "" : ",") + std::to_string(p);
  return out;
}

const char* trust_name(Trust t) { return t == Trust::pcp ? "pcp" : "dscp"; }
const char* mode_name(Mode m) { return m == Mode::learned ? "learned" : "configured"; }

}  // namespace roceshark::qos
