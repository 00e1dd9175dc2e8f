// SPDX-License-Identifier: GPL-2.0-or-later
// `roceshark monitor --out DIR`: each window's JSON report as
// DIR/window-NNNNNN.json (the report schema, so scripts/roce-compare
// compares any two), the last --keep of them, and one line per window in
// DIR/windows.ndjson. A write that fails (a full disk) is said once per
// kind of failure on stderr and counted; monitoring goes on.
#pragma once
#include <cstdint>
#include <string>

#include "cli/file_write.h"
#include "epan-ext/session/monitor_window.h"

namespace roceshark::cli {

class WindowFiles {
 public:
  WindowFiles(std::string dir, uint64_t keep) : dir_(std::move(dir)), keep_(keep) {}
  // The writes that failed: 0, 1 or 2.
  int write(const monitor::WindowFigures& w, const std::string& report);

 private:
  bool put(const std::string& path, const std::string& text, Write how);
  std::string dir_;
  uint64_t keep_;
  bool made_ = false;
  std::string last_error_;
};

}  // namespace roceshark::cli
