// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/lldp_frame.h"

#include "captures/gen/byte_writer.h"

namespace roceshark::gen {
namespace {

enum TlvType : uint32_t { kEnd = 0, kChassisId = 1, kPortId = 2, kTtl = 3, kOrgSpecific = 127 };
constexpr uint8_t kChassisSubtypeMac = 4;
constexpr uint8_t kPortSubtypeName = 5;
constexpr uint32_t kOuiIeee8021 = 0x0080C2, kOuiIeee8023 = 0x00120F;
constexpr uint8_t kSubtypeEts = 0x09;
constexpr uint8_t kSubtypePfc = 0x0B;
constexpr uint8_t kSubtypeApp = 0x0C;
constexpr uint8_t kSubtypeMaxFrame = 4;  // of 802.3

void tlv_header(ByteWriter& w, uint32_t type, size_t length) { w.u16(type << 9 | (length & 0x1FF)); }

void org_header(ByteWriter& w, uint8_t subtype, size_t body, uint32_t oui = kOuiIeee8021) {
  tlv_header(w, kOrgSpecific, 4 + body);
  w.u24(oui);
  w.u8(subtype);
}

}  // namespace

std::vector<uint8_t> build_lldp(const LldpFields& f) {
  std::vector<uint8_t> out;
  ByteWriter w(out);
  w.bytes(kLldpDestination);
  w.bytes(f.src);
  w.u16(kEthertypeLldp);
  tlv_header(w, kChassisId, 1 + 6);
  w.u8(kChassisSubtypeMac);
  w.bytes(f.src);  // one port per device in the model: the port's MAC names the chassis
  tlv_header(w, kPortId, 1 + f.port.size());
  w.u8(kPortSubtypeName);
  w.bytes({reinterpret_cast<const uint8_t*>(f.port.data()), f.port.size()});
  tlv_header(w, kTtl, 2);
  w.u16(f.ttl);
  if (f.ets) {
    org_header(w, kSubtypeEts, 1 + 4 + 8 + 8);
    w.u8((f.willing ? 0x80u : 0u) | 0u);  // max TCs 0: eight
    for (size_t p = 0; p < 8; p += 2) w.u8(uint32_t{f.ets->tc[p] & 7u} << 4 | (f.ets->tc[p + 1] & 7u));
    for (uint8_t b : f.ets->bw) w.u8(b);
    for (uint8_t t : f.ets->tsa) w.u8(t);
  }
  if (f.pfc_enable) {
    org_header(w, kSubtypePfc, 2);
    w.u8((f.willing ? 0x80u : 0u) | (f.mbc ? 0x40u : 0u) | (f.pfc_cap & 0x0Fu));
    w.u8(*f.pfc_enable);
  }
  if (!f.app.empty()) {
    org_header(w, kSubtypeApp, 1 + 3 * f.app.size());
    w.u8(0);
    for (const LldpApp& a : f.app) {
      w.u8(uint32_t{a.priority & 7u} << 5 | (a.selector & 7u));
      w.u16(a.protocol);
    }
  }
  if (f.max_frame) {
    org_header(w, kSubtypeMaxFrame, 2, kOuiIeee8023);
    w.u16(f.max_frame);
  }
  tlv_header(w, kEnd, 0);
  if (out.size() < 60) out.resize(60, 0);
  return out;
}

}  // namespace roceshark::gen
