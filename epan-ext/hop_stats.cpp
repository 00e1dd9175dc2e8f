// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/hop_stats.h"

#include <algorithm>

namespace roceshark::hop {

void HopStats::add(const TapRecord& r) {
  analyzer_ = r.analyzer;
  const Verdict* v = r.verdict;
  if (!v || v->flow == kNoId || v->seq == SeqClass::duplicate) return;
  if (v->role != Role::request && v->role != Role::response && v->role != Role::cnp) return;
  const HopVerdict* h = v->has_hop ? r.analyzer->find_hop(v->frame) : nullptr;
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
  row.queue_ns.add(h->queue_ns);
  if (h->remarked && !row.remarked++) row.first_remark_frame = v->frame;
  row.ce_set += h->ce_set;
  row.ttl_changed += h->ttl_delta != 0;
  if (h->burst_start && !row.bursts++) row.first_burst_frame = v->frame;
  row.negative += h->negative;

  // End to end, from the most upstream point the flow's packets are seen at.
  QpPathRow& q = qps_[v->flow];
  if (q.e2e_ns.empty()) q.first_point = h->first_point;
  if (h->first_point == q.first_point) q.e2e_ns[v->point].add(nonnegative_ns(h->e2e_ns));
}

std::map<std::pair<uint32_t, uint32_t>, HopState> HopStats::losses() const {
  std::map<std::pair<uint32_t, uint32_t>, HopState> lost;
  if (!analyzer_) return lost;
  for (const auto& [k, st] : analyzer_->hops().hops()) {
    HopState& l = lost[{k.from, k.to}];
    if (st.lost && (!l.lost || st.first_loss_frame < l.first_loss_frame)) l.first_loss_frame = st.first_loss_frame;
    l.lost += st.lost;
    if (st.reordered && (!l.reordered || st.first_reorder_frame < l.first_reorder_frame))
      l.first_reorder_frame = st.first_reorder_frame;
    l.reordered += st.reordered;
  }
  return lost;
}

}  // namespace roceshark::hop
