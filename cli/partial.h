// SPDX-License-Identifier: GPL-2.0-or-later
// `roceshark partial` (docs/fabric.md) and `roceshark merge` (cli/main.cpp,
// reading cli/partial_set.h).
#pragma once

namespace roceshark::cli {

// argv[0] is "partial".
int partial_main(int argc, char** argv);

}  // namespace roceshark::cli
