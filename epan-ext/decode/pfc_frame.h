// SPDX-License-Identifier: GPL-2.0-or-later
// An IEEE 802.1Qbb PFC frame (what the engine concludes of one:
// analysis/pause_verdict.h).
//
//   dst 01:80:C2:00:00:01 | src (the pausing port) | 0x8808 | opcode 0x0101 |
//   class-enable vector (16 bits: bit n = class n; the upper byte is reserved) |
//   pause time of class 0 .. 7 (16 bits each, in quanta of 512 bit times)
#pragma once
#include <array>
#include <cstdint>

#include "epan-ext/decode/ethernet.h"

namespace roceshark::pfc {

inline constexpr Mac kPfcDestination = {0x01, 0x80, 0xC2, 0x00, 0x00, 0x01};
inline constexpr uint16_t kPfcOpcode = 0x0101;

// One quantum is 512 bit times: 5.12 ns at 100 Gb/s.
// A speed that is not positive (or NaN) gives 0 and a tiny one saturates,
// never an out-of-range conversion; roce.*link_gbps only allow 1-1600 Gb/s.
constexpr uint64_t quanta_to_ns(uint32_t quanta, double gbps) {
  if (!(gbps > 0)) return 0;
  const double ns = static_cast<double>(quanta) * 512.0 / gbps + 0.5;
  return ns < 18446744073709549568.0 ? static_cast<uint64_t>(ns) : UINT64_MAX;
}

struct PauseFrame {
  uint32_t frame = 0;
  uint64_t ts_ns = 0;
  uint32_t point = 0;
  Mac src{}, dst{};
  uint16_t enable = 0;  // as sent, reserved byte included
  std::array<uint16_t, 8> quanta{};
  uint8_t captured = 8;   // classes whose pause time fits in the capture
  uint32_t wire_len = 60; // bytes on the wire (FCS not counted): under 60 is a runt
};

inline constexpr uint32_t kMinFrame = 60;  // 64-byte minimum less the FCS

}  // namespace roceshark::pfc
