// SPDX-License-Identifier: GPL-2.0-or-later
// AETH syndrome decode (IBA vol. 1 9.7.5.2.1, tables 41-44).
//
//   bit  7     6 5      4 3 2 1 0
//        resv  kind     credit count | RNR timer | NAK code
//              00 ACK   01 RNR NAK   10 reserved   11 NAK
#pragma once
#include <cstdint>

namespace roceshark {

enum class AckKind : uint8_t { ack, rnr_nak, nak, reserved };

enum class NakCode : uint8_t {
  none,
  psn_sequence_error,
  invalid_request,
  remote_access_error,
  remote_operational_error,
  invalid_rd_request,
  reserved,
  rnr,  // RNR NAK: receiver not ready, retry after the timer
};

struct Syndrome {
  AckKind kind;
  NakCode nak;
  uint8_t value;  // credit count, RNR timer code or NAK code
};

Syndrome decode_syndrome(uint8_t syndrome);
const char* nak_name(NakCode code);
// IBA table 45: the RNR NAK timer field in microseconds (code 0 is 655.36 ms).
uint32_t rnr_timer_us(uint8_t code);

}  // namespace roceshark
