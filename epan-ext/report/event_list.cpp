// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/report/event_list.h"

#include <algorithm>
#include <set>

#include "epan-ext/decode/psn.h"
#include "epan-ext/report/evidence.h"

namespace roceshark::events {

const char* kind_name(Kind k) {
  switch (k) {
    case Kind::hop_loss: return "hop_loss";
    case Kind::psn_gap: return "psn_gap";
    case Kind::reorder: return "reorder";
    case Kind::resend_run: return "resend_run";
    case Kind::pause: return "pause";
    case Kind::remark: return "remark";
    case Kind::ce_onset: return "ce_onset";
  }
  return "?";
}

void EventList::add(const TapRecord& r) {
  if (r.verdict && !r.verdict->untracked() && !r.verdict->truncated) add_roce(r, *r.verdict);
}

void EventList::grow(std::map<Place, size_t>& open, const Place& place, const Event& next) {
  const auto [it, fresh] = open.try_emplace(place, events_.size());
  if (fresh) return events_.push_back(next);
  Event& e = events_[it->second];
  ++e.count;
  e.last_frame = next.frame;
  e.duration_ns = next.ts_ns - std::min(next.ts_ns, e.ts_ns);
}

void EventList::add_roce(const TapRecord& r, const Verdict& v) {
  Event e;
  e.ts_ns = r.ts_ns, e.point = v.point, e.flow = v.flow, e.frame = v.frame, e.priority = v.qos.priority;
  if (const hop::HopVerdict* h = r.hop) {
    Event at_hop = e;
    at_hop.point = h->prev_point, at_hop.to = v.point;
    const Place hop_place{v.flow, h->prev_point, v.point};
    if (h->remarked) {
      at_hop.kind = Kind::remark;
      at_hop.key = triage::remark_key(h->prev_dscp, v.pkt.dscp, h->prev_pcp, v.pkt.pcp);
      grow(remarks_, hop_place, at_hop);
    }
    if (h->ce_set) at_hop.kind = Kind::ce_onset, grow(ce_, hop_place, at_hop);
  }
  if (v.role != Role::request) return;
  const Place place{v.flow, v.point, kNoId};
  if (v.pkt.ecn == 3) {
    e.kind = Kind::ce_onset;
    grow(ce_, place, e);
  }
  if (is_retransmission(v.seq)) {
    // A run starts where the engine says; a resend whose start was not
    // tapped starts its own.
    if (v.run_start) runs_.erase(place);
    e.kind = Kind::resend_run, e.psn = v.pkt.psn, e.cause = v.seq, e.nak_frame = v.nak_frame;
    e.reorder_nak = v.reorder_nak;
    grow(runs_, place, e);
    return;
  }
  if (v.seq == SeqClass::duplicate) return;
  runs_.erase(place);  // a new request ends the run
  if (v.seq == SeqClass::gap) {
    e.kind = Kind::psn_gap, e.count = v.gap, e.psn = v.expected_psn;
    gaps_[{v.flow, v.point}].push_back(events_.size());
    events_.push_back(e);
  } else if (const auto at = gaps_.find({v.flow, v.point}); v.seq == SeqClass::out_of_order && at != gaps_.end()) {
    // A missing PSN arrived after all: reordering, once every one of a gap's has.
    for (auto it = at->second.rbegin(); it != at->second.rend(); ++it) {
      Event& g = events_[*it];
      const int32_t d = psn::diff(v.pkt.psn, g.psn);
      if (d < 0 || static_cast<uint64_t>(d) >= g.count) continue;
      if (++g.late == g.count) g.kind = Kind::reorder;
      g.last_frame = v.frame;
      break;
    }
  }
}

std::vector<Event> EventList::settled(const EventLog& log, const FrameSet& selected) const {
  std::vector<Event> all = events_;
  std::set<uint32_t> reorder_naks;
  for (const NakReorder& n : log.nak_reorders()) reorder_naks.insert(n.nak_frame);
  for (Event& e : all)
    if (e.kind == Kind::resend_run && e.nak_frame && reorder_naks.contains(e.nak_frame)) e.reorder_nak = true;

  // Losses between points, less those taken back (late, or missed by the tap).
  std::map<std::pair<uint32_t, uint32_t>, const EventLog::HopChange*> lost;  // (lost frame, to)
  for (const EventLog::HopChange& c : log.hop_changes()) {
    if (c.reordered_frame) lost.erase({c.lost_frame, c.key.to});
    else if (selected.contains(c.lost_frame)) lost.insert_or_assign({c.lost_frame, c.key.to}, &c);
  }
  for (const auto& [at, c] : lost) {
    Event e;
    e.kind = Kind::hop_loss, e.ts_ns = c->ts_ns, e.frame = c->lost_frame, e.psn = c->psn;
    e.point = c->key.from, e.to = c->key.to, e.flow = c->key.flow;
    all.push_back(e);
  }

  std::set<std::tuple<uint32_t, uint8_t, uint32_t>> open;
  for (const pfc::Episode& p : log.open_episodes()) open.insert({p.point, p.priority, p.first_frame});
  for (const pfc::Episode& p : log.episodes()) {
    if (!selected.contains(p.first_frame)) continue;
    Event e;
    e.kind = Kind::pause, e.ts_ns = p.start_ns, e.point = p.point, e.frame = p.first_frame, e.count = p.frames;
    e.duration_ns = p.end_ns - std::min(p.end_ns, p.start_ns), e.paused_ns = p.paused_ns, e.priority = p.priority;
    e.mac = p.mac, e.storm = p.storm, e.chatter = p.chatter, e.open = p.end_ns > last_ns_ && open.contains({p.point, p.priority, p.first_frame});
    all.push_back(e);
  }
  std::stable_sort(all.begin(), all.end(), [](const Event& a, const Event& b) {
    return std::tie(a.ts_ns, a.frame, a.kind) < std::tie(b.ts_ns, b.frame, b.kind);
  });
  return all;
}

}  // namespace roceshark::events
