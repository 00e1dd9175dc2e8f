// SPDX-License-Identifier: GPL-2.0-or-later
// ICMP "fragmentation needed" (ICMPv4 type 3 code 4, RFC 1191) and ICMPv6
// "packet too big" (type 2, RFC 4443), as a router sends them back to the
// sender of a packet it dropped for its size.
//
//   Ethernet | IPv4 (DSCP 48, TTL, protocol 1) | 3 | 4 | checksum | 0:16 | next-hop MTU:16 | quote
//   Ethernet | IPv6 (hop limit, next header 58) | 2 | 0 | checksum | MTU:32 | quote
//
// The quote is the dropped packet from its IP header on: RFC 1812 routers
// quote as much as keeps the ICMPv4 packet within 576 bytes, RFC 4443 as
// much as keeps the ICMPv6 packet within 1280.
#pragma once
#include <cstdint>
#include <span>
#include <vector>

#include "captures/gen/addresses.h"

namespace roceshark::gen {

struct IcmpFields {
  Mac src{}, dst{};
  bool v6 = false;
  Ipv4 router4{}, to4{};  // v4: the router, and the dropped packet's sender
  Ipv6 router6{}, to6{};  // v6
  uint8_t ttl = 64;
  uint32_t mtu = 0;
  std::span<const uint8_t> packet;  // the dropped packet, from its IP header on
};

inline constexpr size_t kIcmp4Max = 576, kIcmp6Max = 1280;

std::vector<uint8_t> build_icmp_too_big(const IcmpFields& f);

}  // namespace roceshark::gen
