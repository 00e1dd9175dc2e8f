// SPDX-License-Identifier: GPL-2.0-or-later
#include "taps/read_check.h"

#include <cstdio>

#include <wiretap/wtap.h>
#include <wsutil/buffer.h>

#include "plugins/command_line.h"
#include "plugins/compat/ws_compat.h"

namespace roceshark::glue {
namespace {

int64_t last_offset = -1;

uint32_t u32(const uint8_t* p, bool big) {
  return big ? uint32_t(p[0]) << 24 | uint32_t(p[1]) << 16 | uint32_t(p[2]) << 8 | p[3]
             : uint32_t(p[3]) << 24 | uint32_t(p[2]) << 16 | uint32_t(p[1]) << 8 | p[0];
}

// Whether the bytes of `path` from `offset` (the last record tshark read)
// are whole pcapng blocks or pcap records up to the end of the file; false
// when unsure (another format, compressed, a bad length): then it is read.
bool whole_after(const std::string& path, int64_t offset) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  if (!f) return false;
  uint8_t head[24];
  bool whole = false;
  if (offset >= 0 && std::fread(head, 1, sizeof head, f) == sizeof head && std::fseek(f, 0, SEEK_END) == 0) {
    const int64_t size = std::ftell(f);
    const uint32_t magic = u32(head, false);
    const bool pcapng = magic == 0x0A0D0D0A;
    bool big = false;
    if (pcapng) big = u32(head + 8, false) != 0x1A2B3C4D;
    const bool pcap = magic == 0xA1B2C3D4 || magic == 0xA1B23C4D || magic == 0xD4C3B2A1 || magic == 0x4D3CB2A1;
    if (pcap) big = magic == 0xD4C3B2A1 || magic == 0x4D3CB2A1;
    int64_t at = offset;
    uint8_t h[16];
    // A few trailing blocks at most (statistics, names): a long walk is not the common case.
    for (int blocks = 0; (pcapng || pcap) && blocks < 1024 && at < size; ++blocks) {
      if (std::fseek(f, at, SEEK_SET) != 0 || std::fread(h, 1, sizeof h, f) != sizeof h) break;
      if (pcapng && u32(h, false) == 0x0A0D0D0A) big = u32(h + 8, false) != 0x1A2B3C4D;  // a new section
      const int64_t len = pcapng ? int64_t(u32(h + 4, big)) : 16 + int64_t(u32(h + 8, big));
      if ((pcapng && (len < 12 || len % 4)) || at + len > size) break;
      at += len;
    }
    whole = at == size;
  }
  std::fclose(f);
  return whole;
}

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
  if (err) return ws::read_error_text(path, records + 1, err, info);
  return std::nullopt;
}

}  // namespace

const std::optional<std::string>& tshark_read_error() {
  static const std::optional<std::string> error = [] {
    const std::optional<std::string> file = tshark_read_file(own_arguments());
    if (!file || whole_after(*file, last_offset)) return std::optional<std::string>{};
    return read_error(*file);
  }();
  return error;
}

void frame_read_at(int64_t file_offset) {
  if (file_offset > last_offset) last_offset = file_offset;
}

}  // namespace roceshark::glue
