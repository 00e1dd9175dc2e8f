// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/cm_mad.h"

#include <vector>

#include "captures/gen/byte_writer.h"

namespace roceshark::gen::cm {
namespace {

constexpr uint8_t kMethodSend = 0x03;
constexpr uint8_t kTransportRc = 0;

// Writes the common MAD header, then lets `body` write the attribute data;
// the rest of the 256 bytes is zero (reserved or private data).
template <typename Body>
Mad build(uint64_t tid, uint16_t attr, Body body) {
  std::vector<uint8_t> v;
  v.reserve(kMadSize);
  ByteWriter w(v);
  w.u8(1), w.u8(kMgmtClassCm), w.u8(2), w.u8(kMethodSend);
  w.u16(0), w.u16(0);  // status, class specific
  w.u64(tid);
  w.u16(attr), w.u16(0), w.u32(0);  // attribute ID, reserved, modifier
  body(w);
  v.resize(kMadSize, 0);
  Mad m{};
  for (size_t i = 0; i < kMadSize; ++i) m[i] = v[i];
  return m;
}

}  // namespace

Mad build_req(uint64_t tid, const Req& r) {
  return build(tid, kAttrReq, [&](ByteWriter& w) {
    w.u32(r.local_comm_id), w.u32(0);
    w.u64(r.service_id);
    w.u64(r.local_ca_guid), w.u32(0);
    w.u32(0);                               // local Q_Key: unused for RC
    w.u24(r.local_qpn), w.u8(16);           // responder resources
    w.u24(0), w.u8(16);                     // local EECN, initiator depth
    w.u24(0);                               // remote EECN
    w.u8(20u << 3 | kTransportRc << 1);     // remote CM response timeout | RC | no e2e flow control
    w.u24(r.start_psn);
    w.u8(20u << 3 | 7);                     // local CM response timeout | retry count 7
    w.u16(r.pkey);
    w.u8(uint32_t{r.path_mtu_code} << 4 | 7);  // path MTU | RDC exists 0 | RNR retry 7
    w.u8(15u << 4);                         // max CM retries | SRQ 0 | extended transport 0
    w.u16(0xFFFF), w.u16(0xFFFF);           // LIDs: permissive, RoCE has none
    w.bytes(r.local_gid), w.bytes(r.remote_gid);
    w.u32(0);                               // flow label | reserved | packet rate
    w.u8(r.traffic_class), w.u8(r.hop_limit);
    w.u8(0);                                // SL 0 | subnet local 0
    w.u8(18u << 3);                         // local ACK timeout
    w.zeros(44);                            // no alternate path
    if (r.ip_cm) {
      w.u8(0);                              // IP CM version 0.0
      w.u8(r.ip_cm_v6 ? 0x60 : 0x40);
      w.u16(r.ip_cm_sport);
      w.bytes(r.ip_cm_src), w.bytes(r.ip_cm_dst);
    }
    // The rest of the 92 bytes of private data stays zero.
  });
}

Mad build_rep(uint64_t tid, const Rep& r) {
  return build(tid, kAttrRep, [&](ByteWriter& w) {
    w.u32(r.local_comm_id), w.u32(r.remote_comm_id);
    w.u32(0);                  // local Q_Key
    w.u24(r.local_qpn), w.u8(0);
    w.u24(0), w.u8(0);         // local EE context
    w.u24(r.start_psn), w.u8(0);
    w.u8(16), w.u8(16);        // responder resources, initiator depth
    w.u8(15u << 3);            // target ACK delay | failover 0 | e2e 0
    w.u8(7u << 5);             // RNR retry count 7 | SRQ 0
    w.u64(r.local_ca_guid);
  });
}

Mad build_rtu(uint64_t tid, const Rtu& r) {
  return build(tid, kAttrRtu, [&](ByteWriter& w) { w.u32(r.local_comm_id), w.u32(r.remote_comm_id); });
}

uint8_t mtu_code(uint32_t mtu) {
  switch (mtu) {
    case 256: return 1;
    case 512: return 2;
    case 1024: return 3;
    case 2048: return 4;
    case 4096: return 5;
    default: return 0;
  }
}

}  // namespace roceshark::gen::cm
