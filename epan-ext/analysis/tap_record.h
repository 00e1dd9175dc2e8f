// SPDX-License-Identifier: GPL-2.0-or-later
// What the `roce` tap carries for each packet: the engine's verdict (with
// the packet's own values) for a RoCE packet, or its pause verdict for a PFC
// frame; the frame's time and length; its hop verdict and RTT samples; the
// analysis' facts for flow keys and point names; and the log of what the engine learns later
// (losses between points, episodes), which statistics settle at draw time.
// Statistics are listeners on this; they never re-analyse.
#pragma once
#include <cstdint>
#include <span>

#include "epan-ext/analysis/analysis_facts.h"
#include "epan-ext/analysis/dcbx.h"
#include "epan-ext/analysis/event_log.h"
#include "epan-ext/analysis/hop_matcher.h"
#include "epan-ext/analysis/icmp_verdict.h"
#include "epan-ext/decode/pfc_frame.h"
#include "epan-ext/analysis/verdict.h"

namespace roceshark {

struct TapRecord {
  const Verdict* verdict;          // RoCE packets, else null
  const AnalysisFacts* facts;  // names, keys and settings (epan-ext/analysis/analysis_facts.h)
  uint64_t ts_ns;
  uint32_t frame_len;
  const pfc::PauseVerdict* pause = nullptr;  // PFC frames, else null
  const qos::DcbxVerdict* dcbx = nullptr;    // LLDP frames with DCBX, else null
  const EventLog* events = nullptr;
  const hop::HopVerdict* hop = nullptr;  // RoCE packets seen at an earlier point too, else null
  std::span<const uint64_t> rtt_samples{};  // of the requests a response covered (valid while the frame's taps run)
  const icmp::Verdict* icmp = nullptr;      // ICMP too-big messages quoting RoCE, else null

  uint32_t frame() const {
    return verdict ? verdict->frame : pause ? pause->frame : dcbx ? dcbx->frame : icmp ? icmp->frame : 0;
  }
};

}  // namespace roceshark
