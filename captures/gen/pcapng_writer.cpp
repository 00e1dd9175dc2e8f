// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/pcapng_writer.h"

#include <wiretap/wtap.h>
#include <wsutil/wslog.h>

#include "plugins/compat/ws_compat.h"

#include <algorithm>
#include <cstring>
#include <mutex>

namespace roceshark::gen {
namespace {

constexpr const char* kUserAppl = "roceshark-gen";

}  // namespace

struct PcapngWriter::Impl {
  wtap_dumper* dumper = nullptr;
  GArray* shb = nullptr;
  wtap_rec rec{};
  std::string path;
};

PcapngWriter::PcapngWriter(const std::string& path, const std::vector<Interface>& interfaces)
    : impl_(std::make_unique<Impl>()) {
  static std::once_flag init;
  std::call_once(init, [] {
    ws::log_init("roceshark-gen");  // uninitialised, wslog prints wiretap's debug chatter
    wtap_init(FALSE);
  });
  impl_->path = path;

  impl_->shb = g_array_new(FALSE, FALSE, sizeof(wtap_block_t));
  wtap_block_t shb = wtap_block_create(WTAP_BLOCK_SECTION);
  wtap_block_add_string_option(shb, OPT_SHB_USERAPPL, kUserAppl, std::strlen(kUserAppl));
  g_array_append_val(impl_->shb, shb);

  wtapng_iface_descriptions_t idb_inf{};
  idb_inf.interface_data = g_array_new(FALSE, FALSE, sizeof(wtap_block_t));
  uint32_t max_snaplen = 0;
  for (const Interface& i : interfaces) {
    wtap_block_t idb = wtap_block_create(WTAP_BLOCK_IF_ID_AND_INFO);
    auto* m = static_cast<wtapng_if_descr_mandatory_t*>(wtap_block_get_mandatory_data(idb));
    m->wtap_encap = WTAP_ENCAP_ETHERNET;
    m->time_units_per_second = 1000000000;
    m->tsprecision = WTAP_TSPREC_NSEC;
    m->snap_len = i.snaplen;
    wtap_block_add_string_option(idb, OPT_IDB_NAME, i.name.c_str(), i.name.size());
    wtap_block_add_uint8_option(idb, OPT_IDB_TSRESOL, 9);
    g_array_append_val(idb_inf.interface_data, idb);
    max_snaplen = std::max(max_snaplen, i.snaplen);
  }

  wtap_dump_params params = WTAP_DUMP_PARAMS_INIT;
  params.encap = WTAP_ENCAP_ETHERNET;
  params.snaplen = static_cast<int>(max_snaplen);
  params.tsprec = WTAP_TSPREC_NSEC;
  params.shb_hdrs = impl_->shb;  // the dumper keeps this pointer until close
  params.idb_inf = &idb_inf;     // ... but copies the IDBs
  int err = 0;
  gchar* info = nullptr;
  impl_->dumper = wtap_dump_open(path.c_str(), wtap_pcapng_file_type_subtype(), WTAP_UNCOMPRESSED, &params, &err, &info);
  wtap_block_array_free(idb_inf.interface_data);
  if (!impl_->dumper) {
    wtap_block_array_free(impl_->shb);
    throw WriteError(path + ": " + ws::wtap_error(err, info));
  }
  ws::rec_init(&impl_->rec);
}

PcapngWriter::~PcapngWriter() {
  try {
    close();
  } catch (const WriteError&) {
    // Destructors must not throw; callers that care call close() themselves.
  }
}

void PcapngWriter::write(uint32_t interface, int64_t ts_ns, std::span<const uint8_t> data, uint32_t wire_len) {
  wtap_rec& r = impl_->rec;
  r.rec_type = REC_TYPE_PACKET;
  r.presence_flags = WTAP_HAS_TS | WTAP_HAS_CAP_LEN | WTAP_HAS_INTERFACE_ID;
  r.ts.secs = static_cast<time_t>(ts_ns / 1000000000);
  r.ts.nsecs = static_cast<int>(ts_ns % 1000000000);
  r.tsprec = WTAP_TSPREC_NSEC;
  r.rec_header.packet_header.caplen = static_cast<guint32>(data.size());
  r.rec_header.packet_header.len = wire_len;
  r.rec_header.packet_header.pkt_encap = WTAP_ENCAP_ETHERNET;
  r.rec_header.packet_header.interface_id = interface;
  r.rec_header.packet_header.pseudo_header.eth.fcs_len = 0;
  r.block = nullptr;  // no EPB options
  int err = 0;
  gchar* info = nullptr;
  if (!ws::dump(impl_->dumper, &r, data.data(), data.size(), &err, &info)) throw WriteError(impl_->path + ": " + ws::wtap_error(err, info));
}

void PcapngWriter::close() {
  if (!impl_ || !impl_->dumper) return;
  int err = 0;
  gchar* info = nullptr;
  const gboolean ok = wtap_dump_close(impl_->dumper, nullptr, &err, &info);
  impl_->dumper = nullptr;
  wtap_rec_cleanup(&impl_->rec);
  wtap_block_array_free(impl_->shb);
  impl_->shb = nullptr;
  if (!ok) throw WriteError(impl_->path + ": " + ws::wtap_error(err, info));
}

}  // namespace roceshark::gen
