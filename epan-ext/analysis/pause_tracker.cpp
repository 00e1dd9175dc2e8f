// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/analysis/pause_tracker.h"

#include <algorithm>
#include <tuple>

#include "epan-ext/analysis/event_sink.h"

namespace roceshark::pfc {
namespace {

// Timestamp jitter allowed on top of back-to-back spacing: a link idle for
// longer than a frame time between two packets was not draining a backlog.
constexpr uint64_t kReleaseSlackNs = 200;
// The largest frame a release step is allowed for (a 9 KB jumbo): once a
// packet comes later than that after the last released one, the release is
// over for every packet behind it.
constexpr uint32_t kMaxFrameBytes = 9600;

uint64_t serialization_ns(uint32_t bytes, double gbps) { return static_cast<uint64_t>(bytes * 8.0 / gbps + 0.5); }

}  // namespace

uint64_t PauseTracker::key(uint32_t point, const Mac& mac, uint8_t priority) {
  uint64_t k = 0;
  for (uint8_t b : mac) k = k << 8 | b;
  return (k << 3 | priority) ^ (uint64_t{point} << 51);
}

double PauseTracker::gbps(uint32_t point) const { return cfg_.gbps(point); }

// At its end an episode is a storm when its whole span qualifies, even with
// no frame to mark it (one long window); as long with less, chatter.
void PauseTracker::settle(Episode& e) const {
  const uint64_t span = e.end_ns - e.start_ns;
  if (span < cfg_.storm_ns) return;
  e.storm = e.storm || held_paused(span, e.paused_ns, cfg_);
  e.chatter = !e.storm;
}

void PauseTracker::close_episode(Window& w) {
  if (!w.in_episode) return;
  w.ep.end_ns = w.end_ns;
  settle(w.ep);
  if (events_) events_->episode_ended(w.ep);
  w.in_episode = false;
  w.storm = SIZE_MAX;
}

void PauseTracker::on_pause(const PauseFrame& f, PauseVerdict& v, uint8_t& new_episodes) {
  new_episodes = 0;
  prune_before_ns_ = f.ts_ns;
  const double speed = gbps(f.point);
  for (uint8_t p = 0; p < 8; ++p) {
    if (!(v.enabled & (1u << p))) continue;
    const uint16_t q = f.quanta[p];
    v.pause_ns[p] = quanta_to_ns(q, speed);
    const uint64_t t = f.ts_ns;
    Window& w = windows_[key(f.point, f.src, p)];
    if (q == 0) {
      v.xon |= static_cast<uint8_t>(1u << p);
      if (w.in_episode && t >= w.start_ns && t < w.end_ns) {
        w.ep.paused_ns -= w.end_ns - t;  // the interval ends early
        w.end_ns = t;
      }
      continue;
    }
    const bool refresh = w.in_episode && t <= w.end_ns;
    if (!refresh) {
      if (!w.in_episode || t - w.end_ns >= cfg_.storm_gap_ns) {
        close_episode(w);
        w.ep = Episode{f.point, f.src, p, t, t, 0, f.frame, 0};
        w.in_episode = true;
        new_episodes |= static_cast<uint8_t>(1u << p);
      }
      w.start_ns = t;
      w.end_ns = t;
      w.drain_ns = 0;
      w.opened_by = f.frame;
      auto& live = live_[class_key(f.point, p)];
      forget_released(live, t, speed);
      if (std::find(live.begin(), live.end(), key(f.point, f.src, p)) == live.end()) {
        if (live.size() >= kMaxLive) live.erase(live.begin()), ++live_dropped_;
        live.push_back(key(f.point, f.src, p));
      }
    }
    // A refresh replaces the expiry; merged time counts only what it adds.
    const uint64_t end = t + v.pause_ns[p];
    if (end >= w.end_ns) w.ep.paused_ns += end - w.end_ns;
    else w.ep.paused_ns -= w.end_ns - end;
    w.end_ns = end;
    w.ep.end_ns = end;
    ++w.ep.frames;
    // Causal: the share asserted up to this frame, not the pause it announces.
    if (!w.ep.storm && t - w.ep.start_ns >= cfg_.storm_ns) {
      if (held_paused(t - w.ep.start_ns, w.ep.paused_ns - (end - t), cfg_)) {
        w.ep.storm = true;
        w.ep.storm_frame = f.frame;
        v.storm_start |= static_cast<uint8_t>(1u << p);
        w.storm = storms_dropped_ + storms_.size();
        storms_.push_back({f.point, w.ep.start_ns, end, f.frame});
      } else {
        v.chatter |= static_cast<uint8_t>(1u << p);
        if (!w.ep.chatter) v.chatter_start |= static_cast<uint8_t>(1u << p);
        w.ep.chatter = true;  // so far; settled at the episode's end
      }
    }
    if (w.ep.storm) {
      v.storm |= static_cast<uint8_t>(1u << p);
      if (w.storm != SIZE_MAX && w.storm >= storms_dropped_) storms_[w.storm - storms_dropped_].end_ns = end;
    }
    if (!w.ep.follows_storm) link_to_storm(f, p, w.ep, v);
  }
}

void PauseTracker::forget_released(std::vector<uint64_t>& keys, uint64_t now_ns, double speed) {
  const uint64_t step = kReleaseSlackNs + 2 * serialization_ns(kMaxFrameBytes, speed);
  std::erase_if(keys, [&](uint64_t k) {
    const Window& w = windows_[k];
    return now_ns > std::max(w.end_ns, w.drain_ns) + step;
  });
}

Hold PauseTracker::on_packet(uint32_t point, const Mac& src, const Mac& dst, uint8_t priority, uint64_t ts_ns,
                             uint32_t frame_len, uint32_t flow) {
  Hold h;
  auto it = live_.find(class_key(point, priority));
  if (it == live_.end()) return h;
  const double speed = gbps(point);
  std::vector<uint64_t>& keys = it->second;
  for (size_t i = 0; i < keys.size();) {
    Hold mine;
    if (judge(windows_[keys[i]], keys[i], src, dst, ts_ns, frame_len, flow, speed, mine)) {
      keys.erase(keys.begin() + static_cast<std::ptrdiff_t>(i));
      continue;
    }
    ++i;
    if (h.held) continue;
    if (mine.held) h = mine;
    else if (mine.unattributed && !h.unattributed) h = mine;
  }
  return h;
}

bool PauseTracker::judge(Window& w, uint64_t k, const Mac& src, const Mac& dst, uint64_t ts_ns, uint32_t frame_len,
                         uint32_t flow, double speed, Hold& h) {
  if (!w.in_episode || ts_ns < w.start_ns) return false;
  const uint64_t ser = serialization_ns(frame_len, speed);
  if (ts_ns < w.end_ns) {
    // In force: this packet's direction is flowing, the one the pause holds
    // is the other. A frame already on the wire when the pause arrived
    // still passes, so the first frame times after the PFC frame prove nothing.
    if (ts_ns >= w.start_ns + kReleaseSlackNs + 2 * ser) {
      w.flowing_src.add(src);
      w.flowing_dst.add(dst);
    }
    return false;
  }
  // The backlog leaves back-to-back: the first held packet within twice its
  // own serialization time of the end, each next one of the last.
  const uint64_t base = std::max(w.end_ns, w.drain_ns);
  if (ts_ns > base + kReleaseSlackNs + 2 * ser)
    return ts_ns > base + kReleaseSlackNs + 2 * serialization_ns(kMaxFrameBytes, speed);
  // Silent through the window (else its side would be flowing) and released
  // back to back: held, unless its sides say it goes the other way. The
  // pausing MAC is evidence like any other: the pauser sends the other way,
  // and what is sent to it goes its way.
  const Mac& x = w.ep.mac;
  const bool other_way = src == x || w.flowing_src.has(src) || w.flowing_dst.has(dst) || w.released_dst.has(src) ||
                         w.released_src.has(dst);
  if (other_way) {
    const bool this_way = dst == x || w.flowing_dst.has(src) || w.flowing_src.has(dst) || w.released_src.has(src) ||
                          w.released_dst.has(dst);
    h.unattributed = this_way;
    if (this_way) h.pause_frame = w.opened_by;  // for the statistics' row, not a hold
    return false;
  }
  w.drain_ns = ts_ns;
  w.released_src.add(src);
  w.released_dst.add(dst);
  h.held = true;
  h.pause_frame = w.opened_by;
  // Attribute the window's time to the flow once: the union of what held it.
  uint64_t& counted = stall_counted_[(uint64_t{flow} << 32) ^ k ^ (w.start_ns * 0x9E3779B97F4A7C15ull)];
  const uint64_t upto = std::min(w.end_ns, ts_ns);
  const uint64_t from = std::max(w.start_ns, counted);
  if (upto > from) h.stall_ns = upto - from;
  counted = std::max(counted, upto);
  return false;
}

std::vector<Episode> PauseTracker::open_episodes() const {
  std::vector<Episode> all;
  for (const auto& [k, w] : windows_) {
    if (!w.in_episode) continue;
    Episode e = w.ep;
    e.end_ns = w.end_ns;
    settle(e);
    all.push_back(e);
  }
  return all;
}

// Causal: a storm is known only once its threshold is crossed, so a pause
// that began earlier than that is linked at its first refresh after it.
void PauseTracker::link_to_storm(const PauseFrame& f, uint8_t p, Episode& ep, PauseVerdict& v) {
  const StormRef* s = storm_before(f.point, ep.start_ns);
  if (!s) return;
  ep.follows_storm = true;
  v.propagation |= static_cast<uint8_t>(1u << p);
  v.propagation_frame = s->storm_frame;
  v.propagation_point = s->point;
  if (events_) events_->propagation({s->point, f.point, s->storm_frame, ep.first_frame, f.frame, ep.start_ns - s->start_ns});
}

const PauseTracker::StormRef* PauseTracker::storm_before(uint32_t point, uint64_t ts_ns) {
  while (!storms_.empty() && storms_.front().end_ns + cfg_.propagation_window_ns < prune_before_ns_) {
    storms_.pop_front();
    ++storms_dropped_;
  }
  const StormRef* best = nullptr;
  for (const StormRef& s : storms_) {
    if (s.point == point || ts_ns < s.start_ns || ts_ns > s.end_ns + cfg_.propagation_window_ns) continue;
    if (!best || s.start_ns < best->start_ns) best = &s;
  }
  return best;
}

}  // namespace roceshark::pfc
