// SPDX-License-Identifier: GPL-2.0-or-later
#include "cli/file_write.h"

#include <cerrno>
#include <cstdio>
#include <cstring>

namespace roceshark::cli {

bool write_file(const std::string& path, std::string_view text, Write how, std::string& error) {
  const bool append = how == Write::append;
  const std::string tmp = append ? path : path + ".tmp";
  errno = 0;
  std::FILE* f = std::fopen(tmp.c_str(), append ? "a" : "w");
  bool ok = f && std::fwrite(text.data(), 1, text.size(), f) == text.size() && std::fflush(f) == 0;
  int err = errno;
  if (f && std::fclose(f) != 0 && ok) ok = false, err = errno;
  if (ok && !append && std::rename(tmp.c_str(), path.c_str()) != 0) ok = false, err = errno;
  if (ok) return true;
  if (!append) std::remove(tmp.c_str());
  error = std::strerror(err ? err : EIO);
  return false;
}

}  // namespace roceshark::cli
