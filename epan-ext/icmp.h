// SPDX-License-Identifier: GPL-2.0-or-later
// ICMP "fragmentation needed" (ICMPv4 type 3 code 4, RFC 1191) and ICMPv6
// "packet too big" (type 2, RFC 4443) about RoCE: a router that dropped a
// RoCE packet for its size says so, with the MTU of its next hop. RoCE
// NICs ignore these messages (RoCE has no path-MTU discovery: the QP's path
// MTU is set at connection time), so the loss persists; a capture that has
// one names the router and its MTU.
#pragma once
#include <cstdint>

#include "epan-ext/address.h"
#include "epan-ext/verdict.h"

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

// What the engine concluded about one message.
struct Verdict {
  uint32_t frame = 0;
  uint32_t point = 0;
  uint32_t report = kNoId;  // AnalysisFacts::icmp_report(); kNoId past the table's limit
  uint32_t flow = kNoId;    // the RoCE flow it quotes, when the capture has it
  uint32_t stream = kNoId;  // that flow's connection
  uint32_t mtu = 0;
  uint32_t largest = 0;     // the largest RoCE IP packet of the quoted flow(s) so far, the quote included
  bool below = false;       // mtu below it: evidence of mtu_mismatch
};

// One router's message about one flow (QP, or host pair when the quote
// stops before the BTH), as the findings name it.
struct Report {
  Address reporter, src, dst;
  uint32_t mtu = 0;
  bool has_qp = false;
  uint32_t qp = 0;
  uint32_t first_frame = 0;
  uint32_t largest = 0;  // the largest Verdict::largest of its messages below it
  bool operator==(const Report& o) const {
    return reporter == o.reporter && src == o.src && dst == o.dst && mtu == o.mtu && has_qp == o.has_qp && qp == o.qp;
  }
};

}  // namespace roceshark::icmp
