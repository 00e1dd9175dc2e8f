// SPDX-License-Identifier: GPL-2.0-or-later
// Whether CNPs skip the RoCE data's queue at a hop. CNPs belong in a
// strict-priority class of their own: a CNP that waited at a hop about as
// long as the data that crossed it just before shared the data's queue (or
// one as full), so its rate cut arrives late, after the queue it reports.
// The CNP's wait is its latency above the data's base latency (the data
// packet's latency less its queueing), so a CNP flow that never crossed the
// hop unqueued still shows it. Clock jitter and serialization stay far
// below the thresholds.
#pragma once
#include <cstdint>
#include <map>
#include <utility>

#include "epan-ext/analysis/hop_matcher.h"

namespace roceshark::hop {

class CnpQueueing {
 public:
  static constexpr uint64_t kMinDataQueueNs = 10'000;  // the data queued at least this
  static constexpr uint64_t kWithinNs = 5'000;          // and crossed at most this long before

  // A RoCE data packet (request or response) crossed the hop.
  void data(uint64_t ts_ns, const HopVerdict& h, uint32_t point) {
    if (h.overtaken) return;  // a longer way, not the queue
    last_[{h.prev_point, point}] = {ts_ns, h.queue_ns, h.latency_ns - static_cast<int64_t>(h.queue_ns)};
  }
  // A CNP crossed it: how long it waited, when that is at least half as
  // long as data that queued there just before; 0 otherwise.
  uint64_t queued_like_data(uint64_t ts_ns, const HopVerdict& h, uint32_t point) const {
    const auto it = last_.find({h.prev_point, point});
    if (it == last_.end()) return 0;
    const Last& d = it->second;
    if (d.queue_ns < kMinDataQueueNs || ts_ns < d.ts_ns || ts_ns - d.ts_ns > kWithinNs) return 0;
    const int64_t waited = h.latency_ns - d.base_ns;
    return waited > 0 && static_cast<uint64_t>(waited) * 2 >= d.queue_ns ? static_cast<uint64_t>(waited) : 0;
  }

 private:
  struct Last {
    uint64_t ts_ns = 0, queue_ns = 0;
    int64_t base_ns = 0;
  };
  std::map<std::pair<uint32_t, uint32_t>, Last> last_;  // (from, to) -> the latest data packet
};

}  // namespace roceshark::hop
