// SPDX-License-Identifier: GPL-2.0-or-later
// What the command's subcommands parse alike: a bad command line, what
// getopt_long reports, "did you mean", and `-o roce.NAME:VALUE`.
#pragma once
#include <span>
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

// What getopt_long's ':' (a missing value) or '?' (an unknown option, or
// a value given to a long option that takes none) means, the option named
// as the user typed it. For ':', the option string starts with ':'.
UsageError getopt_error(int c, char** argv);

// The number of one-character insertions, deletions and substitutions
// that turn `a` into `b` (Levenshtein).
size_t edit_distance(std::string_view a, std::string_view b);

// The name in `names` nearest to `word`, if it is near enough to be a
// typo of it (at most 2 edits, and fewer than half the word's letters);
// empty when none is.
std::string_view nearest(std::string_view word, std::span<const std::string_view> names);

}  // namespace roceshark::cli
