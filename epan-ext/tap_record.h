// SPDX-License-Identifier: GPL-2.0-or-later
// What the `roce` tap carries for each packet: the engine's verdict (with
// the packet's own values) for a RoCE packet, or its pause verdict for a PFC
// frame; the frame's time and length; the engine itself for flow keys,
// point names and RTT samples; and the log of what the engine learns later
// (losses between points, episodes), which statistics settle at draw time.
// Statistics are listeners on this; they never re-analyse.
#pragma once
#include <cstdint>

#include "epan-ext/analyzer.h"
#include "epan-ext/dcbx.h"
#include "epan-ext/event_log.h"
#include "epan-ext/verdict.h"

namespace roceshark {

struct TapRecord {
  const Verdict* verdict;          // RoCE packets, else null
  const Analyzer* analyzer;
  uint64_t ts_ns;
  uint32_t frame_len;
  const pfc::PauseVerdict* pause = nullptr;  // PFC frames, else null
  const qos::DcbxVerdict* dcbx = nullptr;    // LLDP frames with DCBX, else null
  const EventLog* events = nullptr;

  uint32_t frame() const { return verdict ? verdict->frame : pause ? pause->frame : dcbx ? dcbx->frame : 0; }
};

}  // namespace roceshark
