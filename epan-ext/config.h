// SPDX-License-Identifier: GPL-2.0-or-later
// Analysis thresholds. Defaults and their reasons are in docs/analysis.md.
#pragma once
#include <cstdint>

namespace roceshark {

struct Config {
  // A retransmission with no NAK before it, after this much silence on its
  // flow, is a transport-timer expiry. Far above any fabric RTT (tens of us),
  // at or below the smallest timers RoCE NICs use in practice.
  uint64_t timeout_ns = 1'000'000;
  // The same packet again within this window, with no NAK between, is a
  // capture artefact (a SPAN session mirroring both directions), not a resend.
  uint64_t duplicate_window_ns = 50'000;
  // A PSN this far from the expected one, either way, is a new connection on
  // a reused QP number, not loss or retransmission.
  uint32_t reuse_jump = 1u << 16;
  // Hostile captures: flows beyond this are counted but not analysed.
  uint32_t max_flows = 1u << 18;
  // RTT samples pending per flow and point (requests with AckReq not yet
  // answered). One-directional captures would otherwise grow without bound.
  uint32_t max_pending_acks = 4096;
};

}  // namespace roceshark
