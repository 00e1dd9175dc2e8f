// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/report/pfc_stats.h"

#include <algorithm>

namespace roceshark::pfc {

void PfcStats::add(const TapRecord& r) {
  if (!seen_) first_ns_ = r.ts_ns;
  seen_ = true;
  first_ns_ = std::min(first_ns_, r.ts_ns);
  last_ns_ = std::max(last_ns_, r.ts_ns);

  if (const PauseVerdict* v = r.pause) {
    if (v->beyond != LimitKind::none) {
      ++beyond_[static_cast<size_t>(v->beyond)];
      return;
    }
    bad_frames_ += v->reserved_bits || v->nonstandard_dst || v->truncated;
    for (uint8_t p = 0; p < 8; ++p) {
      const auto bit = static_cast<uint8_t>(1u << p);
      if (!(v->enabled & bit)) continue;
      const Key key{v->point, v->src, p};
      PfcRow& row = rows_[key];
      row.point = v->point, row.mac = v->src, row.priority = p;
      ++row.frames;
      ++((v->xon & bit) ? row.xon : row.xoff);
      row.no_ecn += (v->no_ecn & bit) != 0;
      row.propagated += (v->propagation & bit) != 0;
      row.wrong_class = row.wrong_class || (v->wrong_class_first & bit);
      by_frame_[v->frame] = key;
    }
    return;
  }
  const Verdict* v = r.verdict;
  if (!v) return;
  lossy_ += v->pfc.lossy_first;
  if (!v->pfc.held && !v->pfc.unattributed) return;
  auto it = by_frame_.find(v->pfc.pause_frame);
  if (it == by_frame_.end()) return;  // the PFC frame was filtered out
  if (v->pfc.unattributed) {
    ++rows_[it->second].unattributed;
    return;
  }
  StalledQp& q = rows_[it->second].qps[v->row_flow];
  ++q.held_packets;
  q.stall_ns += v->pfc.stall_ns;
}

void PfcStats::settle(const EventLog& log, const FrameSet& selected) {
  episodes_.clear();
  for (const Episode& e : log.episodes())
    if (selected.contains(e.first_frame)) episodes_[{e.point, e.mac, e.priority}].push_back(e);
  propagations_.clear();
  for (const Propagation& p : log.propagations())
    if (selected.contains(p.found_frame)) propagations_.push_back(p);
}

PauseSummary PfcStats::summary(const Key& k) const {
  PauseSummary s;
  const auto it = episodes_.find(k);
  if (it == episodes_.end()) return s;
  for (const Episode& e : it->second) {
    s.paused_ns += e.paused_ns;
    s.longest_ns = std::max(s.longest_ns, e.end_ns - e.start_ns);
    s.storms += e.storm;
    s.chatter += e.chatter;
  }
  return s;
}

}  // namespace roceshark::pfc
