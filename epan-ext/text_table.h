// SPDX-License-Identifier: GPL-2.0-or-later
// Column-aligned text tables for the `-z roce,...` statistics.
#pragma once
#include <string>
#include <vector>

namespace roceshark {

class TextTable {
 public:
  enum class Align { left, right };
  struct Column {
    std::string header;
    Align align = Align::right;
  };

  explicit TextTable(std::vector<Column> columns) : columns_(std::move(columns)) {}
  void add_row(std::vector<std::string> cells) { rows_.push_back(std::move(cells)); }
  bool empty() const { return rows_.empty(); }
  std::string render() const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

// "====" rules and the title/filter header shared by every roce statistic.
std::string stats_header(const std::string& title, const std::string& filter);
std::string stats_rule();

}  // namespace roceshark
