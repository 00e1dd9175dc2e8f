// SPDX-License-Identifier: GPL-2.0-or-later
// RoCE → Triage in Wireshark's menu bar: `-z roce,triage` of the whole
// capture in a text window, with a button per finding that shows its
// evidence in the packet list (docs/triage.md, "In the GUI").
//
// Built on plugin_if (the menu) and funnel (the window, the retap, the
// display filter): both exist unchanged from 4.0 to 4.6, unlike any Qt API
// a plugin could reach, and stat_tap_table dialogs cannot apply a filter.
#include <epan/funnel.h>
#include <epan/plugin_if.h>
#include <epan/tap.h>

#include <string>
#include <vector>

#include "epan-ext/report/report_stats.h"
#include "epan-ext/report/tapped.h"
#include "epan-ext/report/triage.h"
#include "plugins/roce.h"
#include "ui-stats/register.h"

namespace roceshark::ui_stats {
namespace {

// The triage's buttons: findings past these are in the text, filter included.
constexpr size_t kMaxButtons = 8;

using Listener = Tapped<ReportStats>;

void reset(void* data) { static_cast<Listener*>(data)->clear(); }

tap_packet_status packet(void* data, packet_info*, epan_dissect_t*, const void* rec, tap_flags_t) {
  static_cast<Listener*>(data)->add(*static_cast<const TapRecord*>(rec));
  return TAP_PACKET_DONT_REDRAW;
}

ws::funnel_bool apply_filter(funnel_text_window_t*, void* filter) {
  const funnel_ops_t* ops = funnel_get_funnel_ops();
  ops->set_filter(ops->ops_id, static_cast<const char*>(filter));
  ops->apply_filter(ops->ops_id);
  return true;
}

void add_filter_button(const funnel_ops_t* ops, funnel_text_window_t* win, const std::string& label,
                       const std::string& filter) {
  auto* bt = g_new0(funnel_bt_t, 1);
  bt->tw = win;
  bt->func = apply_filter;
  bt->data = g_strdup(filter.c_str());
  bt->free_fcn = g_free;
  bt->free_data_fcn = g_free;
  ops->add_button(win, bt, label.c_str());
}

void open_window(ext_menubar_gui_type, void*, void*) {
  const funnel_ops_t* ops = funnel_get_funnel_ops();
  if (!ops) return;  // not in a GUI
  Listener l;
  if (GString* err = register_tap_listener("roce", &l, nullptr, TL_REQUIRES_NOTHING, reset, packet, nullptr,
                                           nullptr)) {
    g_string_free(err, TRUE);
    return;
  }
  ops->retap_packets(ops->ops_id);
  remove_tap_listener(&l);
  l.settle();

  // The triage is made once: its text, and the filters for the buttons.
  std::string text;
  std::vector<std::string> filters;
  if (l.facts) {
    const triage::Triage t = triage::make_triage(l.stats, *l.facts);
    text = format_triage(t, "");
    for (const triage::Finding& f : t.findings.list)
      if (filters.size() < kMaxButtons) filters.push_back(f.filter);
  } else {
    text = format_triage_report(l.stats, nullptr, "");  // nothing of ours in the file
  }
  if (!filters.empty())
    text = "The buttons below show a finding's evidence in the packet list: \"Filter N\" applies finding #N's "
           "filter.\n\n" + text;

  funnel_text_window_t* win = ops->new_text_window(ops->ops_id, "RoCE Triage");
  ops->set_text(win, text.c_str());
  for (size_t i = 0; i < filters.size(); ++i)
    if (!filters[i].empty()) add_filter_button(ops, win, "Filter " + std::to_string(i + 1), filters[i]);
  if (!filters.empty()) add_filter_button(ops, win, "Clear filter", "");
}

}  // namespace

void register_triage_window() {
  ext_menu_t* menu = ext_menubar_register_menu(glue::ids.proto, "RoCE", true);
  ext_menubar_add_entry(menu, "Triage", "The ranked findings of -z roce,triage, with their evidence filters",
                        open_window, nullptr);
}

}  // namespace roceshark::ui_stats
