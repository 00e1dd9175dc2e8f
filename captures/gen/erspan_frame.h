// SPDX-License-Identifier: GPL-2.0-or-later
// ERSPAN mirror copies (draft-foschiano-erspan-03), as a switch sends them
// to a collector and Wireshark decodes them (erspan.*):
//
//   Ethernet (mirror source -> collector) | IPv4, protocol 47 |
//   GRE: flags 0x1000 (sequence number present), protocol 0x88BE (type II)
//        or 0x22EB (type III), 32-bit sequence number |
//   type II:  Ver 1 (4) | VLAN (12) | COS (3) | En (2) | T (1) | Session ID (10) |
//             Reserved (12) | Index (20)                                        8 bytes
//   type III: Ver 2 (4) | VLAN (12) | COS (3) | BSO (2) | T (1) | Session ID (10) |
//             Timestamp (32) | SGT (16) | P (1) | FT (5) | HW ID (6) | D (1) |
//             Gra (2) | O (1)                                                  12 bytes
//   the mirrored frame, unchanged (its own padding, no FCS)
//
// Wireshark takes 0x88BE as type I (no ERSPAN header) unless the GRE
// sequence bit is set, so both types carry a sequence number.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "captures/gen/addresses.h"

namespace roceshark::gen {

inline constexpr uint16_t kGreErspanII = 0x88BE;
inline constexpr uint16_t kGreErspanIII = 0x22EB;
inline constexpr uint8_t kIpProtoGre = 47;
inline constexpr uint8_t kErspanGra100ns = 1;  // type III timestamp unit: 100 ns
// The outer MACs: the mirror source is 02:45:52:00 + the session, the
// collector (its next hop) one fixed address.
inline constexpr Mac kErspanCollectorMac{0x02, 0x45, 0x52, 0xC0, 0x00, 0x01};
constexpr Mac erspan_source_mac(uint16_t session) {
  return {0x02, 0x45, 0x52, 0x00, static_cast<uint8_t>(session >> 8), static_cast<uint8_t>(session)};
}

struct ErspanFields {
  int type = 2;            // 2 or 3
  uint16_t session = 0;    // 10 bits
  Mac src_mac{}, dst_mac{};
  Ipv4 src{}, dst{};       // mirror source and collector
  uint8_t dscp = 0;
  uint32_t seq = 0;        // GRE sequence number; also the low 16 bits of the IP ID
  uint16_t vlan = 0;       // of the mirrored frame, 0 if untagged
  uint8_t cos = 0;         // its PCP
  bool tagged = false;     // type II En: 3 (tag kept in the frame) or 0 (untagged)
  uint32_t timestamp = 0;  // type III, in units of Gra
};

// Header bytes before the mirrored frame: 50 (type II) or 54 (type III).
size_t erspan_overhead(int type);

// The outer headers followed by `inner`, written to `out` (replaced).
void build_erspan(const ErspanFields& f, std::span<const uint8_t> inner, std::vector<uint8_t>& out);

}  // namespace roceshark::gen
