// SPDX-License-Identifier: GPL-2.0-or-later
#include "cli/command_line.h"

namespace roceshark::cli {

void set_preference(prefs::Settings& s, std::string_view arg) {
  const size_t colon = arg.find(':');
  const std::string_view name = arg.substr(0, colon);
  if (colon == std::string_view::npos) throw UsageError{"-o " + std::string(arg) + ": expected roce.NAME:VALUE"};
  if (name.substr(0, 5) != "roce.")
    throw UsageError{"-o " + std::string(arg) + ": only roce.* preferences apply to roceshark"};
  const prefs::Preference* p = prefs::find(name.substr(5));
  if (!p) throw UsageError{"-o " + std::string(arg) + ": no preference " + std::string(name)};
  std::string error;
  if (!prefs::set(s, *p, arg.substr(colon + 1), error)) throw UsageError{error};
}

}  // namespace roceshark::cli
