// SPDX-License-Identifier: GPL-2.0-or-later
// Analyze → RoCE → Triage: `-z roce,triage` of the whole capture in a text
// window titled with the file's name, with a button per finding that shows
// its evidence in the packet list, and Copy and Save (docs/triage.md, "In
// the GUI").
//
// Built on plugin_if (the menu, the file's name) and funnel (the window,
// the retap, the display filter, the clipboard, the path dialog): both
// exist unchanged from 4.0 to 4.6, unlike any Qt API a plugin could reach,
// and stat_tap_table dialogs cannot apply a filter.
#include <cfile.h>
#include <epan/funnel.h>
#include <epan/plugin_if.h>
#include <epan/tap.h>

#include <string>
#include <utility>
#include <vector>

#include "epan-ext/report/report_stats.h"
#include "epan-ext/report/tapped.h"
#include "epan-ext/report/triage.h"
#include "plugins/roce.h"
#include "ui-stats/register.h"

namespace roceshark::ui_stats {
namespace {

// The triage's buttons: findings past these are in the text, filter included.
constexpr size_t kMaxButtons = 5;

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

ws::funnel_bool copy_text(funnel_text_window_t*, void* text) {
  GString* s = g_string_new(static_cast<const char*>(text));
  funnel_get_funnel_ops()->copy_to_clipboard(s);
  g_string_free(s, TRUE);
  return true;
}

void save_to(gchar** input, void* text) {
  GError* err = nullptr;
  if (input && input[0] && *input[0] && g_file_set_contents(input[0], static_cast<const char*>(text), -1, &err)) return;
  const funnel_ops_t* ops = funnel_get_funnel_ops();
  const std::string why = err ? err->message : "no file name given";
  if (err) g_error_free(err);
  ops->set_text(ops->new_text_window(ops->ops_id, "RoCE Triage not saved"), ("Not saved: " + why).c_str());
}

// The path comes from funnel's dialog: the only file question 4.0 to 4.6
// let a plugin ask. `data` is the default path, then the text.
ws::funnel_bool ask_path(funnel_text_window_t*, void* data) {
  const auto* d = static_cast<const std::pair<std::string, std::string>*>(data);
  const gchar* names[] = {"Save the triage text to", nullptr};
  const gchar* values[] = {d->first.c_str(), nullptr};
  const funnel_ops_t* ops = funnel_get_funnel_ops();
  ops->new_dialog(ops->ops_id, "Save RoCE Triage", names, values, save_to, g_strdup(d->second.c_str()), g_free);
  return true;
}

void add_button(const funnel_ops_t* ops, funnel_text_window_t* win, const std::string& label, funnel_bt_cb_t func,
                void* data, void (*free_data)(void*)) {
  auto* bt = g_new0(funnel_bt_t, 1);
  bt->tw = win;
  bt->func = func;
  bt->data = data;
  bt->free_fcn = g_free;
  bt->free_data_fcn = free_data;
  ops->add_button(win, bt, label.c_str());
}

void add_filter_button(const funnel_ops_t* ops, funnel_text_window_t* win, const std::string& label,
                       const std::string& filter) {
  add_button(ops, win, label, apply_filter, g_strdup(filter.c_str()), g_free);
}

// The capture file's directory and name, empty when there is none.
std::pair<std::string, std::string> capture_file_name() {
  auto* path = static_cast<char*>(plugin_if_get_capture_file(
      [](capture_file* cf, void*) -> void* { return cf && cf->filename ? g_strdup(cf->filename) : nullptr; }, nullptr));
  if (!path) return {};
  gchar* dir = g_path_get_dirname(path);
  gchar* base = g_path_get_basename(path);
  std::pair<std::string, std::string> out{dir, base};
  g_free(dir), g_free(base), g_free(path);
  return out;
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

  // The triage is made once: its text, and a button per finding: "N kind".
  std::string text;
  std::vector<std::pair<std::string, std::string>> buttons;  // label, filter
  if (l.facts) {
    const triage::Triage t = triage::make_triage(l.stats, *l.facts);
    text = format_triage(t, "");
    for (const triage::Finding& f : t.findings.list)
      if (buttons.size() < kMaxButtons)
        buttons.emplace_back(std::to_string(buttons.size() + 1) + " " + triage::kind_name(f.kind), f.filter);
  } else {
    text = format_triage_report(l.stats, nullptr, "");  // nothing of ours in the file
  }

  const auto [dir, file] = capture_file_name();
  const std::string title = "RoCE Triage" + (file.empty() ? "" : " - " + file);
  funnel_text_window_t* win = ops->new_text_window(ops->ops_id, title.c_str());
  const char* hint = "The numbered buttons below show finding #N's evidence in the packet list.\n\n";
  ops->set_text(win, ((buttons.empty() ? "" : hint) + text).c_str());
  for (const auto& [label, filter] : buttons)
    if (!filter.empty()) add_filter_button(ops, win, label, filter);
  if (!buttons.empty()) add_filter_button(ops, win, "Clear filter", "");
  add_button(ops, win, "Copy", copy_text, g_strdup(text.c_str()), g_free);
  // Next to the capture by default: demo.pcapng's is demo.triage.txt.
  const std::string save_as =
      file.empty() ? "roce-triage.txt" : dir + G_DIR_SEPARATOR_S + file.substr(0, file.rfind('.')) + ".triage.txt";
  add_button(ops, win, "Save...", ask_path, new std::pair<std::string, std::string>(save_as, text),
             [](void* d) { delete static_cast<std::pair<std::string, std::string>*>(d); });
}

}  // namespace

void register_triage_window() {
  // Under Analyze, next to Expert Information, not a menu of its own after Help.
  ext_menu_t* menu = ext_menubar_register_menu(glue::ids.proto, "RoCE", true);
  ext_menubar_set_parentmenu(menu, "Analyze");
  ext_menubar_add_entry(menu, "Triage", "The ranked findings of -z roce,triage, with their evidence filters",
                        open_window, nullptr);
}

}  // namespace roceshark::ui_stats
