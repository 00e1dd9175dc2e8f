// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/common/option_list.h"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <set>

namespace roceshark::options {
namespace {

std::string quoted(std::string_view s) { return "'" + std::string(s) + "'"; }

// Items between commas, trimmed; nullopt if one is empty.
std::optional<std::vector<std::string>> split(std::string_view text, std::string& error) {
  std::vector<std::string> out;
  text = trim(text);
  if (text.empty()) return out;
  for (size_t at = 0;;) {
    const size_t end = text.find(',', at);
    const std::string_view item = trim(text.substr(at, end == std::string_view::npos ? end : end - at));
    if (item.empty()) {
      error = "empty item in " + quoted(text) + " (extra comma?)";
      return std::nullopt;
    }
    out.emplace_back(item);
    if (end == std::string_view::npos) break;
    at = end + 1;
  }
  return out;
}

std::string format(double v) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.15g", v);
  return buf;
}

}  // namespace

std::string_view trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t')) s.remove_suffix(1);
  return s;
}

std::optional<std::vector<std::string>> parse_list(std::string_view text, std::string& error, Repeats repeats) {
  auto items = split(text, error);
  if (!items || repeats == Repeats::allowed) return items;
  std::set<std::string> seen;
  for (const std::string& i : *items)
    if (!seen.insert(i).second) {
      error = quoted(i) + " is given twice in " + quoted(trim(text));
      return std::nullopt;
    }
  return items;
}

std::optional<std::vector<std::pair<std::string, std::string>>> parse_pairs(std::string_view text, char sep,
                                                                           std::string& error, SplitAt at) {
  auto items = split(text, error);
  if (!items) return std::nullopt;
  std::vector<std::pair<std::string, std::string>> out;
  std::set<std::string> keys;
  const std::string form = std::string("key") + sep + "value";
  for (const std::string& i : *items) {
    const size_t p = at == SplitAt::last ? i.rfind(sep) : i.find(sep);
    const std::string_view key = p == std::string::npos ? std::string_view{} : trim(std::string_view(i).substr(0, p));
    const std::string_view value =
        p == std::string::npos ? std::string_view{} : trim(std::string_view(i).substr(p + 1));
    if (key.empty() || value.empty()) {
      error = "expected " + form + ", got " + quoted(i);
      return std::nullopt;
    }
    if (!keys.insert(std::string(key)).second) {
      error = quoted(key) + " is given twice in " + quoted(trim(text));
      return std::nullopt;
    }
    out.emplace_back(key, value);
  }
  return out;
}

std::optional<uint64_t> parse_unsigned(std::string_view text, uint64_t lo, uint64_t hi, std::string& error) {
  const std::string_view t = trim(text);
  uint64_t v = 0;
  const auto [end, ec] = std::from_chars(t.data(), t.data() + t.size(), v);
  const std::string range = std::to_string(lo) + "-" + std::to_string(hi);
  if (t.empty() || end != t.data() + t.size() || (ec != std::errc{} && ec != std::errc::result_out_of_range)) {
    error = quoted(t) + " is not a whole number (accepted: " + range + ")";
    return std::nullopt;
  }
  if (ec == std::errc::result_out_of_range || v < lo || v > hi) {
    error = quoted(t) + " is out of range " + range;
    return std::nullopt;
  }
  return v;
}

std::optional<double> parse_decimal(std::string_view text, double lo, double hi, std::string& error) {
  const std::string_view t = trim(text);
  double v = 0;
  // from_chars accepts "nan" and "inf"; only digits, a point and an exponent are numbers here.
  const bool digits = !t.empty() && t.find_first_not_of("0123456789.eE+-") == std::string_view::npos &&
                      t.front() != '+' && t.front() != '-';
  const auto [end, ec] = digits ? std::from_chars(t.data(), t.data() + t.size(), v)
                                : std::from_chars_result{t.data(), std::errc::invalid_argument};
  const std::string range = range_text(lo, hi);
  if (!digits || end != t.data() + t.size() || (ec != std::errc{} && ec != std::errc::result_out_of_range)) {
    error = quoted(t) + " is not a number (accepted: " + range + ")";
    return std::nullopt;
  }
  if (ec == std::errc::result_out_of_range || !std::isfinite(v) || v < lo || v > hi) {
    error = quoted(t) + " is out of range " + range;
    return std::nullopt;
  }
  return v;
}

std::string range_text(double lo, double hi) { return format(lo) + "-" + format(hi); }

}  // namespace roceshark::options
