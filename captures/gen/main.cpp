// SPDX-License-Identifier: GPL-2.0-or-later
// roceshark-gen: writes a RoCE capture and its truth file from a scenario.
#include <string>
#include <vector>

#include "captures/gen/cli.h"

int main(int argc, char** argv) {
  return roceshark::gen::run_cli(std::vector<std::string>(argv + 1, argv + argc));
}
