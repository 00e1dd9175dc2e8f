// SPDX-License-Identifier: GPL-2.0-or-later
// `-z roce,hops` aggregation, fed by the `roce` tap: per hop (upstream point,
// downstream point) and per QP end to end. Losses come from the engine,
// which alone sees what never arrived.
#pragma once
#include <cstdint>
#include <map>
#include <tuple>

#include "epan-ext/histogram.h"
#include "epan-ext/tap_record.h"

namespace roceshark::hop {

struct HopRow {
  uint64_t matched = 0;
  uint64_t remarked = 0, ce_set = 0, ttl_changed = 0, bursts = 0, negative = 0;
  uint32_t first_remark_frame = 0, first_burst_frame = 0;
  int64_t min_latency_ns = INT64_MAX, max_latency_ns = INT64_MIN;
  Histogram latency_ns;  // negative latencies count as 0 (and in `negative`)
  Histogram queue_ns;
};

struct QpPathRow {
  uint32_t first_point = 0;
  std::map<uint32_t, Histogram> e2e_ns;  // from first_point, by the point reached
  uint64_t retransmissions = 0;
  std::map<uint32_t, uint64_t> retrans_first_seen;  // by the point that first saw the resend
};

class HopStats {
 public:
  void add(const TapRecord& r);
  void clear() { *this = HopStats{}; }
  // (from, to)
  const std::map<std::pair<uint32_t, uint32_t>, HopRow>& hops() const { return hops_; }
  const std::map<uint32_t, QpPathRow>& qps() const { return qps_; }  // by flow
  const Analyzer* analyzer() const { return analyzer_; }
  // The engine's losses per hop, summed over the hop's flows.
  std::map<std::pair<uint32_t, uint32_t>, HopState> losses() const;

 private:
  std::map<std::pair<uint32_t, uint32_t>, HopRow> hops_;
  std::map<uint32_t, QpPathRow> qps_;
  const Analyzer* analyzer_ = nullptr;
};

}  // namespace roceshark::hop
