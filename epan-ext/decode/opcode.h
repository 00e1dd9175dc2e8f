// SPDX-License-Identifier: GPL-2.0-or-later
// BTH opcode classification (IBA vol. 1 table 38; CNP from RoCEv2 annex A17.9.3).
#pragma once
#include <cstdint>

namespace roceshark {

enum class Transport : uint8_t { rc, uc, rd, ud, cnp, xrc, other };

// What a packet is to the sequence analysis.
enum class Role : uint8_t {
  request,   // carries a requester PSN: SEND, WRITE, READ REQUEST, ATOMIC
  response,  // READ RESPONSE, ACKNOWLEDGE, ATOMIC ACKNOWLEDGE
  cnp,       // congestion notification, no PSN meaning
  datagram,  // UD: no reliability
  other,
};

inline constexpr uint8_t kOpcodeCnp = 0x81;

struct OpcodeInfo {
  Transport transport;
  Role role;
  bool has_aeth;       // ACK/NAK extended header present
  bool starts_message; // FIRST or ONLY
  bool ends_message;   // LAST or ONLY
  bool is_read_request;
  bool is_atomic_request;  // CmpSwap or FetchAdd
  bool is_read_response;
  bool is_middle_or_first;  // a full-PMTU segment: its payload is the path MTU
  uint8_t header_bytes;     // BTH and the extended headers the opcode implies
};

OpcodeInfo classify_opcode(uint8_t opcode);
// Payload bytes of a packet whose BTH-to-ICRC span is `transport_len`
// bytes; 0 when the headers alone don't fit.
uint32_t payload_length(uint8_t opcode, uint32_t transport_len, uint8_t pad_count);

}  // namespace roceshark
