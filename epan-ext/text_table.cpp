// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/text_table.h"

#include <algorithm>

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

std::string stats_rule() { return std::string(kRuleWidth, '=') + "\n"; }

std::string stats_header(const std::string& title, const std::string& filter) {
  return stats_rule() + title + "\nFilter:" + (filter.empty() ? "<No Filter>" : filter) + "\n";
}

}  // namespace roceshark
