// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/analysis/ecn_compare.h"

namespace roceshark::hop {

bool EcnRule::mismatched(const EcnEstimate& here, const EcnEstimate& ref, uint64_t unmarked_beyond) const {
  if (ref.state != EcnEstimate::State::marks || !unmarked_beyond) return false;
  if (here.state == EcnEstimate::State::marks) return here.onset_ns > limit(ref);
  return unmarked_beyond >= EcnThreshold::kMinMarked;
}

std::vector<EcnMismatch> ecn_mismatches(const EcnThresholds& hops, const EcnRule& rule) {
  std::map<EcnPlace, EcnEstimate> est;
  for (const auto& [p, t] : hops) est.emplace(p, t.estimate());
  std::vector<EcnMismatch> out;
  for (const auto& [p, here] : est) {
    const std::pair<const EcnPlace, EcnEstimate>* ref = nullptr;
    for (const auto& other : est)
      if (other.first.priority == p.priority && other.first != p && other.second.state == EcnEstimate::State::marks &&
          (!ref || other.second.onset_ns < ref->second.onset_ns))
        ref = &other;
    if (!ref) continue;
    const uint64_t beyond = rule.limit(ref->second), unmarked = hops.at(p).unmarked_above(beyond);
    if (rule.mismatched(here, ref->second, unmarked)) out.push_back({p, ref->first, here, ref->second, beyond, unmarked});
  }
  return out;
}

std::optional<EcnSpread> ecn_spread(const EcnThresholds& hops) {
  std::map<EcnPlace, EcnEstimate> est;
  for (const auto& [p, t] : hops) est.emplace(p, t.estimate());
  std::array<const std::pair<const EcnPlace, EcnEstimate>*, 8> earliest{};
  for (const auto& e : est) {
    auto& ref = earliest[e.first.priority & 7];
    if (e.second.state == EcnEstimate::State::marks && (!ref || e.second.onset_ns < ref->second.onset_ns)) ref = &e;
  }
  std::optional<EcnSpread> out;
  for (const auto& [p, here] : est) {
    const auto* ref = earliest[p.priority & 7];
    if (!ref || ref->first == p || here.state == EcnEstimate::State::not_enough) continue;
    const bool never = here.state != EcnEstimate::State::marks;
    const uint64_t at = never ? hops.at(p).unmarked_depth(EcnThreshold::kMinMarked) : here.onset_ns, onset = ref->second.onset_ns;
    const uint64_t ns = at > onset ? at - onset : 0;
    if (!out || ns > out->ns) out = EcnSpread{ns, p, ref->first, never};
  }
  return out;
}

const EcnEstimate* EcnWatch::reference(const EcnPlace& p) const {
  for (const auto* h : earliest_[p.priority & 7])
    if (h && h->first != p) return &h->second.e;
  return nullptr;
}

void EcnWatch::rank(uint8_t priority) {
  auto& best = earliest_[priority & 7];
  best = {};
  for (const auto& h : hops_) {
    if (h.first.priority != priority || h.second.e.state != EcnEstimate::State::marks) continue;
    const uint64_t onset = h.second.e.onset_ns;
    if (!best[0] || onset < best[0]->second.e.onset_ns) best = {&h, best[0]};
    else if (!best[1] || onset < best[1]->second.e.onset_ns) best[1] = &h;
  }
}

bool EcnWatch::add(const EcnPlace& p, uint64_t queue_ns, bool marked) {
  Hop& h = hops_[p];
  h.t.add(queue_ns, marked);
  if (h.t.samples() >= h.next_estimate) {
    h.e = h.t.estimate();
    h.next_estimate = h.t.samples() + h.t.samples() / 4;
    rank(p.priority);
  }
  if (marked || h.e.state == EcnEstimate::State::not_enough) return false;
  const EcnEstimate* ref = reference(p);
  return ref && queue_ns > rule_.limit(*ref) && rule_.mismatched(h.e, *ref, h.t.unmarked_above(rule_.limit(*ref)));
}

}  // namespace roceshark::hop
