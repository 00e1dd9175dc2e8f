// SPDX-License-Identifier: GPL-2.0-or-later
// libFuzzer target for the roce.* preference table and the one options
// parser behind it (ROCESHARK_FUZZ=ON, clang; scripts/run-fuzz). The first
// byte picks a preference (prefs::all(), and prefs::find on its name), the
// rest is its text. What must hold (epan-ext/common/option_list.h):
//   - a value refused says "roce.NAME: why" and changes nothing; one taken
//     leaves no error, and the preference's default is always taken back;
//   - a list's items are non-empty, trimmed, comma-free and unique;
//   - numbers are inside their range and finite;
//   - a threshold taken is 0 <= warn <= fail <= max, and its text reads back.
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <string_view>

#include "epan-ext/common/option_list.h"
#include "epan-ext/common/preferences.h"
#include "epan-ext/common/threshold.h"

namespace {

using namespace roceshark;

[[noreturn]] void fail(const std::string& what, std::string_view text) {
  std::fprintf(stderr, "%s (text '%.*s')\n", what.c_str(), int(text.size()), text.data());
  std::abort();
}

bool clean_item(std::string_view i) {
  return !i.empty() && i == options::trim(i) && i.find(',') == std::string_view::npos;
}

void preference(uint8_t pick, std::string_view text) {
  const auto all = prefs::all();
  const prefs::Preference& p = all[pick % all.size()];
  if (prefs::find(p.name) != &p) fail(std::string("find does not give back ") + p.name, text);
  prefs::Settings s;
  std::string error;
  if (prefs::set(s, p, text, error)) {
    if (!error.empty()) fail("taken with an error: " + error, text);
  } else if (error.rfind(std::string("roce.") + p.name + ": ", 0) != 0 || error.size() <= std::strlen(p.name) + 7) {
    fail("refused without naming roce." + std::string(p.name) + ": " + error, text);
  }
  error.clear();
  if (!prefs::set(s, p, p.initial, error)) fail("its default is refused: " + error, p.initial);
  prefs::find(text);  // any name
}

void parsers(std::string_view text) {
  std::string error;
  if (const auto list = options::parse_list(text, error)) {
    std::set<std::string> seen;
    for (const std::string& i : *list)
      if (!clean_item(i) || !seen.insert(i).second) fail("parse_list item '" + i + "'", text);
  }
  for (char sep : {':', '='})
    for (auto at : {options::SplitAt::first, options::SplitAt::last})
      if (const auto pairs = options::parse_pairs(text, sep, error, at)) {
        std::set<std::string> keys;
        for (const auto& [k, v] : *pairs)
          if (!clean_item(k) || !clean_item(v) || !keys.insert(k).second) fail("parse_pairs item '" + k + "'", text);
      }
  if (const auto v = options::parse_unsigned(text, 3, 1'000'000, error); v && (*v < 3 || *v > 1'000'000))
    fail("parse_unsigned out of range", text);
  if (const auto v = options::parse_decimal(text, 0.5, 1600, error); v && !(std::isfinite(*v) && *v >= 0.5 && *v <= 1600))
    fail("parse_decimal out of range", text);
  if (const auto t = parse_threshold(text, error, 100)) {
    if (!(t->warn >= 0 && t->warn <= t->fail && t->fail <= 100)) fail("parse_threshold out of order", text);
    if (!parse_threshold(format_threshold(*t), error, 100)) fail("threshold text does not read back", text);
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size == 0) return 0;
  const std::string_view text(reinterpret_cast<const char*>(data + 1), size - 1);
  preference(data[0], text);
  parsers(text);
  return 0;
}
