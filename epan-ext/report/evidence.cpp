// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/report/evidence.h"

#include <algorithm>

namespace roceshark::triage {
uint64_t mac_key(const Mac& m) {
  uint64_t x = 0;
  for (uint8_t b : m) x = x << 8 | b;
  return x;
}

uint64_t remark_key(uint8_t old_dscp, uint8_t new_dscp, int8_t old_pcp, int8_t new_pcp) {
  return uint64_t{old_dscp} << 24 | uint64_t{new_dscp} << 16 | uint64_t(static_cast<uint8_t>(old_pcp + 1)) << 8 |
         static_cast<uint8_t>(new_pcp + 1);
}

template <bool kLowest>
void FewFrames<kLowest>::add(uint32_t frame, uint64_t ts_ns) {
  if (n == kFrames && before(frames[n - 1], frame)) return;
  size_t i = n < kFrames ? n++ : n - 1;
  for (; i > 0 && before(frame, frames[i - 1]); --i) frames[i] = frames[i - 1], ns[i] = ns[i - 1];
  frames[i] = frame, ns[i] = ts_ns;
}

template <bool kLowest>
void FewFrames<kLowest>::remove(uint32_t frame) {
  const auto it = std::find(frames.begin(), frames.begin() + n, frame);
  if (it == frames.begin() + n) return;
  const auto i = static_cast<size_t>(it - frames.begin());
  std::copy(frames.begin() + i + 1, frames.begin() + n, frames.begin() + i);
  std::copy(ns.begin() + i + 1, ns.begin() + n, ns.begin() + i);
  --n;
}

template struct FewFrames<true>;
template struct FewFrames<false>;

void Evidence::add(uint32_t frame, uint64_t ts_ns, uint32_t stream) {
  ++count;
  if (stream != kNoId) streams.insert(stream);
  first_.add(frame, ts_ns);
  last_.add(frame, ts_ns);
  when_.add(ts_ns);
}

// With no frame kept at an end, that end's time stays the one taken back.
void Evidence::remove(uint32_t frame) {
  if (count) --count;
  first_.remove(frame);
  last_.remove(frame);
  if (first_.n) when_.first_ns = first_.ns[0];
  if (last_.n) when_.last_ns = last_.ns[0];
}

void EvidenceStats::add(const TapRecord& r) {
  if (r.pause) add_pause(*r.pause, r.ts_ns);
  if (r.verdict) add_roce(r, *r.verdict);
  if (r.icmp && r.icmp->below && r.icmp->report != kNoId)
    note(Clue::mtu_mismatch, r.icmp->report, r.icmp->point, 0, r.icmp->frame, r.ts_ns, r.icmp->stream);
}

void EvidenceStats::add_pause(const pfc::PauseVerdict& v, uint64_t ts) {
  if (v.reserved_bits || v.nonstandard_dst || v.truncated || v.runt) note(Clue::bad_pfc, v.point, 0, 0, v.frame, ts);
  const uint64_t mac = mac_key(v.src);
  for (uint8_t p = 0; p < 8; ++p) {
    const auto bit = static_cast<uint8_t>(1u << p);
    if (v.storm & bit) note(Clue::storm, v.point, p, mac, v.frame, ts);
    if (v.chatter & bit) note(Clue::chatter, v.point, p, mac, v.frame, ts);
    if (v.no_ecn & bit) note(Clue::no_ecn, v.point, p, mac, v.frame, ts);
    if (v.propagation & bit) note(Clue::propagation, v.point, p, mac, v.frame, ts);
    if (v.wrong_class_first & bit) note(Clue::wrong_class, v.point, p, mac, v.frame, ts);
  }
}

void EvidenceStats::add_roce(const TapRecord& r, const Verdict& v) {
  if (v.untracked() || v.truncated || v.row_flow == kNoId) return;
  const uint32_t s = v.stream;
  const uint64_t ts = r.ts_ns;
  if (v.seq == SeqClass::duplicate) {
    note(Clue::duplicate, v.point, 0, 0, v.frame, ts, s);
    return;
  }
  if (v.role == Role::cnp && v.flow != kNoId && v.row_flow != v.flow) cnp_answered_.insert(v.row_flow);
  if (v.merged_points) note(Clue::merged, v.point, 0, 0, v.frame, ts, s);
  for (size_t c = 0; v.qos.failed && c < qos::kChecks; ++c)
    if (v.qos.failed & (1u << c)) note(Clue::qos, static_cast<uint32_t>(c), v.point, 0, v.frame, ts, s);
  if (const hop::HopVerdict* h = r.hop) {
    if (h->remarked)
      note(Clue::remark, h->prev_point, v.point, remark_key(h->prev_dscp, v.pkt.dscp, h->prev_pcp, v.pkt.pcp), v.frame, ts, s);
    if (h->vlan_changed) note(Clue::vlan, h->prev_point, v.point, hop::vlan_change(*h, v.pkt.pcp).key(), v.frame, ts, s);
    if (h->ecn_bleached) note(Clue::ecn_bleached, h->prev_point, v.point, 0, v.frame, ts, s);
    if (h->cnp_wait_ns) note(Clue::cnp_queued, h->prev_point, v.point, 0, v.frame, ts, s);
    if (h->be_share_pct) add_starved(*h, v, ts);
    if (h->ecn_unmarked) note(Clue::ecn_unmarked, h->prev_point, v.point, v.pfc.priority, v.frame, ts, s);
    if (h->burst_start) note(Clue::burst, h->prev_point, v.point, 0, v.frame, ts, s);
    if (h->negative) note(Clue::negative, h->prev_point, v.point, 0, v.frame, ts, s);
  }
  if (v.pkt.icrc == IcrcState::bad) note(Clue::icrc, v.row_flow, v.point, 0, v.frame, ts, s);
  const bool loss_sign = is_loss_sign(v);
  if (loss_sign) note(Clue::loss, v.row_flow, v.point, 0, v.frame, ts, s);
  resends_.add(v, ts);
  if (v.seq == SeqClass::timeout_retransmission) note(Clue::timeout, v.row_flow, v.point, 0, v.frame, ts, s);
  if (v.reorder_nak) note(Clue::reorder_nak, v.row_flow, v.point, 0, v.frame, ts, s);
  if (v.seq == SeqClass::out_of_order && !v.reorder_nak) note(Clue::reorder, v.row_flow, v.point, 0, v.frame, ts, s);
  if (v.nak == NakCode::rnr) note(Clue::rnr, v.row_flow, v.point, 0, v.frame, ts, s);
  if (v.nak != NakCode::none && v.nak != NakCode::rnr && v.nak != NakCode::psn_sequence_error)
    note(Clue::nak_error, static_cast<uint32_t>(v.nak), v.point, 0, v.frame, ts, s);
  if (v.role == Role::request && v.pkt.ecn == 3) note(Clue::ce, v.row_flow, v.point, 0, v.frame, ts, s);
  if (v.cnp_missing) note(Clue::ce_without_cnp, v.row_flow, v.point, 0, v.frame, ts, s);
  // The engine flags the first loss sign on a priority without PFC; the
  // ones after it at that place are evidence too.
  const std::pair place{v.point, uint32_t{v.pfc.priority}};
  if (v.pfc.lossy_first) lossy_.try_emplace(place, v.frame);
  if (v.pfc.lossy_first || (loss_sign && lossy_.contains(place))) note(Clue::lossy, place.first, place.second, 0, v.frame, ts, s);
}

void EvidenceStats::add_starved(const hop::HopVerdict& h, const Verdict& v, uint64_t ts) {
  const auto [it, first] = starved_.try_emplace({h.prev_point, v.point});
  StarvedHop& sh = it->second;
  if (first) sh.priority = v.pfc.priority;
  sh.max_wait_ns = std::max(sh.max_wait_ns, h.queue_ns);
  sh.max_share_pct = std::max(sh.max_share_pct, h.be_share_pct);
  sh.max_be_wait_ns = std::max(sh.max_be_wait_ns, h.be_wait_ns);
  note(Clue::starved_by_besteffort, h.prev_point, v.point, 0, v.frame, ts, v.stream);
}

void EvidenceStats::take_back_loss(uint32_t frame, uint64_t ts_ns, uint32_t flow, uint32_t point, uint32_t stream, uint8_t priority) {
  const auto take_back = [&](const Key& k) {
    auto it = items_.find(k);
    if (it == items_.end()) return;
    it->second.remove(frame);
    if (!it->second.count) items_.erase(it);
  };
  take_back({Clue::loss, flow, point, 0});
  // Noted lossy when its place had been found lossy at or before it.
  const auto place = lossy_.find({point, uint32_t{priority}});
  if (place != lossy_.end() && place->second <= frame) take_back({Clue::lossy, point, priority, 0});
  note(Clue::reorder_nak, flow, point, 0, frame, ts_ns, stream);
}

void EvidenceStats::settle(const EventLog& log, const FrameSet& selected) {
  const auto& naks = log.nak_reorders();
  for (; nak_events_ < naks.size(); ++nak_events_) {
    const NakReorder& n = naks[nak_events_];
    // The resends it forced were selected when they were added.
    for (const NakResends::Resend& r : resends_.take(n.nak_frame))
      take_back_loss(r.frame, r.ts_ns, r.flow, r.point, r.stream, r.priority);
    if (selected.contains(n.nak_frame)) take_back_loss(n.nak_frame, n.nak_ts_ns, n.flow, n.point, n.stream, n.priority);
  }
}

}  // namespace roceshark::triage
