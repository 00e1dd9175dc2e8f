// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/analysis/clock_offset.h"

#include <algorithm>

namespace roceshark::hop {

const ClockEstimator::Pair* ClockEstimator::pair(uint32_t a, uint32_t b) const {
  auto it = pairs_.find(key(std::min(a, b), std::max(a, b)));
  return it == pairs_.end() ? nullptr : &it->second;
}

bool ClockEstimator::observe(uint32_t a, uint64_t ta_ns, uint32_t b, uint64_t tb_ns, uint32_t flow, uint32_t reverse) {
  if (a == b) return false;
  reference_ = std::min({reference_, a, b});
  if (reverse != UINT32_MAX) reverse_of_[flow] = reverse;
  const uint32_t p = std::min(a, b), q = std::max(a, b);
  const int64_t d = static_cast<int64_t>(p == a ? tb_ns - ta_ns : ta_ns - tb_ns);
  Pair& pr = pairs_[key(p, q)];
  Spread& s = pr.by_flow[flow];
  s.min = std::min(s.min, d);
  s.max = std::max(s.max, d);
  ++s.n;
  ++pr.samples;
  auto rit = reverse_of_.find(flow);
  if (rit == reverse_of_.end()) return false;
  auto oit = pr.by_flow.find(rit->second);
  if (oit == pr.by_flow.end()) return false;
  const Spread& o = oit->second;
  // Separated spreads bound the offset: between the smaller side's largest
  // d and the larger side's smallest.
  if (s.min > o.max) pr.lo = std::max(pr.lo, o.max), pr.hi = std::min(pr.hi, s.min);
  else if (o.min > s.max) pr.lo = std::max(pr.lo, s.max), pr.hi = std::min(pr.hi, o.min);
  if (pr.proven || pr.lo > pr.hi || !(pr.lo > 0 || pr.hi < 0)) return false;
  return pr.proven = true;
}

std::optional<ClockEstimator::Estimate> ClockEstimator::estimate(uint32_t a, uint32_t b) const {
  const uint32_t p = std::min(a, b), q = std::max(a, b);
  const Pair* pr = pair(p, q);
  if (!pr || pr->lo == INT64_MIN || pr->hi == INT64_MAX || pr->lo > pr->hi) return std::nullopt;
  return Estimate{p, q, pr->lo + (pr->hi - pr->lo) / 2, (pr->hi - pr->lo) / 2, pr->samples};
}

int ClockEstimator::order(uint32_t up, uint32_t down, uint32_t flow) const {
  const Pair* pr = pair(up, down);
  auto rit = reverse_of_.find(flow);
  if (!pr || rit == reverse_of_.end()) return 0;
  auto f = pr->by_flow.find(flow), r = pr->by_flow.find(rit->second);
  if (f == pr->by_flow.end() || r == pr->by_flow.end()) return 0;
  // d is t_hi - t_lo: the flow whose d is larger crosses the lower point first.
  const int lower_first = f->second.min > r->second.max ? 1 : f->second.max < r->second.min ? -1 : 0;
  return up < down ? lower_first : -lower_first;
}

int64_t ClockEstimator::offset(uint32_t point) const {
  if (cfg_.clock_mode != ClockMode::estimate || point == reference_) return 0;
  const Pair* pr = pair(reference_, point);
  if (!pr || pr->lo == INT64_MIN || pr->hi == INT64_MAX || pr->lo > pr->hi) return 0;
  const int64_t mid = pr->lo + (pr->hi - pr->lo) / 2;  // the larger id's clock minus the smaller's
  return reference_ < point ? mid : -mid;
}

std::vector<ClockEstimator::Estimate> ClockEstimator::estimates() const {
  std::vector<Estimate> out;
  for (const auto& [k, pr] : pairs_)
    if (auto e = estimate(static_cast<uint32_t>(k >> 32), static_cast<uint32_t>(k))) out.push_back(*e);
  return out;
}

}  // namespace roceshark::hop
