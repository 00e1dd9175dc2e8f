// SPDX-License-Identifier: GPL-2.0-or-later
// `roceshark partial` and `roceshark split` (docs/fabric.md) and `roceshark merge` (cli/main.cpp,
// reading cli/partial_set.h).
#pragma once

namespace roceshark::cli {

// argv[0] is "partial", or "split" (split: every shard's partial at once).
int partial_main(int argc, char** argv, bool split);

}  // namespace roceshark::cli
