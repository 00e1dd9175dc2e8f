// SPDX-License-Identifier: GPL-2.0-or-later
// Cutting a message into packets at the path MTU (IBA vol. 1 9.4, 9.7.2).
#pragma once
#include <cstdint>

namespace roceshark::gen {

enum class MsgType : uint8_t { send, write, read, fetch_add, cmp_swap };

constexpr bool is_atomic(MsgType t) { return t == MsgType::fetch_add || t == MsgType::cmp_swap; }

// An ATOMIC works on 8 bytes: its message length, for the MSN and the tests.
inline constexpr uint64_t kAtomicLength = 8;

// One packet of a message: what it carries besides the BTH.
struct Segment {
  uint8_t opcode = 0;
  uint32_t index = 0;     // 0-based packet index within the message
  uint32_t payload = 0;   // payload bytes, excluding pad
  uint8_t pad = 0;        // BTH PadCnt: payload + pad is a multiple of 4
  bool first = false;
  bool last = false;
  bool reth = false;      // WRITE FIRST/ONLY and READ REQUEST
  bool imm = false;       // ImmDt on the last packet of a *_WITH_IMMEDIATE
  bool aeth = false;      // READ RESPONSE FIRST/LAST/ONLY
  bool atomic_eth = false;  // CmpSwap and FetchAdd
};

// Packets needed for `length` bytes; a zero-length message is one packet.
uint32_t packet_count(uint64_t length, uint32_t mtu);

constexpr uint8_t pad_count(uint64_t payload) { return static_cast<uint8_t>((4 - payload % 4) % 4); }

// Packet `index` of a request message. A READ REQUEST and an ATOMIC are a
// single packet carrying no payload, whatever the length they work on.
Segment request_segment(MsgType type, bool imm, uint64_t length, uint32_t mtu, uint32_t index);

// Packet `index` of the READ RESPONSE for a read of `length` bytes.
Segment read_response_segment(uint64_t length, uint32_t mtu, uint32_t index);

// PSNs a request consumes: its packet count, for a READ the number of
// response packets (the requester skips them, IBA 9.7.1), one for an ATOMIC.
uint32_t psn_span(MsgType type, uint64_t length, uint32_t mtu);

// Request packets on the wire for one message: 1 for a READ or an ATOMIC.
uint32_t request_packets(MsgType type, uint64_t length, uint32_t mtu);

}  // namespace roceshark::gen
