// SPDX-License-Identifier: GPL-2.0-or-later
#include "plugins/command_line.h"

#include <fstream>
#include <string_view>

namespace roceshark::glue {

std::vector<std::string> own_arguments() {
  std::ifstream in("/proc/self/cmdline", std::ios::binary);
  std::vector<std::string> args;
  for (std::string a; std::getline(in, a, '\0');) args.push_back(a);
  return args;
}

std::optional<std::string> tshark_read_file(const std::vector<std::string>& args) {
  if (args.empty()) return std::nullopt;
  const std::string& self = args[0];
  const size_t slash = self.rfind('/');
  if (self.substr(slash == std::string::npos ? 0 : slash + 1) != "tshark") return std::nullopt;
  // tshark's short options that take an argument (its getopt string, the
  // same in 4.0, 4.4 and 4.6), so that "-Yrdma" is a filter, not -r.
  constexpr std::string_view kTakesArgument = "abBcCdeEfFGHijJKMNoOrRsStTuUwWXyYz";
  std::optional<std::string> file;
  for (size_t i = 1; i < args.size(); ++i) {
    std::string_view a = args[i];
    if (a == "--") break;
    if (a.size() > 1 && a[0] == '-' && a[1] != '-') {
      for (size_t k = 1; k < a.size(); ++k) {
        if (kTakesArgument.find(a[k]) == std::string_view::npos) continue;
        std::string value = k + 1 < a.size() ? std::string(a.substr(k + 1)) : i + 1 < args.size() ? args[++i] : "";
        if (a[k] == 'r') file = std::move(value);
        break;
      }
    }
  }
  if (file && (file->empty() || *file == "-")) return std::nullopt;
  return file;
}

}  // namespace roceshark::glue
