// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/report/hop_stats.h"

#include <algorithm>

namespace roceshark::hop {

void HopStats::add(const TapRecord& r) {
  facts_ = r.facts;
  const Verdict* v = r.verdict;
  if (v && v->beyond == LimitKind::none) points_.insert(v->point);
  if (!v || v->flow == kNoId || v->seq == SeqClass::duplicate) return;
  if (v->role != Role::request && v->role != Role::response && v->role != Role::cnp) return;
  const HopVerdict* h = r.hop;
  if (is_retransmission(v->seq) && !h) {  // the first point to see this resend
    QpPathRow& q = qps_[v->flow];
    ++q.retransmissions;
    ++q.retrans_first_seen[v->point];
  }
  if (!h) return;
  HopRow& row = hops_[{h->prev_point, v->point}];
  ++row.matched;
  row.min_latency_ns = std::min(row.min_latency_ns, h->latency_ns);
  row.max_latency_ns = std::max(row.max_latency_ns, h->latency_ns);
  row.latency_ns.add(nonnegative_ns(h->latency_ns));
  if (!h->overtaken) row.queue_ns.add(h->queue_ns);
  if (h->remarked && !row.remarked++) row.first_remark_frame = v->frame;
  if (h->vlan_changed && !row.vlan_changed++) row.first_vlan_frame = v->frame;
  row.largest_passed = std::max(row.largest_passed, h->prev_len);
  row.ce_set += h->ce_set;
  row.ttl_changed += h->ttl_delta != 0;
  if (h->burst_start && !row.bursts++) row.first_burst_frame = v->frame;
  row.negative += h->negative;
  if (ecn_sample(*h)) ecn_[{h->prev_point, v->point, v->pfc.priority}].add(h->queue_ns, h->ce_set);

  // End to end, from the most upstream point the flow's packets are seen at.
  QpPathRow& q = qps_[v->flow];
  if (q.e2e_ns.empty()) q.first_point = h->first_point;
  if (h->first_point == q.first_point) q.e2e_ns[v->point].add(nonnegative_ns(h->e2e_ns));
}

bool HopStats::settle(const EventLog& log, const FrameSet& selected, uint32_t upto) {
  bool changed = false;
  const auto& hops = log.hop_changes();
  for (; hop_events_ < hops.size(); ++hop_events_) {
    const EventLog::HopChange& c = hops[hop_events_];
    if (std::max(c.lost_frame, c.reordered_frame) > upto) break;
    FlowLoss& l = lost_[c.key];
    if (!c.reordered_frame) {
      if (!selected.contains(c.lost_frame)) continue;
      changed |= l.lost_frames.emplace(c.lost_frame, FlowLoss::Lost{c.len, c.ts_ns}).second;
      hops_.try_emplace({c.key.from, c.key.to});  // a hop whose downstream frames the filter dropped still lost it
      continue;
    }
    const bool was_lost = l.lost_frames.erase(c.lost_frame) > 0;
    changed |= was_lost;
    if (c.missed) {  // it arrived: the tap at the hop's end missed it (capture quality)
      if (was_lost) ++missed_[c.key.to];
      continue;
    }
    if (selected.contains(c.reordered_frame) && !l.reordered++) l.first_reorder_frame = c.reordered_frame;
  }
  const auto& skews = log.skews();
  for (; skew_events_ < skews.size() && skews[skew_events_].frame <= upto; ++skew_events_)
    if (selected.contains(skews[skew_events_].frame)) skews_.push_back(skews[skew_events_]);
  const auto seen = [&](uint32_t p) { return points_.contains(p); };
  clocks_.clear();
  for (const auto& e : log.clock_estimates())
    if (seen(e.a) && seen(e.b)) clocks_.push_back(e);
  return changed;
}

std::map<HopKey, HopLoss> HopStats::flow_losses() const {
  std::map<HopKey, HopLoss> out;
  for (const auto& [k, l] : lost_) {
    if (l.lost_frames.empty() && !l.reordered) continue;
    HopLoss& o = out[k];
    o.lost = l.lost_frames.size();
    o.first_loss_frame = l.lost_frames.empty() ? 0 : l.lost_frames.begin()->first;
    for (const auto& [frame, lost] : l.lost_frames) o.when.add(lost.ts_ns);
    o.reordered = l.reordered;
    o.first_reorder_frame = l.first_reorder_frame;
  }
  return out;
}

std::map<std::pair<uint32_t, uint32_t>, HopLoss> HopStats::losses() const {
  std::map<std::pair<uint32_t, uint32_t>, HopLoss> lost;
  for (const auto& [k, st] : flow_losses()) {
    HopLoss& l = lost[{k.from, k.to}];
    if (st.lost && (!l.lost || st.first_loss_frame < l.first_loss_frame)) l.first_loss_frame = st.first_loss_frame;
    l.lost += st.lost;
    l.when.add(st.when);
    if (st.reordered && (!l.reordered || st.first_reorder_frame < l.first_reorder_frame))
      l.first_reorder_frame = st.first_reorder_frame;
    l.reordered += st.reordered;
  }
  return lost;
}

std::map<std::pair<uint32_t, uint32_t>, SizeSplit> HopStats::sizes() const {
  std::map<std::pair<uint32_t, uint32_t>, SizeSplit> out;
  for (const auto& [k, l] : lost_) {
    if (l.lost_frames.empty()) continue;
    SizeSplit& s = out[{k.from, k.to}];
    const auto row = hops_.find({k.from, k.to});
    s.largest_passed = row == hops_.end() ? 0 : row->second.largest_passed;
    s.lost += l.lost_frames.size();
    for (const auto& [frame, lost] : l.lost_frames) {
      const uint16_t len = lost.len;
      if (len <= s.largest_passed) continue;
      s.when.add(lost.ts_ns);
      if (!s.above++ || len < s.smallest_above) s.smallest_above = len;
      s.flows.insert(k.flow);
      s.frames.push_back(frame);
    }
  }
  for (auto& [k, s] : out) {
    std::sort(s.frames.begin(), s.frames.end());
    if (s.frames.size() > SizeSplit::kFrames) s.frames.resize(SizeSplit::kFrames);
  }
  return out;
}

}  // namespace roceshark::hop
