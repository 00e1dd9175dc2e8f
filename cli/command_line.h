// SPDX-License-Identifier: GPL-2.0-or-later
// What the command's subcommands parse alike: a bad command line, and
// `-o roce.NAME:VALUE`.
#pragma once
#include <string>
#include <string_view>

#include "epan-ext/common/preferences.h"

namespace roceshark::cli {

// A bad command line: the sentence to print, then the usage.
struct UsageError {
  std::string why;
};

// "roce.NAME:VALUE" into `s`. A bad value is an error here, not a warning
// as in tshark: a command run from cron has nobody to read a warning.
void set_preference(prefs::Settings& s, std::string_view arg);

}  // namespace roceshark::cli
