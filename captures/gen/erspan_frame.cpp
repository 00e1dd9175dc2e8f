// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/erspan_frame.h"

#include "captures/gen/byte_writer.h"
#include "captures/gen/checksum.h"

namespace roceshark::gen {
namespace {

constexpr size_t kEthernet = 14, kIpv4 = 20, kGre = 8;
constexpr uint16_t kGreSequencePresent = 0x1000;

}  // namespace

size_t erspan_overhead(int type) { return kEthernet + kIpv4 + kGre + (type == 3 ? 12 : 8); }

void build_erspan(const ErspanFields& f, std::span<const uint8_t> inner, std::vector<uint8_t>& out) {
  out.clear();
  out.reserve(erspan_overhead(f.type) + inner.size());
  ByteWriter w(out);
  w.bytes(f.dst_mac);
  w.bytes(f.src_mac);
  w.u16(0x0800);
  const size_t ip = w.size();
  const size_t total = erspan_overhead(f.type) - kEthernet + inner.size();
  w.u8(0x45), w.u8(static_cast<uint32_t>(f.dscp) << 2), w.u16(static_cast<uint32_t>(total));
  w.u16(f.seq & 0xFFFF), w.u16(0x4000);  // DF
  w.u8(64), w.u8(kIpProtoGre), w.u16(0);
  w.bytes(f.src), w.bytes(f.dst);
  put_u16(out.data() + ip + 10, ipv4_header_checksum({out.data() + ip, kIpv4}));

  w.u16(kGreSequencePresent);
  w.u16(f.type == 3 ? kGreErspanIII : kGreErspanII);
  w.u32(f.seq);

  const uint32_t session = f.session & 0x3FFu;
  const uint32_t cos = uint32_t{f.cos & 7u} << 13;
  if (f.type == 3) {
    w.u16(uint32_t{2} << 12 | (f.vlan & 0x0FFFu));
    w.u16(cos | session);  // BSO 0 (good frame), T 0
    w.u32(f.timestamp);
    w.u16(0);                         // SGT
    w.u16(uint32_t{kErspanGra100ns} << 1);  // P 0, FT 0 (Ethernet), HW ID 0, D 0 (ingress), O 0
  } else {
    w.u16(uint32_t{1} << 12 | (f.vlan & 0x0FFFu));
    w.u16(cos | (f.tagged ? 3u : 0u) << 11 | session);  // En, T 0
    w.u32(0);                                           // reserved, index 0
  }
  w.bytes(inner);
}

}  // namespace roceshark::gen
