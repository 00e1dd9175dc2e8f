// SPDX-License-Identifier: GPL-2.0-or-later
// An IEEE 802.1Qbb PFC frame, and what the engine concluded about it.
//
//   dst 01:80:C2:00:00:01 | src (the pausing port) | 0x8808 | opcode 0x0101 |
//   class-enable vector (16 bits: bit n = class n; the upper byte is reserved) |
//   pause time of class 0 .. 7 (16 bits each, in quanta of 512 bit times)
#pragma once
#include <array>
#include <cstdint>

#include "epan-ext/decode/ethernet.h"
#include "epan-ext/common/limits.h"

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

struct PauseVerdict {
  uint32_t frame = 0;
  uint32_t point = 0;
  Mac src{};                      // the pausing port
  uint8_t enabled = 0;            // classes enabled and captured
  uint8_t xon = 0;                // enabled with quanta 0: resume
  uint8_t storm = 0;              // classes whose pause is a storm at this frame
  uint8_t storm_start = 0;        // classes whose storm this frame starts (the threshold is crossed here)
  uint8_t chatter = 0;            // classes paused on and off: storm_ns long, under the storm's share so far
  uint8_t chatter_start = 0;      // ... the first such frame of its episode
  uint8_t no_ecn = 0;             // pauses starting with no ECN-CE or CNP on this link before them
  uint8_t no_ecn_first = 0;       // ... the first for its (point, MAC, priority)
  uint8_t wrong_class_first = 0;  // classes paused while RoCE runs, unpaused, on another priority
  uint8_t wrong_class_roce = 0;   // the RoCE priorities that have no PFC, for the text
  uint8_t propagation = 0;        // pauses following a storm at another point
  uint32_t propagation_frame = 0; // the frame that started that storm
  uint32_t propagation_point = 0;
  bool reserved_bits = false;     // upper byte of the enable vector not zero
  bool nonstandard_dst = false;   // not 01:80:C2:00:00:01
  bool truncated = false;         // some pause times not captured
  bool runt = false;              // shorter than a minimum frame on the wire
  bool ignored = false;           // a receiver would not act on it: a runt, or to another multicast address
  LimitKind beyond = LimitKind::none;  // past a limit: not analysed
  bool first_beyond = false;           // ... the first frame past it
  std::array<uint64_t, 8> pause_ns{};  // per enabled class, at this point's link speed
};

}  // namespace roceshark::pfc
