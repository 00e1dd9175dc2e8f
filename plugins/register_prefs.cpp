// SPDX-License-Identifier: GPL-2.0-or-later
// The roce.* preferences, registered with Wireshark from the engine's table
// (epan-ext/common/preferences.h) and applied through it.
#include <epan/prefs.h>
#include <wsutil/report_message.h>

#include <cstdlib>
#include <deque>
#include <set>
#include <string_view>
#include <vector>
#include <string>

#include "epan-ext/common/preferences.h"
#include "plugins/command_line.h"
#include "plugins/points.h"
#include "plugins/register.h"
#include "plugins/roce.h"

namespace roceshark::glue {
namespace {

// Where Wireshark keeps each preference's value. A deque: Wireshark holds
// pointers into it, so nothing may move.
struct Stored {
  guint number = 0;
  const char* text = nullptr;
  ws::pref_bool flag = FALSE;
  gint choice = 0;                 // an index into `words`
  std::vector<enum_val_t> words;   // a choice's menu: name and description are the word
};
std::deque<Stored> stored;

// The settings the preferences last validated to. Each preference is applied
// on its own: a bad value is reported (a dialog in the GUI, stderr in
// tshark), keeps its previous setting, and the others still apply.
prefs::Settings configured;

// Wireshark reads any text but TRUE as FALSE for a boolean preference
// (`-o roce.check_icrc:1` would turn the check off, silently), and keeps an
// enum preference as it was given a word it does not know (a typo would
// pass unseen). Its parser cannot be told otherwise, so the `-o
// roce.NAME:TEXT` arguments of this process for flags and choices (Linux:
// /proc/self/cmdline) are checked here by the engine's own rule: a bad one
// is reported once and keeps its previous setting, as a bad value of any
// other roce.* preference does.
std::set<std::string> bad_on_command_line() {
  std::set<std::string> bad;
  const std::vector<std::string> args = own_arguments();
  for (size_t i = 0; i < args.size(); ++i) {
    std::string_view o = args[i];
    if (o == "-o" && i + 1 < args.size()) o = args[++i];
    else if (o.substr(0, 2) == "-o") o.remove_prefix(2);
    else continue;
    const size_t colon = o.find(':');
    if (o.substr(0, 5) != "roce." || colon == std::string_view::npos) continue;
    const prefs::Preference* p = prefs::find(o.substr(5, colon - 5));
    if (!p || (p->type != prefs::Type::flag && p->type != prefs::Type::choice)) continue;
    prefs::Settings scratch;
    std::string error;
    if (!prefs::set(scratch, *p, o.substr(colon + 1), error) && bad.insert(p->name).second)
      report_failure("RoCE preference error: %s", error.c_str());
  }
  return bad;
}

std::string text_of(const prefs::Preference& p, const Stored& s) {
  switch (p.type) {
    case prefs::Type::number: return std::to_string(s.number);
    case prefs::Type::flag: return prefs::flag_text(s.flag);
    case prefs::Type::choice: return p.words.at(static_cast<size_t>(s.choice));
    case prefs::Type::text: break;
  }
  return s.text ? s.text : "";
}

}  // namespace

void apply_preferences() {
  static const std::set<std::string> bad_args = bad_on_command_line();
  prefs::Settings next = configured;
  size_t i = 0;
  for (const prefs::Preference& p : prefs::all()) {
    std::string error;
    const std::string text = text_of(p, stored[i++]);
    if (bad_args.contains(p.name)) continue;
    if (!prefs::set(next, p, text, error)) report_failure("RoCE preference error: %s", error.c_str());
  }
  configured = std::move(next);
  set_point_naming(configured.cfg.naming);
}

void register_preferences() {
  module_t* m = prefs_register_protocol(ids.proto, apply_preferences);
  for (const prefs::Preference& p : prefs::all()) {
    Stored& s = stored.emplace_back();
    switch (p.type) {
      case prefs::Type::number:
        s.number = static_cast<guint>(std::strtoul(p.initial.c_str(), nullptr, 10));
        prefs_register_uint_preference(m, p.name, p.title, p.description, 10, &s.number);
        break;
      case prefs::Type::flag:
        s.flag = p.initial == prefs::flag_text(true);
        prefs_register_bool_preference(m, p.name, p.title, p.description, &s.flag);
        break;
      case prefs::Type::choice:
        for (size_t w = 0; w < p.words.size(); ++w) {
          s.words.push_back({p.words[w], p.words[w], static_cast<gint>(w)});
          if (p.initial == p.words[w]) s.choice = static_cast<gint>(w);
        }
        s.words.push_back({nullptr, nullptr, 0});
        prefs_register_enum_preference(m, p.name, p.title, p.description, &s.choice, s.words.data(), FALSE);
        break;
      case prefs::Type::text:
        s.text = p.initial.c_str();
        prefs_register_string_preference(m, p.name, p.title, p.description, &s.text);
        break;
    }
  }
}

const prefs::Settings& settings() { return configured; }

const qos::Policy& configured_policy() { return configured.cfg.policy; }

}  // namespace roceshark::glue
