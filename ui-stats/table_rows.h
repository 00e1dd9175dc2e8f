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
#include <string>
#include <vector>

namespace roceshark::ui_stats {

class TableRows {
 public:
  // The cells of a new row: strings are copied, the rest start at zero.
  guint add(const std::vector<stat_tap_table_item>& columns, const std::vector<std::string>& strings);
  // Both saturate at the 32 bits a cell holds.
  void set_uint(guint row, guint column, uint64_t v);
  void set_int(guint row, guint column, int64_t v);
  guint uint_at(guint row, guint column) const;
  // A string cell's new text; the old one is parked like a reset row.
  void set_string(guint row, guint column, const std::string& s);

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
