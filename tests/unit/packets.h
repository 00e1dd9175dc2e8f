// SPDX-License-Identifier: GPL-2.0-or-later
// Builders for engine unit tests: plain PacketInfo values, no Wireshark.
#pragma once
#include <cstdint>
#include <initializer_list>

#include "epan-ext/decode/packet.h"

namespace roceshark::test {

inline constexpr uint8_t kWriteOnly = 0x0A, kWriteFirst = 0x06, kWriteMiddle = 0x07, kWriteLast = 0x08,
                         kSendOnly = 0x04, kReadRequest = 0x0C, kReadRespFirst = 0x0D, kReadRespMiddle = 0x0E,
                         kReadRespLast = 0x0F, kAck = 0x11, kAtomicAck = 0x12, kFetchAdd = 0x14, kCnp = 0x81,
                         kUdSendOnly = 0x64;
inline constexpr uint8_t kSynAck = 0x1F, kSynNakSeq = 0x60, kSynNakRemoteAccess = 0x62;
inline uint8_t syn_rnr(uint8_t timer) { return static_cast<uint8_t>(0x20 | timer); }

inline Address ip(uint8_t last) { return Address::from(std::initializer_list<uint8_t>{10, 0, 0, last}); }

// A host pair and QP numbers; frames and times are handed out in order.
struct Wire {
  Address a = ip(1), b = ip(2);
  uint32_t qp_a = 0x11, qp_b = 0x22;  // a's QP, b's QP
  uint32_t frame = 0;
  uint32_t point = 0;

  PacketInfo base(uint64_t ts_ns) {
    PacketInfo p;
    p.frame = ++frame;
    p.ts_ns = ts_ns;
    p.point = point;
    p.frame_len = 128;
    return p;
  }
  // a -> b request
  PacketInfo req(uint64_t ts_ns, uint32_t psn, bool ack_req = false, uint8_t opcode = kWriteOnly,
                 uint32_t payload = 64) {
    PacketInfo p = base(ts_ns);
    p.src = a, p.dst = b, p.dest_qp = qp_b, p.opcode = opcode, p.psn = psn, p.ack_req = ack_req;
    p.payload_len = payload;
    p.has_reth = opcode == kWriteOnly || opcode == kWriteFirst || opcode == kReadRequest;
    return p;
  }
  // b -> a response about a's requests
  PacketInfo resp(uint64_t ts_ns, uint32_t psn, uint8_t syndrome = kSynAck, uint32_t msn = 0, uint8_t opcode = kAck) {
    PacketInfo p = base(ts_ns);
    p.src = b, p.dst = a, p.dest_qp = qp_a, p.opcode = opcode, p.psn = psn;
    p.has_aeth = opcode != kReadRespMiddle;
    p.syndrome = syndrome;
    p.msn = msn;
    return p;
  }
  PacketInfo cnp(uint64_t ts_ns) {
    PacketInfo p = base(ts_ns);
    p.src = b, p.dst = a, p.dest_qp = qp_a, p.opcode = kCnp, p.becn = true;
    return p;
  }
};

}  // namespace roceshark::test
