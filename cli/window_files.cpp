// SPDX-License-Identifier: GPL-2.0-or-later
#include "cli/window_files.h"

#include <sys/stat.h>

#include <cerrno>
#include <cstdio>

namespace roceshark::cli {
namespace {

std::string window_path(const std::string& dir, uint64_t index) {
  char name[40];
  std::snprintf(name, sizeof name, "/window-%06llu.json", static_cast<unsigned long long>(index));
  return dir + name;
}

}  // namespace

bool WindowFiles::put(const std::string& path, const std::string& text, Write how) {
  std::string why;
  if (write_file(path, text, how, why)) {
    last_error_.clear();
    return true;
  }
  if (why != last_error_)
    std::fprintf(stderr, "roceshark monitor: --out: cannot write %s: %s; monitoring goes on\n", path.c_str(),
                 why.c_str());
  last_error_ = why;
  return false;
}

int WindowFiles::write(const monitor::WindowFigures& w, const std::string& report) {
  if (dir_.empty()) return 0;
  if (!made_) made_ = mkdir(dir_.c_str(), 0755) == 0 || errno == EEXIST;
  int failed = !put(window_path(dir_, w.index), report, Write::replace);
  failed += !put(dir_ + "/windows.ndjson", monitor::json_line(w) + "\n", Write::append);
  if (w.index > keep_) std::remove(window_path(dir_, w.index - keep_).c_str());
  return failed;
}

}  // namespace roceshark::cli
