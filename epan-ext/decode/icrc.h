// SPDX-License-Identifier: GPL-2.0-or-later
// RoCE Invariant CRC (IBA vol. 1 A16.5 / A17.4.1.5).
//
//   ICRC = CRC-32 over: 8 bytes of 0xFF (stands in for the LRH)
//                       | L3 header with its variant fields set to 1s
//                       | UDP header, checksum set to 1s   (RoCEv2 only)
//                       | BTH, byte 4 (FECN, BECN, resv6) set to 1s
//                       | rest of the packet up to the ICRC
//   Variant L3 fields: IPv4 TOS, TTL, header checksum; IPv6 and GRH traffic
//   class, flow label, hop limit. On the wire the CRC is little-endian.
#pragma once
#include <cstdint>
#include <optional>
#include <span>

namespace roceshark {

enum class L3Kind : uint8_t { ipv4, ipv6, grh };

// `l3` starts at the L3 header (IPv4, IPv6 or the RoCEv1 GRH) and ends just
// before the 4 ICRC bytes. Returns nothing when the headers don't parse.
std::optional<uint32_t> compute_icrc(std::span<const uint8_t> l3, L3Kind kind);

// The ICRC as carried in the last four bytes of the packet.
inline uint32_t read_icrc(std::span<const uint8_t, 4> wire) {
  return uint32_t{wire[0]} | uint32_t{wire[1]} << 8 | uint32_t{wire[2]} << 16 | uint32_t{wire[3]} << 24;
}

}  // namespace roceshark
