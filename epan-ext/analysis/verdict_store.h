// SPDX-License-Identifier: GPL-2.0-or-later
// Every RoCE frame's Verdict and every matched copy's HopVerdict, kept
// compact (compact_store.h). An in-order request or a plain ACK fits a
// 40-byte record, and so does a copy's hop verdict without a remark,
// burst or best-effort wait; the rest is kept whole.
#pragma once
#include <cstdint>

#include "epan-ext/analysis/compact_store.h"
#include "epan-ext/analysis/hop_matcher.h"
#include "epan-ext/analysis/verdict.h"

namespace roceshark {

struct VerdictCodec {
  struct Compact {
    uint32_t frame, flow, row_flow, stream, point;
    uint32_t psn : 24, opcode : 8;
    uint16_t payload_len, vlan_id;
    uint32_t role : 4, seq : 4, nak : 4, beyond : 4, syndrome : 8, ttl : 8;
    uint32_t dscp : 6, ecn : 2, qos_failed : 8, qos_first : 8, qos_priority : 3, pfc_priority : 3,
        pcp_skipped : 1, learning : 1;
    uint32_t flags : 13, icrc : 2, pcp : 4, ack_req : 1, fecn : 1, becn : 1, has_aeth : 1, expected_is_psn : 1,
        whole : 1;
  };
  static_assert(sizeof(Compact) == 40);
  static Compact encode(const Verdict& v);
  static Verdict decode(const Compact& c);
};
using VerdictStore = CompactStore<Verdict, VerdictCodec>;

struct HopCodec {
  struct Compact {
    uint32_t frame, prev_point, prev_frame, first_point;
    int32_t latency_ns, e2e_ns;
    uint32_t queue_ns;
    uint16_t prev_vlan, vlan, prev_len;
    int8_t ttl_delta;
    uint8_t prev_dscp : 6, prev_ecn : 2;
    uint32_t prev_pcp : 4, flags : 16, whole : 1;
  };
  static_assert(sizeof(Compact) == 40);
  static Compact encode(const hop::HopVerdict& h);
  static hop::HopVerdict decode(const Compact& c);
};
using HopStore = CompactStore<hop::HopVerdict, HopCodec>;

}  // namespace roceshark
