// SPDX-License-Identifier: GPL-2.0-or-later
// ICMP "fragmentation needed" (ICMPv4 type 3 code 4, RFC 1191) and ICMPv6
// "packet too big" (type 2, RFC 4443) about RoCE: a router that dropped a
// RoCE packet for its size says so, with the MTU of its next hop. RoCE
// NICs ignore these messages (RoCE has no path-MTU discovery: the QP's path
// MTU is set at connection time), so the loss persists; a capture that has
// one names the router and its MTU.
#pragma once
#include <cstdint>

#include "epan-ext/decode/address.h"

namespace roceshark::icmp {

// One decoded message: its frame, and the original packet it quotes.
struct TooBig {
  uint32_t frame = 0;
  uint64_t ts_ns = 0;
  uint32_t point = 0;
  bool v6 = false;
  Address reporter;         // the router that sent it (the ICMP packet's IP source)
  uint32_t mtu = 0;         // its next-hop MTU; 0: not given (pre-RFC 1191 routers)
  Address src, dst;         // the quoted packet's addresses: the RoCE sender and receiver
  uint32_t quoted_len = 0;  // the quoted packet's IP length (its header's total / payload length)
  bool has_bth = false;     // the quote reaches the BTH's PSN
  uint32_t dest_qp = 0, psn = 0;
};

}  // namespace roceshark::icmp
