// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/common/text_table.h"

#include <algorithm>
#include <cstdio>

namespace roceshark {
namespace {
constexpr size_t kRuleWidth = 80;
}

std::string TextTable::render() const {
  std::vector<size_t> width(columns_.size());
  for (size_t c = 0; c < columns_.size(); ++c) width[c] = columns_[c].header.size();
  for (const auto& row : rows_)
    for (size_t c = 0; c < row.size() && c < width.size(); ++c) width[c] = std::max(width[c], row[c].size());

  std::string out;
  auto line = [&](auto cell) {
    std::string l;
    for (size_t c = 0; c < columns_.size(); ++c) {
      const std::string& s = cell(c);
      const std::string pad(width[c] - std::min(width[c], s.size()), ' ');
      if (c) l += "  ";
      l += columns_[c].align == Align::left ? s + pad : pad + s;
    }
    while (!l.empty() && l.back() == ' ') l.pop_back();
    out += l + "\n";
  };
  line([&](size_t c) -> const std::string& { return columns_[c].header; });
  static const std::string kEmpty;
  for (const auto& row : rows_) line([&](size_t c) -> const std::string& { return c < row.size() ? row[c] : kEmpty; });
  return out;
}

namespace cell {

std::string num(uint64_t v) { return std::to_string(v); }

std::string grouped(uint64_t v) {
  std::string s = std::to_string(v);
  for (int i = static_cast<int>(s.size()) - 3; i > 0; i -= 3) s.insert(static_cast<size_t>(i), 1, ',');
  return s;
}

std::string qp(uint32_t qpn) {
  char b[16];
  std::snprintf(b, sizeof b, "0x%06x", qpn);
  return b;
}

std::string us(uint64_t ns, int decimals) {
  char b[32];
  std::snprintf(b, sizeof b, "%.*f", decimals, static_cast<double>(ns) / 1000.0);
  return b;
}

std::string fixed(uint64_t units, int places) {
  if (places <= 0) return std::to_string(units);
  places = std::min(places, 19);  // the most a uint64_t's scale holds
  uint64_t scale = 1;
  for (int i = 0; i < places; ++i) scale *= 10;
  char b[48];
  std::snprintf(b, sizeof b, "%llu.%0*llu", static_cast<unsigned long long>(units / scale), places,
                static_cast<unsigned long long>(units % scale));
  return b;
}

std::string duration(uint64_t ns) {
  char b[32];
  if (ns >= 1'000'000'000) std::snprintf(b, sizeof b, "%.2f s", static_cast<double>(ns) / 1e9);
  else if (ns >= 1'000'000) std::snprintf(b, sizeof b, "%.2f ms", static_cast<double>(ns) / 1e6);
  else if (ns >= 1'000) std::snprintf(b, sizeof b, "%.1f us", static_cast<double>(ns) / 1e3);
  else std::snprintf(b, sizeof b, "%llu ns", static_cast<unsigned long long>(ns));
  return b;
}

std::string pct(uint64_t part, uint64_t whole) {
  if (!whole) return "-";
  char b[16];
  std::snprintf(b, sizeof b, "%.1f%%", 100.0 * static_cast<double>(part) / static_cast<double>(whole));
  return b;
}

}  // namespace cell

std::string stats_rule() { return std::string(kRuleWidth, '=') + "\n"; }

std::string stats_header(const std::string& title, const std::string& filter) {
  return stats_rule() + title + "\nFilter:" + (filter.empty() ? "<No Filter>" : filter) + "\n";
}

}  // namespace roceshark
