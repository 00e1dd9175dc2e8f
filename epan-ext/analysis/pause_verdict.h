// SPDX-License-Identifier: GPL-2.0-or-later
// What the engine concluded about one PFC frame (decode/pfc_frame.h), kept
// per frame as a RoCE packet's Verdict is.
#pragma once
#include <array>
#include <cstdint>

#include "epan-ext/common/limits.h"
#include "epan-ext/decode/ethernet.h"

namespace roceshark::pfc {

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
  bool clock_back = false;        // stamped before an earlier frame of its point (analysis/point_clock.h)
  LimitKind beyond = LimitKind::none;  // past a limit: not analysed
  bool first_beyond = false;           // ... the first frame past it
  std::array<uint64_t, 8> pause_ns{};  // per enabled class, at this point's link speed
};

}  // namespace roceshark::pfc
