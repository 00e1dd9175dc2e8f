// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/units.h"

#include <array>
#include <charconv>
#include <limits>
#include <utility>

namespace roceshark::gen {

std::optional<uint64_t> parse_uint(std::string_view text) {
  int base = 10;
  if (text.size() > 2 && text[0] == '0' && (text[1] == 'x' || text[1] == 'X')) {
    text.remove_prefix(2);
    base = 16;
  }
  if (text.empty()) return std::nullopt;
  uint64_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value, base);
  if (ec != std::errc{} || end != text.data() + text.size()) return std::nullopt;
  return value;
}

std::optional<uint64_t> parse_size(std::string_view text) {
  uint64_t scale = 1;
  if (!text.empty() && (text.back() == 'K' || text.back() == 'M')) {
    scale = text.back() == 'K' ? 1024 : 1024 * 1024;
    text.remove_suffix(1);
  }
  auto v = parse_uint(text);
  if (!v || *v > std::numeric_limits<uint64_t>::max() / scale) return std::nullopt;
  return *v * scale;
}

std::optional<Ns> parse_duration(std::string_view text) {
  // Longest suffix first so "ns" is not read as "s".
  static constexpr std::array<std::pair<std::string_view, Ns>, 4> kUnits{{
      {"ns", 1}, {"us", 1'000}, {"ms", 1'000'000}, {"s", 1'000'000'000}}};
  for (auto [suffix, scale] : kUnits) {
    if (text.size() <= suffix.size() || !text.ends_with(suffix)) continue;
    std::string_view number = text.substr(0, text.size() - suffix.size());
    // Fixed point by hand: from_chars(double) would make "1.1us" 1099ns.
    auto dot = number.find('.');
    std::string_view whole = number.substr(0, dot);
    std::string_view frac = dot == std::string_view::npos ? std::string_view{} : number.substr(dot + 1);
    if (whole.empty() || (dot != std::string_view::npos && frac.empty())) return std::nullopt;
    Ns w = 0;
    auto [we, wec] = std::from_chars(whole.data(), whole.data() + whole.size(), w);
    if (wec != std::errc{} || we != whole.data() + whole.size() || w < 0) return std::nullopt;
    if (w > std::numeric_limits<Ns>::max() / scale / 2) return std::nullopt;
    Ns result = w * scale;
    Ns place = scale;
    for (char c : frac) {
      if (c < '0' || c > '9') return std::nullopt;
      place /= 10;
      if (place == 0) {
        if (c != '0') return std::nullopt;  // finer than a nanosecond
        continue;
      }
      result += (c - '0') * place;
    }
    return result;
  }
  return std::nullopt;
}

}  // namespace roceshark::gen
