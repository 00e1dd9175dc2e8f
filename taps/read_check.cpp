// SPDX-License-Identifier: GPL-2.0-or-later
#include "taps/read_check.h"

#include <wiretap/wtap.h>
#include <wsutil/buffer.h>

#include "plugins/command_line.h"
#include "ws-compat/ws_compat.h"

namespace roceshark::glue {
namespace {

std::optional<std::string> read_error(const std::string& path) {
  int err = 0;
  gchar* info = nullptr;
  wtap* w = wtap_open_offline(path.c_str(), WTAP_TYPE_AUTO, &err, &info, FALSE);
  if (!w) {  // tshark could not open it either, and drew nothing
    g_free(info);
    return std::nullopt;
  }
  wtap_rec rec;
  Buffer buf;
  ws::rec_init(&rec);
  ws_buffer_init(&buf, 2048);
  uint64_t records = 0;
  gint64 offset = 0;
  for (;;) {
    wtap_rec_reset(&rec);
    if (!ws::read(w, &rec, &buf, &err, &info, &offset)) break;
    ++records;
  }
  wtap_rec_cleanup(&rec);
  ws_buffer_free(&buf);
  wtap_close(w);
  // The command's words for the same error (cli/capture_reader.cpp).
  if (err) return path + ": record " + std::to_string(records + 1) + ": " + ws::wtap_error(err, info);
  return std::nullopt;
}

}  // namespace

const std::optional<std::string>& tshark_read_error() {
  static const std::optional<std::string> error = [] {
    const std::optional<std::string> file = tshark_read_file(own_arguments());
    return file ? read_error(*file) : std::nullopt;
  }();
  return error;
}

}  // namespace roceshark::glue
