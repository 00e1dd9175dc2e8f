// SPDX-License-Identifier: GPL-2.0-or-later
#include "cli/command_line.h"

#include <getopt.h>

#include <algorithm>
#include <cstring>
#include <numeric>
#include <vector>

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

UsageError getopt_error(int c, char** argv) {
  // A short option's letter is in optopt. A long option is named only by
  // its argument, which getopt_long has stepped past (optopt is then 0 for
  // an unknown one, else the option's value).
  const char* at = argv[optind - 1];
  const bool has_value = std::strchr(at, '=') != nullptr;
  const bool is_long = std::strncmp(at, "--", 2) == 0 && (c == ':' || optopt == 0 || optopt >= 256 || has_value);
  std::string name = is_long ? std::string(at, std::strcspn(at, "=")) : std::string("-") + char(optopt);
  if (c == ':') return {name + " needs a value"};
  if (is_long && optopt != 0 && has_value) return {name + " takes no value"};
  return {"unknown option " + name};
}

size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<size_t> row(b.size() + 1);
  std::iota(row.begin(), row.end(), size_t{0});
  for (size_t i = 1; i <= a.size(); ++i) {
    size_t diagonal = row[0];
    row[0] = i;
    for (size_t j = 1; j <= b.size(); ++j) {
      const size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] != b[j - 1])});
      diagonal = up;
    }
  }
  return row[b.size()];
}

std::string_view nearest(std::string_view word, std::span<const std::string_view> names) {
  std::string_view best;
  size_t best_d = SIZE_MAX;
  for (std::string_view n : names)
    if (const size_t d = edit_distance(word, n); d < best_d) best = n, best_d = d;
  if (best_d > 2 || 2 * best_d >= std::max(word.size(), size_t{2})) return {};
  return best;
}

}  // namespace roceshark::cli
