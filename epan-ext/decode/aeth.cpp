// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/decode/aeth.h"

#include <array>

namespace roceshark {

Syndrome decode_syndrome(uint8_t syndrome) {
  const uint8_t value = syndrome & 0x1F;
  switch ((syndrome >> 5) & 0x3) {
    case 0: return {AckKind::ack, NakCode::none, value};
    case 1: return {AckKind::rnr_nak, NakCode::rnr, value};
    case 3: {
      static constexpr std::array<NakCode, 5> kCodes = {NakCode::psn_sequence_error, NakCode::invalid_request,
                                                        NakCode::remote_access_error,
                                                        NakCode::remote_operational_error,
                                                        NakCode::invalid_rd_request};
      return {AckKind::nak, value < kCodes.size() ? kCodes[value] : NakCode::reserved, value};
    }
    default: return {AckKind::reserved, NakCode::none, value};
  }
}

const char* nak_name(NakCode code) {
  switch (code) {
    case NakCode::none: return "none";
    case NakCode::psn_sequence_error: return "PSN sequence error";
    case NakCode::invalid_request: return "invalid request";
    case NakCode::remote_access_error: return "remote access error";
    case NakCode::remote_operational_error: return "remote operational error";
    case NakCode::invalid_rd_request: return "invalid RD request";
    case NakCode::reserved: return "reserved NAK code";
    case NakCode::rnr: return "RNR";
  }
  return "?";
}

uint32_t rnr_timer_us(uint8_t code) {
  static constexpr std::array<uint32_t, 32> kTable = {
      655360, 10,    20,    30,    40,    60,    80,     120,    160,    240,    320,
      480,    640,   960,   1280,  1920,  2560,  3840,   5120,   7680,   10240,  15360,
      20480,  30720, 40960, 61440, 81920, 122880, 163840, 245760, 327680, 491520};
  return kTable[code & 0x1F];
}

}  // namespace roceshark
