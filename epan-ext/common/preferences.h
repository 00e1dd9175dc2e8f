// SPDX-License-Identifier: GPL-2.0-or-later
// Every roce.* preference, declared once: its name, title, description,
// default and how its text sets the analysis. The plugin registers them with
// Wireshark from this table; the roceshark command reads `-o roce.NAME:VALUE`
// through it. Accepted ranges and rules: README "Preferences".
#pragma once
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "epan-ext/common/config.h"
#include "epan-ext/common/points.h"

namespace roceshark::prefs {

// What the preferences set.
struct Settings {
  Config cfg;
  bool check_icrc = true;
};

// How Wireshark stores the value: a number, a text, a flag, or one word of
// a fixed set (an enum preference: a menu in the dialog).
enum class Type : uint8_t { number, text, flag, choice };

struct Preference {
  const char* name;  // after "roce."
  const char* title;
  const char* description;
  Type type;
  std::string initial;  // the default, as text
  // Sets `s` from `text`, all or nothing: false with one sentence in `why`
  // (the value and what is accepted), leaving `s` as it was.
  std::function<bool(Settings& s, std::string_view text, std::string& why)> apply;
  // A choice's words, in the dialog's order: `apply` accepts exactly these
  // (any case, spaces around), the command and the plugin alike.
  std::vector<const char*> words;
};

// In the order the preference dialog shows them.
std::span<const Preference> all();
const Preference* find(std::string_view name);  // without "roce."

// Sets one preference; false with "roce.NAME: why" in `error`.
bool set(Settings& s, const Preference& p, std::string_view text, std::string& error);

// A flag's text: "true"/"false" (any case), "1"/"0"; Wireshark writes TRUE/FALSE.
inline const char* flag_text(bool on) { return on ? "TRUE" : "FALSE"; }

}  // namespace roceshark::prefs
