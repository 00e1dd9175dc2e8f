// SPDX-License-Identifier: GPL-2.0-or-later
// Command line of roceshark-gen:
//   roceshark-gen SCENARIO.scn -o OUT.pcapng [--truth OUT.truth.tsv]
//                 [--only-point NAME] [--stats]
#pragma once
#include <optional>
#include <string>
#include <vector>

namespace roceshark::gen {

struct CliOptions {
  std::string scenario;
  std::string output;
  std::optional<std::string> truth;
  std::optional<std::string> only_point;
  bool stats = false;
};

// Throws std::invalid_argument with a message for the user.
CliOptions parse_cli(const std::vector<std::string>& args);

inline constexpr const char* kUsage =
    "usage: roceshark-gen SCENARIO.scn -o OUT.pcapng [--truth OUT.truth.tsv] [--only-point NAME] [--stats]\n";

// The whole program, minus main(): returns the exit status.
int run_cli(const std::vector<std::string>& args);

}  // namespace roceshark::gen
