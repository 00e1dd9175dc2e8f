// SPDX-License-Identifier: GPL-2.0-or-later
// Column-aligned text tables for the `-z roce,...` statistics.
#pragma once
#include <cstdint>
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

// Cell text shared by the reports.
namespace cell {
std::string num(uint64_t v);
std::string grouped(uint64_t v);                  // 4,170: sizes in sentences
std::string qp(uint32_t qpn);                     // 0x00abcd
std::string us(uint64_t ns, int decimals = 1);    // nanoseconds shown in microseconds
std::string duration(uint64_t ns);                // "4.95 ms", "37.2 us", "850 ns": a time in a sentence or a GUI cell
std::string pct(uint64_t part, uint64_t whole);   // "12.3%", "-" when whole is 0
std::string fixed(uint64_t units, int places);    // units / 10^places exactly: (534, 9) is "0.000000534"
}  // namespace cell

// "====" rules and the title/filter header shared by every roce statistic.
std::string stats_header(const std::string& title, const std::string& filter);
std::string stats_rule();

}  // namespace roceshark
