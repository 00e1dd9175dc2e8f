// SPDX-License-Identifier: GPL-2.0-or-later
// `roceshark monitor`: the analysis run continuously on a live interface,
// a stream or a replayed file, a report per window, and Prometheus metrics
// (docs/monitoring.md).
#pragma once

namespace roceshark::cli {

// argv[0] is "monitor".
int monitor_main(int argc, char** argv);

}  // namespace roceshark::cli
