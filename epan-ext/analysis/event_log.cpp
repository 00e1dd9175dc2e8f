// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/analysis/event_log.h"

#include <algorithm>
#include <tuple>

namespace roceshark {

void EventLog::hop_lost(const hop::HopKey& key, uint32_t frame, uint16_t len, uint64_t ts_ns, uint32_t psn) {
  hops_.push_back({key, frame, 0, len, false, ts_ns, psn});
  lost_after_.insert_or_assign(frame, key);
}

void EventLog::hop_reordered(const hop::HopKey& key, uint32_t lost_frame, uint32_t frame) {
  hops_.push_back({key, lost_frame, frame, 0});
  lost_after_.erase(lost_frame);
}

void EventLog::hop_missed(const hop::HopKey& key, uint32_t lost_frame, uint32_t ack_frame) {
  hops_.push_back({key, lost_frame, ack_frame, 0, true});
  lost_after_.erase(lost_frame);
}

std::vector<pfc::Episode> EventLog::episodes() const {
  std::vector<pfc::Episode> all = episodes_;
  all.insert(all.end(), open_.begin(), open_.end());
  std::sort(all.begin(), all.end(), [](const pfc::Episode& a, const pfc::Episode& b) {
    return std::tie(a.start_ns, a.point, a.priority, a.first_frame) < std::tie(b.start_ns, b.point, b.priority, b.first_frame);
  });
  return all;
}

std::span<const hop::Skew> EventLog::skews_at(uint32_t frame) const {
  auto by_frame = [](const hop::Skew& s, uint32_t f) { return s.frame < f; };
  auto lo = std::lower_bound(skews_.begin(), skews_.end(), frame, by_frame), hi = lo;
  while (hi != skews_.end() && hi->frame == frame) ++hi;
  return {lo, hi};
}

}  // namespace roceshark
