// SPDX-License-Identifier: GPL-2.0-or-later
// What the `roce` tap carries for each packet: the engine's verdict (with
// the packet's own values), the frame's time and length, and the engine
// itself for flow keys, point names and RTT samples. Statistics are
// listeners on this; they never re-analyse.
#pragma once
#include <cstdint>

#include "epan-ext/analyzer.h"
#include "epan-ext/verdict.h"

namespace roceshark {

struct TapRecord {
  const Verdict* verdict;
  const Analyzer* analyzer;
  uint64_t ts_ns;
  uint32_t frame_len;
};

}  // namespace roceshark
