// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/analysis/stored_analysis.h"

#include <algorithm>

namespace roceshark {
namespace {

template <typename T>
const T* by_frame(const std::deque<T>& kept, uint32_t frame) {
  auto it = std::lower_bound(kept.begin(), kept.end(), frame, [](const T& v, uint32_t f) { return v.frame < f; });
  return it != kept.end() && it->frame == frame ? &*it : nullptr;
}

// Whether `frame` was kept already (frames come in order).
template <typename T>
const T* again(const std::deque<T>& kept, uint32_t frame) {
  return !kept.empty() && frame <= kept.back().frame ? by_frame(kept, frame) : nullptr;
}

}  // namespace

Verdict StoredAnalysis::process(const PacketInfo& p) {
  if (p.frame <= verdicts_.last_frame())
    if (std::optional<Verdict> v = verdicts_.find(p.frame)) return *v;
  Verdict v = Analyzer::process(p);
  if (const auto rtts = last_rtt_samples(); !rtts.empty()) {
    v.rtt_first = static_cast<uint32_t>(rtt_samples_.size());
    rtt_samples_.insert(rtt_samples_.end(), rtts.begin(), rtts.end());
  }
  if (const hop::HopVerdict* h = last_hop()) hops_.push(*h);
  if (p.icrc == IcrcState::bad && !v.truncated) icrc_expected_[p.frame] = p.icrc_expected;
  retime(p.frame, p.ts_ns);
  verdicts_.push(v);
  return v;
}

const pfc::PauseVerdict& StoredAnalysis::process(const pfc::PauseFrame& f) {
  if (const pfc::PauseVerdict* v = again(pauses_, f.frame)) return *v;
  const pfc::PauseVerdict& v = pauses_.emplace_back(Analyzer::process(f));
  retime(f.frame, f.ts_ns);
  return v;
}

const qos::DcbxVerdict& StoredAnalysis::process(uint32_t frame, uint64_t ts_ns, const qos::DcbxAnnouncement& a) {
  if (const qos::DcbxVerdict* v = again(dcbx_, frame)) return *v;
  const qos::DcbxVerdict& v = dcbx_.emplace_back(Analyzer::process(frame, ts_ns, a));
  retime(frame, ts_ns);
  return v;
}

const icmp::Verdict& StoredAnalysis::process(const icmp::TooBig& m) {
  if (const icmp::Verdict* v = again(icmp_, m.frame)) return *v;
  const icmp::Verdict& v = icmp_.emplace_back(Analyzer::process(m));
  retime(m.frame, m.ts_ns);
  return v;
}

uint64_t StoredAnalysis::analysis_ts(uint32_t frame, uint64_t ts_ns) const {
  const auto it = retimed_.find(frame);
  return it == retimed_.end() ? ts_ns : it->second;
}

std::optional<Verdict> StoredAnalysis::find(uint32_t frame) const { return verdicts_.find(frame); }
const pfc::PauseVerdict* StoredAnalysis::find_pause(uint32_t frame) const { return by_frame(pauses_, frame); }
const qos::DcbxVerdict* StoredAnalysis::find_dcbx(uint32_t frame) const { return by_frame(dcbx_, frame); }
const icmp::Verdict* StoredAnalysis::find_icmp(uint32_t frame) const { return by_frame(icmp_, frame); }

std::optional<uint32_t> StoredAnalysis::icrc_expected(uint32_t frame) const {
  auto it = icrc_expected_.find(frame);
  return it == icrc_expected_.end() ? std::nullopt : std::optional(it->second);
}

}  // namespace roceshark
