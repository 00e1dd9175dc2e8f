// SPDX-License-Identifier: GPL-2.0-or-later
#include "ui-stats/table_rows.h"

#include <algorithm>

#include "epan-ext/common/text_table.h"

namespace roceshark::ui_stats {

guint TableRows::add(const std::vector<stat_tap_table_item>& columns, const std::vector<std::string>& strings) {
  std::vector<stat_tap_table_item_type> cells(columns.size());
  size_t s = 0;
  for (size_t c = 0; c < columns.size(); ++c) {
    cells[c].type = columns[c].type;
    if (columns[c].type == TABLE_ITEM_STRING)
      cells[c].value.string_value = g_strdup(s < strings.size() ? strings[s++].c_str() : kNone);
  }
  const guint row = table_->num_elements;
  stat_tap_init_table_row(table_, row, static_cast<guint>(cells.size()), cells.data());
  return row;
}

void TableRows::set_uint(guint row, guint column, uint64_t v) {
  stat_tap_get_field_data(table_, row, column)->value.uint_value = static_cast<guint>(std::min<uint64_t>(v, G_MAXUINT));
}

void TableRows::set_int(guint row, guint column, int64_t v) {
  stat_tap_get_field_data(table_, row, column)->value.int_value = static_cast<gint>(std::clamp<int64_t>(v, G_MININT, G_MAXINT));
}

void TableRows::set_string(guint row, guint column, const std::string& s) {
  stat_tap_table_item_type* cell = stat_tap_get_field_data(table_, row, column);
  if (cell->value.string_value && s == cell->value.string_value) return;
  parked_strings_.push_back(const_cast<char*>(cell->value.string_value));
  cell->value.string_value = g_strdup(s.c_str());
}

void TableRows::set_duration(guint row, guint column, std::optional<int64_t> ns) {
  if (!ns) return set_string(row, column, kNone);
  // Negative: a hop between unsynced clocks.
  const std::string t = cell::duration(static_cast<uint64_t>(*ns < 0 ? -*ns : *ns));
  set_string(row, column, *ns < 0 ? "-" + t : t);
}

void TableRows::set_quantile(guint row, guint column, const Histogram& h, double q) {
  set_duration(row, column, h.count() ? std::optional<int64_t>(static_cast<int64_t>(h.quantile(q))) : std::nullopt);
}

guint TableRows::uint_at(guint row, guint column) const {
  return stat_tap_get_field_data(table_, row, column)->value.uint_value;
}

void TableRows::attach(stat_tap_table_ui* ui, const char* title) {
  // Rows parked by earlier resets were last shown by a dialog that has since
  // retapped or closed; with no other dialog open nothing points at them.
  // (The rows parked by the reset that follows may still be on screen.)
  if (ui->refcount <= 1) {
    for (stat_tap_table_item_type* row : parked_) {
      for (guint c = 0; c < fields_; ++c) free_cell(&row[c]);
      g_free(row);
    }
    parked_.clear();
    for (char* s : parked_strings_) g_free(s);
    parked_strings_.clear();
  }
  table_ = stat_tap_find_table(ui, title);
  if (!table_) {
    table_ = stat_tap_init_table(title, static_cast<int>(ui->nfields), 0, nullptr);
    stat_tap_add_table(ui, table_);
  }
  fields_ = table_->num_fields;
}

void TableRows::reset() {
  if (!table_) return;
  parked_.insert(parked_.end(), table_->elements, table_->elements + table_->num_elements);
  table_->num_elements = 0;
}

void TableRows::free_cell(stat_tap_table_item_type* cell) {
  if (cell->type != TABLE_ITEM_STRING) return;
  g_free(const_cast<char*>(cell->value.string_value));
  cell->value.string_value = nullptr;
}

}  // namespace roceshark::ui_stats
