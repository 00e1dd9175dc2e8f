// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/analysis/hop_matcher.h"

#include <algorithm>

#include "epan-ext/decode/psn.h"

namespace roceshark::hop {
namespace {

int path_index(const std::vector<uint32_t>& order, uint32_t point) {
  auto it = std::find(order.begin(), order.end(), point);
  return it == order.end() ? -1 : static_cast<int>(it - order.begin());
}

}  // namespace

int64_t HopMatcher::corrected(const Copy& c) const {
  return static_cast<int64_t>(c.ts_ns) - clocks_.offset(c.point);
}

void HopMatcher::learn_path(FlowPath& path, uint32_t up, uint32_t down) {
  auto& pts = path.points;
  const auto iu = std::find(pts.begin(), pts.end(), up), id = std::find(pts.begin(), pts.end(), down);
  if (iu == pts.end() && id == pts.end()) {
    pts.push_back(up);
    pts.push_back(down);
  } else if (iu == pts.end()) {
    pts.insert(id, up);
  } else if (id == pts.end()) {
    pts.insert(iu + 1, down);
  }
}

// Is `o` (seen earlier in the file, at another point) upstream of `c` for
// this flow? Traffic both ways decides it whatever the clocks; then the path
// order preference; then the timestamps.
bool HopMatcher::upstream(const Copy& o, const Copy& c, uint32_t flow) {
  if (const int s = clocks_.order(o.point, c.point, flow)) return s > 0;
  const int io = path_index(cfg_.path_order, o.point), ic = path_index(cfg_.path_order, c.point);
  if (io >= 0 && ic >= 0) {
    FlowPath& path = paths_[flow];
    if (!path.pref_forward) path.pref_forward = (io < ic) == (corrected(o) <= corrected(c)) ? 1 : -1;
    return (io < ic) == (path.pref_forward > 0);
  }
  return corrected(o) <= corrected(c);
}

std::optional<HopVerdict> HopMatcher::on_packet(uint64_t id, uint32_t flow, uint32_t reverse, const Copy& c) {
  // Time is the latest timestamp yet: a file whose time jumps back (two
  // captures concatenated, not merged) cannot hold state open.
  now_ns_ = std::max(now_ns_, c.ts_ns);
  if (!active_) {
    if (only_point_ == UINT32_MAX) only_point_ = c.point;
    if (c.point == only_point_) {
      while (!waiting_.empty() && now_ns_ - std::min(now_ns_, waiting_.front().copy.ts_ns) > cfg_.match_window_ns)
        waiting_.pop_front();
      waiting_.push_back({id, flow, reverse, c});
      return std::nullopt;
    }
    active_ = true;  // a second point: what the first saw within the window is matched from here on
    for (const Waiting& w : waiting_) match(w.id, w.flow, w.reverse, w.copy);
    waiting_ = {};
  }
  return match(id, flow, reverse, c);
}

uint64_t HopMatcher::passed_elsewhere_once(uint64_t id, uint32_t point) {
  const Group* g = active_ ? groups_.find(id) : nullptr;
  if (!g || !g->n) return 0;
  uint64_t latest = 0;
  for (size_t i = 0; i < g->n; ++i) {
    const Copy& x = g->at(i);
    if (x.point == point) return 0;
    for (size_t j = 0; j < i; ++j)
      if (g->at(j).point == x.point) return 0;
    latest = std::max(latest, x.ts_ns);
  }
  return latest;
}

void HopMatcher::Group::push(const Copy& c) {
  if (n < 3) inline_copies[n] = c;
  else more.push_back(c);
  ++n;
}

std::optional<HopVerdict> HopMatcher::match(uint64_t id, uint32_t flow, uint32_t reverse, const Copy& c) {
  evict(std::max(now_ns_, c.ts_ns));
  Group* found = groups_.find(id);
  Group& g = found ? *found : groups_.insert(id, c.ts_ns);
  if (!found) g.flow = flow;
  if (g.n >= kMaxCopies) {  // hostile repetition: not matched
    ++copies_unmatched_;
    return std::nullopt;
  }
  Copy same[kMaxCopies];
  size_t n_same = 0;
  for (size_t i = 0; i < g.n; ++i) {
    const Copy& x = g.at(i);
    bool first_at_point = x.point != c.point;  // each other point once
    for (size_t j = 0; j < i && first_at_point; ++j) first_at_point = g.at(j).point != x.point;
    if (!first_at_point) continue;
    if (const Copy* m = counterpart(g, c, x.point, flow)) same[n_same++] = *m;
  }
  auto keep = [&] {
    g.push(c);
    // Every copy waits for the next point, whether or not the path is known yet.
    auto& q = pending_[uint64_t{flow} << 32 | c.point];
    const uint64_t now = std::max(now_ns_, c.ts_ns);
    while (!q.empty() && now - std::min(now, q.front().ts_ns) > cfg_.match_window_ns) q.pop_front();
    q.push_back({c.frame, c.len, c.original_request, c.ts_ns, c.psn});
  };
  if (n_same == 0) {
    keep();
    return std::nullopt;
  }

  for (size_t i = 0; i < n_same; ++i)
    if (clocks_.observe(same[i].point, same[i].ts_ns, c.point, c.ts_ns, flow, reverse) &&
        cfg_.clock_mode == ClockMode::synced)
      if (events_) events_->clock_skew({c.frame, std::min(same[i].point, c.point), std::max(same[i].point, c.point), c.ts_ns});
  const Copy* prev = nullptr;
  for (size_t i = 0; i < n_same; ++i)
    if (upstream(same[i], c, flow) && (!prev || corrected(same[i]) > corrected(*prev))) prev = &same[i];
  if (!prev) {
    // The most upstream copy, stamped after a downstream one (clock error
    // above the hop latency): no verdict, but the packet did arrive there.
    const Copy* next = &same[0];
    for (size_t i = 1; i < n_same; ++i)
      if (corrected(same[i]) < corrected(*next)) next = &same[i];
    keep();
    learn_path(paths_[flow], c.point, next->point);
    if (next_point(flow, c.point) == next->point) arrived(flow, c.point, next->point, c.frame, next->frame);
    return std::nullopt;
  }

  HopVerdict v;
  v.frame = c.frame;
  v.prev_point = prev->point;
  v.prev_frame = prev->frame;
  v.latency_ns = corrected(c) - corrected(*prev);
  v.ttl_delta = static_cast<int16_t>(c.ttl - prev->ttl);
  v.prev_dscp = prev->dscp;
  v.prev_pcp = prev->pcp;
  v.prev_ecn = prev->ecn;
  v.prev_vlan = prev->vlan, v.vlan = c.vlan;
  v.prev_len = prev->len;
  // A tag stripped, added or moved to another VLAN is a change of its own
  // (its PCP goes or comes with it); a PCP rewritten within one tag is a remark.
  v.vlan_changed = (c.pcp < 0) != (prev->pcp < 0) || c.vlan != prev->vlan;
  v.remarked = c.dscp != prev->dscp || (!v.vlan_changed && c.pcp != prev->pcp);
  // A device that clears ECN hides congestion: no CE reaches the receiver,
  // no CNP the sender, and DCQCN never slows down.
  v.ecn_bleached = (prev->ecn != 0 && c.ecn == 0) || (prev->ecn == 3 && c.ecn != 3);
  v.ce_set = c.ecn == 3 && prev->ecn != 3;
  v.negative = v.latency_ns < 0;
  learn_path(paths_[flow], prev->point, c.point);
  v.overtaken = next_point(flow, prev->point) == c.point && arrived(flow, prev->point, c.point, prev->frame, c.frame);

  const Copy* first = prev;
  for (size_t i = 0; i < n_same; ++i)
    if (corrected(same[i]) < corrected(*first)) first = &same[i];
  v.first_point = first->point;
  v.e2e_ns = corrected(c) - corrected(*first);

  HopState& h = hops_[{prev->point, c.point, flow}];
  h.min_latency_ns = std::min(h.min_latency_ns, v.latency_ns);
  h.largest_passed = std::max(h.largest_passed, prev->len);
  v.queue_ns = nonnegative_ns(v.latency_ns - h.min_latency_ns);
  v.negative_first = v.negative && !h.negative_reported;
  h.negative_reported |= v.negative;
  v.remark_first = v.remarked && !h.remark_reported;
  h.remark_reported |= v.remarked;
  v.bleach_first = v.ecn_bleached && !h.bleach_reported;
  h.bleach_reported |= v.ecn_bleached;
  v.vlan_first = v.vlan_changed && !h.vlan_reported;
  h.vlan_reported |= v.vlan_changed;
  v.microburst = !v.overtaken && v.queue_ns > cfg_.microburst_ns;
  v.burst_start = v.microburst && !h.in_burst;
  // A burst ends when the queue has drained to half the threshold: a few us
  // of jitter around the threshold is one burst, not several.
  if (v.microburst) h.in_burst = true;
  else if (!v.overtaken && v.queue_ns <= cfg_.microburst_ns / 2) h.in_burst = false;
  keep();
  return v;
}

// The k-th copy here is the k-th everywhere, counted among originals or
// among resends as each point's sequence analysis calls them; several
// resends there: the first still in flight. Neither rule can apply (a tap
// missed the other kind): the k-th copy of any kind.
const Copy* HopMatcher::counterpart(const Group& g, const Copy& c, uint32_t point, uint32_t flow) const {
  size_t k = 0, k_kind = 0;
  for (size_t i = 0; i < g.n; ++i)
    if (g.at(i).point == c.point) ++k, k_kind += g.at(i).resend == c.resend;
  const Copy *by_order = nullptr, *by_kind = nullptr, *flying = nullptr;
  size_t rank = 0, rank_kind = 0;
  for (size_t i = 0; i < g.n; ++i) {
    const Copy& x = g.at(i);
    if (x.point != point) continue;
    if (rank++ == k) by_order = &x;
    if (x.resend != c.resend) continue;
    if (rank_kind++ == k_kind) by_kind = &x;
    if (c.resend && !flying && in_flight(flow, point, x.frame)) flying = &x;
  }
  if (flying && rank_kind > 1) return flying;
  return by_kind ? by_kind : by_order;
}

bool HopMatcher::in_flight(uint32_t flow, uint32_t point, uint32_t frame) const {
  auto it = pending_.find(uint64_t{flow} << 32 | point);
  return it != pending_.end() &&
         std::any_of(it->second.begin(), it->second.end(), [&](const Pending& p) { return p.frame == frame; });
}

void HopMatcher::evict(uint64_t now_ns) {
  groups_.expire(now_ns - std::min(now_ns, cfg_.match_window_ns));
  // Each queue is trimmed when it grows; now and then sweep them all, so the
  // queues of flows that went quiet are bounded by the window too. Sweeping
  // no more often than there are queues keeps it O(1) per packet.
  if (++since_sweep_ < std::max<size_t>(kSweepEvery, pending_.size())) return;
  since_sweep_ = 0;
  auto old = [&](uint64_t ts) { return now_ns - std::min(now_ns, ts) > cfg_.match_window_ns; };
  for (auto it = pending_.begin(); it != pending_.end();) {
    while (!it->second.empty() && old(it->second.front().ts_ns)) it->second.pop_front();
    it = it->second.empty() ? pending_.erase(it) : std::next(it);
  }
}

uint16_t HopMatcher::largest_passed(uint32_t from, uint32_t to) const {
  uint16_t most = 0;
  for (auto it = hops_.lower_bound({from, to, 0}); it != hops_.end() && it->first.from == from && it->first.to == to; ++it)
    most = std::max(most, it->second.largest_passed);
  return most;
}

uint32_t HopMatcher::next_point(uint32_t flow, uint32_t point) const {
  auto it = paths_.find(flow);
  if (it == paths_.end()) return UINT32_MAX;
  const auto& pts = it->second.points;
  auto p = std::find(pts.begin(), pts.end(), point);
  return p == pts.end() || p + 1 == pts.end() ? UINT32_MAX : *(p + 1);
}

// A packet of `flow` reached `to` from `from`: the flow's packets that
// passed `from` before it and never reached `to` were lost in between.
bool HopMatcher::arrived(uint32_t flow, uint32_t from, uint32_t to, uint32_t prev_frame, uint32_t frame) {
  const HopKey key{from, to, flow};
  HopState& h = hops_[key];
  if (h.lost_frames.erase(prev_frame)) {  // overtaken, not lost
    if (events_) events_->hop_reordered(key, prev_frame, frame);
    return true;
  }
  auto it = pending_.find(uint64_t{flow} << 32 | from);
  if (it == pending_.end()) return false;
  auto& q = it->second;
  const bool queued = std::any_of(q.begin(), q.end(), [&](const Pending& p) { return p.frame == prev_frame; });
  if (!queued) return false;
  while (!q.empty()) {
    const Pending p = q.front();
    q.pop_front();
    if (p.frame == prev_frame) break;
    h.lost_frames.insert(p.frame);
    if (events_) events_->hop_lost(key, p.frame, p.len, p.ts_ns, p.psn);
    if (!p.original_request) continue;
    auto& s = suspects_[flow];
    if (s.size() == kMaxSuspects) s.pop_front(), ++suspects_dropped_;
    s.push_back({key, p.frame, p.psn});
  }
  return false;
}

void HopMatcher::resent(uint32_t flow, uint32_t psn) {
  auto it = suspects_.find(flow);
  if (it == suspects_.end()) return;
  std::erase_if(it->second, [&](const Suspect& s) { return s.psn == psn; });
  if (it->second.empty()) suspects_.erase(it);
}

void HopMatcher::acknowledged(uint32_t flow, uint32_t psn, uint32_t frame, uint32_t point) {
  auto it = suspects_.find(flow);
  if (it == suspects_.end()) return;
  std::erase_if(it->second, [&](const Suspect& s) {
    if (s.key.from != point || psn::after(s.psn, psn)) return false;
    auto h = hops_.find(s.key);
    if (h != hops_.end() && h->second.lost_frames.erase(s.frame) && events_) events_->hop_missed(s.key, s.frame, frame);
    return true;
  });
  if (it->second.empty()) suspects_.erase(it);
}

}  // namespace roceshark::hop
