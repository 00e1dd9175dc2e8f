// SPDX-License-Identifier: GPL-2.0-or-later
#include "cli/capture_reader.h"

#include <wiretap/wtap.h>
#include <wsutil/buffer.h>
#include <wsutil/wslog.h>

#include <sys/stat.h>
#include <unistd.h>

#include <stdexcept>

#include "cli/mapped_capture.h"
#include "plugins/compat/ws_compat.h"

namespace roceshark::cli {

struct CaptureReader::Impl {
  std::unique_ptr<MappedCapture> mapped;  // the common case, without a copy; else libwiretap
  wtap* w = nullptr;
  wtap_rec rec{};
  Buffer buf{};
};

CaptureReader::CaptureReader(const std::string& path, Reading how)
    : impl_(std::make_unique<Impl>()), path_(path == "-" ? "standard input" : path), file_(path) {
  struct stat st {};
  if ((path == "-" ? fstat(STDIN_FILENO, &st) : stat(path.c_str(), &st)) == 0 && S_ISREG(st.st_mode))
    size_ = static_cast<uint64_t>(st.st_size);
  if (how == Reading::mapped_if_possible) impl_->mapped = MappedCapture::open(path);
  if (!impl_->mapped) open_wiretap();
}

void CaptureReader::open_wiretap() {
  static const bool ready = [] {
    ws::log_init("roceshark");  // uninitialised, wslog prints wiretap's debug chatter
    wtap_init(FALSE);
    return true;
  }();
  (void)ready;
  int err = 0;
  gchar* info = nullptr;
  const bool from_stdin = file_ == "-";
  if (from_stdin && isatty(STDIN_FILENO))
    throw std::runtime_error("the standard input is a terminal: give a capture file, or pipe one in");
  impl_->w = wtap_open_offline(file_.c_str(), WTAP_TYPE_AUTO, &err, &info, FALSE);
  if (!impl_->w) {
    // libwiretap calls /dev/null "not a plain file or pipe"; a device it
    // refuses that has nothing to read is empty, whatever else it is.
    char c;
    if (from_stdin && err == WTAP_ERR_NOT_REGULAR_FILE && read(STDIN_FILENO, &c, 1) == 0) {
      g_free(info);
      throw std::runtime_error("the standard input is empty: nothing to read");
    }
    throw std::runtime_error(path_ + ": " + ws::wtap_error(err, info));
  }
  // An empty pipe opens (as an empty capture); opening a capture reads its
  // first bytes, so nothing read means nothing there.
  if (from_stdin && wtap_read_so_far(impl_->w) == 0) {
    wtap_close(impl_->w);
    impl_->w = nullptr;
    throw std::runtime_error("the standard input is empty: nothing to read");
  }
  ws::rec_init(&impl_->rec);
  ws_buffer_init(&impl_->buf, 2048);
}

CaptureReader::~CaptureReader() {
  wtap_rec_cleanup(&impl_->rec);
  ws_buffer_free(&impl_->buf);
  if (impl_->w) wtap_close(impl_->w);
}

bool CaptureReader::next(Record& r) {
  if (impl_->mapped) {
    switch (impl_->mapped->next(r)) {
      case MappedCapture::Next::record: ++records_; return true;
      case MappedCapture::Next::end: return false;
      case MappedCapture::Next::unusual: break;
    }
    // libwiretap from here on: it reads the file again, past the packets
    // already returned, and says what is wrong with the rest, if anything.
    const uint64_t skip = impl_->mapped->packets();
    impl_->mapped.reset();
    open_wiretap();
    records_ = 0;
    for (uint64_t n = 0; n < skip; ++n)
      if (!wiretap_next(r)) return false;
  }
  return wiretap_next(r);
}

bool CaptureReader::wiretap_next(Record& r) {
  for (;;) {
    int err = 0;
    gchar* info = nullptr;
    gint64 offset = 0;
    wtap_rec_reset(&impl_->rec);  // without it, options pile up: ~100 MiB per million records
    const uint8_t* data = ws::read(impl_->w, &impl_->rec, &impl_->buf, &err, &info, &offset);
    if (!data) {
      if (err) throw std::runtime_error(ws::read_error_text(path_, records_ + 1, err, info));
      return false;
    }
    ++records_;
    const wtap_rec& rec = impl_->rec;
    if (rec.rec_type != REC_TYPE_PACKET) continue;
    const auto& h = rec.rec_header.packet_header;
    r.bytes = {data, h.caplen};
    r.wire_len = h.len;
    r.link = h.pkt_encap == WTAP_ENCAP_ETHERNET ? decode::LinkType::ethernet
             : h.pkt_encap == WTAP_ENCAP_ERF    ? decode::erf_link(h.pseudo_header.erf.phdr.type)
                                                : decode::LinkType::other;
    r.interface = (rec.presence_flags & WTAP_HAS_INTERFACE_ID) ? h.interface_id : 0;
    r.ts_ns = static_cast<uint64_t>(rec.ts.secs) * 1'000'000'000u + static_cast<uint64_t>(rec.ts.nsecs);
    return true;
  }
}

uint64_t CaptureReader::read_so_far() const {
  if (impl_->mapped) return impl_->mapped->position();
  const int64_t n = impl_->w ? wtap_read_so_far(impl_->w) : 0;
  return n > 0 ? static_cast<uint64_t>(n) : 0;
}

uint32_t CaptureReader::interfaces() {
  if (impl_->mapped) return impl_->mapped->interfaces();
  wtapng_iface_descriptions_t* idbs = wtap_file_get_idb_info(impl_->w);
  const uint32_t n = idbs ? idbs->interface_data->len : 0;
  g_free(idbs);
  return n;
}

const char* CaptureReader::interface_name(uint32_t id) {
  if (impl_->mapped) return impl_->mapped->interface_name(id);
  wtapng_iface_descriptions_t* idbs = wtap_file_get_idb_info(impl_->w);
  const char* name = "unknown";
  if (idbs && id < idbs->interface_data->len) {
    wtap_block_t idb = g_array_index(idbs->interface_data, wtap_block_t, id);
    char* value = nullptr;
    if (wtap_block_get_string_option_value(idb, OPT_IDB_NAME, &value) == WTAP_OPTTYPE_SUCCESS ||
        wtap_block_get_string_option_value(idb, OPT_IDB_DESCRIPTION, &value) == WTAP_OPTTYPE_SUCCESS)
      name = value;
  }
  g_free(idbs);  // not its interface_data: that is the file's own
  return name;
}

}  // namespace roceshark::cli
