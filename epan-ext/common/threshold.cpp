// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/common/threshold.h"

#include <cstdio>

#include "epan-ext/common/option_list.h"

namespace roceshark {

std::optional<Threshold> parse_threshold(std::string_view text, std::string& error, double max) {
  const auto items = options::parse_list(text, error, options::Repeats::allowed);
  if (!items || items->size() != 2) {
    if (items) error = "expected WARN,FAIL (two numbers, e.g. 0.001,0.01), got '" + std::string(options::trim(text)) + "'";
    else error = "expected WARN,FAIL (two numbers, e.g. 0.001,0.01): " + error;
    return std::nullopt;
  }
  std::string why;
  const auto warn = options::parse_decimal((*items)[0], 0, max, why);
  const auto fail = warn ? options::parse_decimal((*items)[1], 0, max, why) : std::nullopt;
  if (!warn || !fail) {
    error = "WARN,FAIL: " + why;
    return std::nullopt;
  }
  if (*fail < *warn) {
    error = "need 0 <= WARN <= FAIL, got '" + std::string(options::trim(text)) + "'";
    return std::nullopt;
  }
  return Threshold{*warn, *fail};
}

std::string format_threshold(const Threshold& t) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g,%g", t.warn, t.fail);
  return buf;
}

}  // namespace roceshark
