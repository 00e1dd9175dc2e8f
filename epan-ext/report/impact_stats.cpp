// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/report/impact_stats.h"

#include <algorithm>
#include <set>

namespace roceshark::triage {

void ImpactStats::add(const TapRecord& r) {
  if (!seen_) timeline_.start(first_ns_ = r.ts_ns);
  seen_ = true;
  last_ns_ = std::max(last_ns_, r.ts_ns);
  timeline_.reach(r.ts_ns);
  const Verdict* v = r.verdict;
  if (!v || v->untracked() || v->truncated || v->row_flow == kNoId || v->seq == SeqClass::duplicate) return;
  if (v->role != Role::request && v->role != Role::response) return;
  QpImpact& q = row(*v);
  if (v->pfc.held && v->pfc.stall_ns) {
    // Nothing the capture shows starts before its first frame: no stall
    // longer than its span (a damaged frame's silence can reach back further).
    const uint64_t from = std::max(first_ns_, r.ts_ns - std::min(r.ts_ns, v->pfc.stall_ns));
    q.pause_ns += r.ts_ns - from;
    q.stalled.add(from, r.ts_ns);
    if (q.timeline < 0) q.timeline = timeline_.add_row();
    timeline_.spread(q.timeline, Timeline::paused_ns, from, r.ts_ns);
  }
  if (v->role == Role::request) {
    on_request(q, *v, r.ts_ns);
    resends_.add(*v, r.ts_ns);
  } else {
    on_response(q, *v, r.ts_ns);
  }
}

// A run whose NAK a late original took back was reordering's doing.
void ImpactStats::settle(const EventLog& log, const FrameSet&) {
  const auto& naks = log.nak_reorders();
  for (; nak_events_ < naks.size(); ++nak_events_) {
    std::set<uint64_t> rows;
    for (const NakResends::Resend& r : resends_.take(naks[nak_events_].nak_frame))
      rows.insert(uint64_t{r.flow} << 32 | r.point);
    for (uint64_t k : rows)
      if (auto it = rows_.find(k); it != rows_.end() && it->second.reorder_runs < it->second.runs)
        ++it->second.reorder_runs;
  }
}

QpImpact& ImpactStats::row(const Verdict& v) {
  auto [it, added] = rows_.try_emplace(uint64_t{v.row_flow} << 32 | v.point);
  if (added) it->second.stream = v.stream, it->second.flow = v.row_flow, it->second.point = v.point;
  return it->second;
}

void ImpactStats::recover(QpImpact& q, uint64_t from, uint64_t to) {
  from = std::max(from, first_ns_);  // as for pauses: never before the capture's first frame
  if (to <= from) return;
  (q.open_rnr ? q.rnr_ns : q.recovery_ns) += to - from;
  if (q.open_timeout) q.timeout_recovery_ns += to - from;
  if (q.open_rnr) return;
  q.stalled.add(from, to);
  timeline_.spread(q.timeline, Timeline::stalled_ns, from, to);
}

void ImpactStats::on_request(QpImpact& q, const Verdict& v, uint64_t ts) {
  q.ce += v.pkt.ecn == 3;
  if (!is_retransmission(v.seq)) {
    ++q.originals;
    // A late original overtaken by its resend arrives inside the resend run
    // and does not end it.
    if (v.seq != SeqClass::out_of_order) q.open = false;
    if (v.seq == SeqClass::gap && !q.evidence_ns) q.evidence_ns = ts;
    return;
  }
  ++q.retransmissions;
  if (q.timeline < 0) q.timeline = timeline_.add_row();
  timeline_.count(q.timeline, ts);
  if (q.open && !v.run_start) {
    recover(q, q.run_last_ns, ts);
    q.run_last_ns = ts;
    return;
  }
  // The engine's runs: a jump back, or a selective requester's next resend,
  // starts one while another is under way, and the stall goes on.
  const bool restart = q.open;
  q.open = true;
  q.open_timeout = v.seq == SeqClass::timeout_retransmission;
  q.open_rnr = v.seq == SeqClass::rnr_retry;
  uint64_t start = ts;
  if (q.open_rnr) {
    ++q.rnr_runs;
    if (q.rnr_nak_ns) start = q.rnr_nak_ns;
  } else {
    ++q.runs;
    q.reorder_runs += v.reorder_nak;
    if (q.open_timeout) {
      ++q.timeout_runs;
      start = ts - std::min(ts, v.quiet_ns);
    } else if (q.evidence_ns) {
      start = q.evidence_ns;
    }
  }
  // A QP waits once at a time: a run's stall starts no earlier than the
  // last run's end (a NAK seen during that run is its evidence, not the next's).
  start = restart ? q.run_last_ns : std::max({start, q.run_last_ns, first_ns_});
  if (q.open_timeout) q.timeout_ns += ts - std::max(start, ts - std::min(ts, v.quiet_ns));
  q.evidence_ns = q.rnr_nak_ns = 0;
  recover(q, start, ts);
  q.run_last_ns = ts;
}

void ImpactStats::on_response(QpImpact& q, const Verdict& v, uint64_t ts) {
  if (v.nak == NakCode::psn_sequence_error && !q.evidence_ns) q.evidence_ns = ts;
  if (v.nak == NakCode::rnr) q.rnr_nak_ns = ts;
}

std::map<std::pair<uint32_t, uint32_t>, const QpImpact*> ImpactStats::rows() const {
  std::map<std::pair<uint32_t, uint32_t>, const QpImpact*> out;
  for (const auto& [k, q] : rows_) out[{q.flow, q.point}] = &q;
  return out;
}

const QpImpact* ImpactStats::find(uint32_t flow, uint32_t point) const {
  const auto it = rows_.find(uint64_t{flow} << 32 | point);
  return it == rows_.end() ? nullptr : &it->second;
}

std::map<uint32_t, std::vector<const QpImpact*>> ImpactStats::by_flow() const {
  std::map<uint32_t, std::vector<const QpImpact*>> out;
  for (const auto& [k, q] : rows()) out[k.first].push_back(q);
  return out;
}

}  // namespace roceshark::triage
