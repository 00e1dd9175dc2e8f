// SPDX-License-Identifier: GPL-2.0-or-later
// One roce statistic as a table (register_stat_tap_table_ui): Wireshark
// lists it under Statistics, and tshark prints it with `-z <cli>`. A Model
// feeds its stats from the roce tap and keeps only the rows a packet
// touched up to date, since Wireshark gives a table no draw callback.
//
// Wireshark keeps one set of tables per statistic, shared by every dialog
// showing it, so the Model is one per statistic too.
#pragma once
#include <epan/packet.h>
#include <epan/stat_tap_ui.h>
#include <epan/tap.h>

#include "epan-ext/analysis/tap_record.h"
#include "ui-stats/table_rows.h"

namespace roceshark::ui_stats {

template <typename Model>
class TableUi {
 public:
  static void register_ui(const char* cli, const char* title) {
    static tap_param params[] = {{PARAM_FILTER, "filter", "Filter", nullptr, TRUE}};
    auto& columns = Model::columns();
    static stat_tap_table_ui ui = {REGISTER_PACKET_STAT_GROUP_UNSORTED, title, "roce", cli, init, packet, reset,
                                   free_cell, nullptr, columns.size(), columns.data(), G_N_ELEMENTS(params), params,
                                   nullptr, 0};
    register_stat_tap_table_ui(&ui);
  }

 private:
  static inline Model model_;

  static void init(stat_tap_table_ui* ui) { model_.attach(ui); }
  static tap_packet_status packet(void*, packet_info*, epan_dissect_t*, const void* rec, tap_flags_t) {
    return model_.add(*static_cast<const TapRecord*>(rec)) ? TAP_PACKET_REDRAW : TAP_PACKET_DONT_REDRAW;
  }
  static void reset(stat_tap_table*) { model_.clear(); }
  static void free_cell(stat_tap_table*, guint, guint, stat_tap_table_item_type* cell) { TableRows::free_cell(cell); }
};

}  // namespace roceshark::ui_stats
