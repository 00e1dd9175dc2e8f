// SPDX-License-Identifier: GPL-2.0-or-later
// The rows of one stat_tap_table, as the Qt dialog and tshark read them.
//
// The Qt dialog keeps a pointer to each row's cells, so a row is never
// freed while a dialog may still show it: a reset parks the rows and they
// are freed only once no other dialog is open.
#pragma once
#include <epan/packet.h>
#include <epan/stat_tap_ui.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "epan-ext/common/histogram.h"

namespace roceshark::ui_stats {

class TableRows {
 public:
  // What a cell with no sample reads.
  static constexpr const char* kNone = "\u2013";
  // The cells of a new row: strings are copied, the string cells past them
  // read kNone until set, the rest start at zero.
  guint add(const std::vector<stat_tap_table_item>& columns, const std::vector<std::string>& strings);
  // Both saturate at the 32 bits a cell holds.
  void set_uint(guint row, guint column, uint64_t v);
  void set_int(guint row, guint column, int64_t v);
  guint uint_at(guint row, guint column) const;
  // A string cell's new text; the old one is parked like a reset row.
  void set_string(guint row, guint column, const std::string& s);
  // A time as the command writes it in a sentence ("37.2 us", "4.95 ms"),
  // "–" for no sample. Text, not a number: 4.0's dialog shows a float cell
  // with six decimals and no unit (docs/gui.md).
  void set_duration(guint row, guint column, std::optional<int64_t> ns);
  void set_quantile(guint row, guint column, const Histogram& h, double q);  // a time's; kNone when empty

  // stat_tap_table_ui callbacks.
  void attach(stat_tap_table_ui* ui, const char* title);  // finds or makes the table
  void reset();                                            // rows parked, table empty
  static void free_cell(stat_tap_table_item_type* cell);

 private:
  stat_tap_table* table_ = nullptr;
  std::vector<stat_tap_table_item_type*> parked_;
  std::vector<char*> parked_strings_;
  guint fields_ = 0;
};

}  // namespace roceshark::ui_stats
