// SPDX-License-Identifier: GPL-2.0-or-later
// Analysis thresholds. Defaults and their reasons are in docs/analysis.md.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "epan-ext/common/points.h"
#include "epan-ext/common/qos_policy.h"
#include "epan-ext/common/threshold.h"

namespace roceshark {

enum class ClockMode : uint8_t { synced, estimate };

// The health baseline of `-z roce,triage`. The defaults are the figures
// commonly given for a healthy lossless RoCE fabric.
struct HealthLimits {
  Threshold loss_pct{0.001, 0.01};       // loss events per original request
  Threshold hop_latency_us{10, 50};      // the worst hop's average latency
  Threshold ecn_spread_us{10, 20};        // how much later than the earliest a hop of the class marks
  Threshold pfc_per_s{100, 1000};        // PFC frames per second, busiest (point, MAC, priority)
  Threshold paused_pct{1, 10};           // share of the capture span that class was paused
  Threshold ce_pct{1, 5};                // requests marked ECN-CE
  Threshold stall_pct{1, 5};             // QP-time stalled by the network
};

struct Config {
  // A retransmission with no NAK before it, after this much silence on its
  // flow, is a transport-timer expiry. Far above any fabric RTT (tens of us),
  // at or below the smallest timers RoCE NICs use in practice.
  uint64_t timeout_ns = 1'000'000;
  // The same packet again within this window, with no NAK between, is a
  // capture artefact (a SPAN session mirroring both directions), not a resend.
  uint64_t duplicate_window_ns = 50'000;
  // A skipped PSN arriving this long after the packet that skipped it, with
  // nothing that could have made the sender resend it, is reordering (adaptive
  // routing, packet spraying), not loss. Far above the skew between paths,
  // far below the transport timers.
  uint64_t reorder_window_ns = 100'000;
  // A PSN this far from the expected one, either way, is a new connection on
  // a reused QP number, not loss or retransmission.
  uint32_t reuse_jump = 1u << 16;
  // Hostile captures (epan-ext/common/limits.h): frames past these are counted but
  // not analysed. Flows; capture points; (flow, point) states, each ~0.6 KB;
  // pausing (point, MAC) ports.
  uint32_t max_flows = 1u << 18;
  uint32_t max_points = 1024;
  uint32_t max_flow_points = 1u << 20;
  // A flow quiet this long at a point has its sequence state there freed;
  // its next packet starts afresh, its statistics are kept (0: never).
  // Above any transport timer with its retries' spacing (the IBA maximum,
  // local ACK timeout 31, is 8.8 ks, but NICs cap it far lower; NCCL's
  // default is about 1 s): nothing after that long can be a resend of what
  // came before it.
  uint64_t flow_idle_ns = 60'000'000'000;
  uint32_t max_pfc_ports = 4096;
  // The lossless QoS policy (docs/qos.md). For PFC, a RoCE packet's
  // priority is its VLAN PCP when tagged, else its DSCP's in this map.
  qos::Policy policy;

  // PFC (docs/pfc.md). Link speed turns pause quanta into time.
  double link_gbps = 100.0;
  std::vector<std::pair<uint32_t, double>> point_gbps;               // per-point overrides, by point id
  std::vector<std::pair<std::string, double>> point_gbps_by_name;  // the same by point name, resolved as points appear
  // Pauses with gaps under storm_gap_ns form an episode; one that lasted
  // storm_ns and held the class paused storm_share_pct of it is a storm,
  // a shorter share is chatter.
  uint64_t storm_ns = 1'000'000;
  uint64_t storm_gap_ns = 100'000;
  uint64_t storm_share_pct = 90;
  // A pause with no ECN-CE mark or CNP on its link this long before it.
  uint64_t ecn_window_ns = 1'000'000;
  // A pause at one point this soon after a storm at another is its propagation.
  uint64_t propagation_window_ns = 1'000'000;

  // Multi-point matching (docs/multipoint.md).
  uint64_t match_window_ns = 10'000'000;   // copies of one packet are looked for this long
  uint64_t microburst_ns = 10'000;         // queueing above a hop's minimum latency this much is a microburst
  // A hop whose ECN marking starts this much later than another's of the
  // same priority (or that queues this much beyond the other's onset and
  // never marks) is configured differently: above the estimator's error
  // (docs/multipoint.md#ecn-marking-thresholds), below a threshold set
  // hundreds of KB apart (250 KB at 100 Gb/s).
  uint64_t ecn_onset_tolerance_ns = 20'000;
  // Losses on a hop of frames longer than any that crossed it: this many
  // (and most of the hop's losses) before the size is taken as the cause.
  uint32_t mtu_min_lost = 3;
  // While RoCE waits at a hop, best-effort traffic may take at most this
  // share of the port's bytes: RoCE's ETS share is at least the rest
  // (docs/multipoint.md#roce-starved-by-best-effort).
  uint8_t besteffort_share_pct = 50;
  ClockMode clock_mode = ClockMode::synced;
  points::Naming naming;                      // roce.point_key and roce.point_names
  std::vector<std::string> path_order_names;  // roce.path_order: point names from one end of the path to the other
  std::vector<uint32_t> path_order;           // the same by point id, UINT32_MAX until a point of that name appears

  // RTT samples pending per flow and point (requests with AckReq not yet
  // answered). One-directional captures would otherwise grow without bound.
  uint32_t max_pending_acks = 4096;

  HealthLimits health;

  // The speed of a point's link: roce.point_link_gbps, else roce.link_gbps.
  double gbps(uint32_t point) const {
    for (auto [p, g] : point_gbps)
      if (p == point) return g;
    return link_gbps;
  }
};

}  // namespace roceshark
