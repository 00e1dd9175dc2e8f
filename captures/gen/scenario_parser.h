// SPDX-License-Identifier: GPL-2.0-or-later
// Reads the scenario language (captures/README.md) into a Scenario.
#pragma once
#include <stdexcept>
#include <string>
#include <string_view>

#include "captures/gen/scenario.h"

namespace roceshark::gen {

// "file:line: what is wrong". Line 0 is a whole-scenario problem.
class ScenarioError : public std::runtime_error {
 public:
  ScenarioError(const std::string& file, int line, const std::string& what);
  int line() const { return line_; }

 private:
  int line_;
};

// `file` only names the source in error messages.
Scenario parse_scenario(std::string_view text, const std::string& file = "<scenario>");
Scenario load_scenario(const std::string& path);

}  // namespace roceshark::gen
