// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/report/findings.h"

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <tuple>
#include <utility>

#include "epan-ext/report/findings_builder.h"

namespace roceshark::triage {

const char* severity_name(Severity s) {
  switch (s) {
    case Severity::note: return "note";
    case Severity::warning: return "warning";
    case Severity::error: return "error";
  }
  return "?";
}

namespace detail {

std::string streams_text(const std::set<uint32_t>& streams) {
  std::string s = streams.size() == 1 ? "stream " : "streams ";
  size_t n = 0;
  for (uint32_t st : streams) {
    if (n == 8) return s + ", ... (" + std::to_string(streams.size()) + ")";
    s += (n++ ? ", " : "") + std::to_string(st);
  }
  return s;
}

std::string Builder::points(const std::set<uint32_t>& ids) const {
  std::string out;
  for (uint32_t p : ids) out += (out.empty() ? "" : ", ") + point(p);
  return out;
}

Builder::Builder(const ReportStats& st, const AnalysisFacts& an)
    : s(st), a(an), policy(an.policy()),
      ecn(hop::ecn_mismatches(st.hops.ecn(), {an.config().ecn_onset_tolerance_ns})) {
  span_ns = s.impact.span_ns();
  by_flow_ = s.impact.by_flow();
  for (const auto& [flow, points] : by_flow_) {
    stream_flows_[points.front()->stream].push_back(flow);
    if (std::any_of(points.begin(), points.end(), [](const QpImpact* q) { return q->originals || q->retransmissions; }))
      ++qps;
  }
}

std::vector<const hop::EcnMismatch*> Builder::ecn_at(uint32_t point, uint8_t priority) const {
  std::vector<const hop::EcnMismatch*> out;
  for (const auto& m : ecn)
    if (m.place.priority == priority && (m.place.from == point || m.place.to == point)) out.push_back(&m);
  return out;
}

const QpImpact& Builder::most(const std::vector<const QpImpact*>& points, uint64_t (*cost)(const QpImpact&)) {
  const QpImpact* m = points.front();
  for (const QpImpact* p : points)
    if (std::pair(cost(*p), stalled(*p)) > std::pair(cost(*m), stalled(*m))) m = p;
  return *m;
}

void Builder::share(Impact& i) const {
  const double whole = static_cast<double>(span_ns) * static_cast<double>(qps);
  i.share = whole > 0 ? std::min(1.0, static_cast<double>(i.stall_ns) / whole) : 0.0;
}

Impact Builder::sum(const std::set<uint32_t>& streams, uint64_t (*cost)(const QpImpact&)) const {
  Impact i;
  for (uint32_t st : streams) {
    const auto it = stream_flows_.find(st);
    if (it == stream_flows_.end()) continue;
    for (uint32_t flow : it->second) {
      const QpImpact& q = most(by_flow_.at(flow), cost);
      const uint64_t c = cost(q);
      if (!c) continue;
      ++i.qps;
      i.stall_ns += c;
      i.recovery_ns += q.recovery_ns;
      i.timeout_ns += q.timeout_ns;
      i.pause_ns += q.pause_ns;
    }
  }
  share(i);
  return i;
}

Builder::Gathered Builder::gather(Clue c) const {
  Gathered g;
  const auto [lo, hi] = s.evidence.of(c);
  for (auto it = lo; it != hi; ++it) {
    g.items.push_back(&it->second);
    g.streams.insert(it->second.streams.begin(), it->second.streams.end());
  }
  return g;
}

std::map<std::pair<uint32_t, uint32_t>, Builder::HopGathered> Builder::gather_hops(Clue c) const {
  std::map<std::pair<uint32_t, uint32_t>, HopGathered> hops;
  const auto [lo, hi] = s.evidence.of(c);
  for (auto it = lo; it != hi; ++it) {
    HopGathered& h = hops[{std::get<1>(it->first), std::get<2>(it->first)}];
    h.items.push_back(&it->second);
    h.keys.push_back(std::get<3>(it->first));
    h.streams.insert(it->second.streams.begin(), it->second.streams.end());
  }
  return hops;
}

Impact Builder::loss(const std::set<uint32_t>& streams) const {
  Impact i = sum(streams, [](const QpImpact& q) { return q.recovery_ns; });
  i.pause_ns = 0;
  return i;
}

Impact Builder::timeouts(const std::set<uint32_t>& streams) const {
  Impact i = sum(streams, [](const QpImpact& q) { return q.timeout_recovery_ns; });
  i.pause_ns = 0;
  i.recovery_ns = i.stall_ns;
  return i;
}

Impact Builder::pause(const std::set<uint32_t>& streams) const {
  Impact i = sum(streams, [](const QpImpact& q) { return q.pause_ns; });
  i.recovery_ns = i.timeout_ns = 0;
  return i;
}

Impact Builder::rnr(const std::set<uint32_t>& streams) const {
  Impact i = sum(streams, [](const QpImpact& q) { return q.rnr_ns; });
  i.recovery_ns = i.timeout_ns = i.pause_ns = 0;
  return i;
}

Impact Builder::pause(const pfc::PfcRow& row) const {
  Impact i;
  for (const auto& [flow, q] : row.qps) {
    if (!q.stall_ns) continue;
    ++i.qps;
    i.stall_ns += q.stall_ns;
  }
  i.pause_ns = i.stall_ns;
  share(i);
  return i;
}

Finding& Builder::add(Kind k, Severity sev, const std::string& place) {
  Finding& f = list_.emplace_back();
  f.kind = k;
  f.severity = sev;
  f.id = std::string(kind_name(k)) + "|" + place;
  return f;
}

uint64_t Builder::count(const std::vector<const Evidence*>& items) {
  uint64_t n = 0;
  for (const Evidence* e : items) n += e->count;
  return n;
}

void Builder::evidence(Finding& f, const std::vector<const Evidence*>& items, std::string filter) {
  std::set<uint32_t> frames, streams(f.where.streams.begin(), f.where.streams.end());
  for (const Evidence* e : items) {
    if (!e) continue;
    f.evidence += e->count;
    f.when.add(e->when());
    for (uint32_t fr : e->first()) frames.insert(fr);
    streams.insert(e->streams.begin(), e->streams.end());
  }
  f.frames.assign(frames.begin(), frames.end());
  if (f.frames.size() > Evidence::kFrames) f.frames.resize(Evidence::kFrames);
  f.where.streams.assign(streams.begin(), streams.end());
  f.filter = std::move(filter);
}

void Builder::evidence(Finding& f, std::initializer_list<const Evidence*> items, std::string filter) {
  evidence(f, std::vector<const Evidence*>(items), std::move(filter));
}

std::set<uint32_t> Builder::streams_of(std::initializer_list<Kind> kinds) const {
  std::set<uint32_t> out;
  for (const Finding& f : list_)
    if (std::find(kinds.begin(), kinds.end(), f.kind) != kinds.end()) out.insert(f.where.streams.begin(), f.where.streams.end());
  return out;
}

int Builder::lossless_dscp() const {
  if (policy.lossless(policy.dscp_priority[qos::kRoceDscp])) return qos::kRoceDscp;
  for (int d = 0; d < 64; ++d)
    if (policy.lossless(policy.dscp_priority[static_cast<size_t>(d)])) return d;
  return qos::kRoceDscp;
}

std::string Builder::lossless_priorities() const { return qos::format_priorities(policy.lossless_mask); }

Findings Builder::finish() {
  const uint64_t fail_share_ppm = static_cast<uint64_t>(a.config().health.stall_pct.fail * 1e4);
  for (Finding& f : list_)
    if (f.severity == Severity::warning && static_cast<uint64_t>(f.impact.share * 1e6) >= fail_share_ppm &&
        f.impact.stall_ns)
      f.severity = Severity::error;  // a warning that costs this much is a failure
  std::stable_sort(list_.begin(), list_.end(), [](const Finding& x, const Finding& y) {
    const auto key = [](const Finding& f) {
      return std::tuple(f.severity != Severity::note, f.impact.stall_ns, f.severity);
    };
    if (key(x) != key(y)) return key(x) > key(y);
    return std::tie(x.kind, x.id) < std::tie(y.kind, y.id);
  });
  Findings out;
  out.span_ns = span_ns;
  out.qps = qps;
  out.start_ns = a.clock().start_ns();
  out.ns = a.clock().nanoseconds();
  for (const auto& [flow, points] : by_flow_) out.stalled_ns += stalled(most(points, stalled));
  const double whole = static_cast<double>(span_ns) * static_cast<double>(qps);
  out.stalled_share = whole > 0 ? std::min(1.0, static_cast<double>(out.stalled_ns) / whole) : 0.0;
  out.list.assign(std::make_move_iterator(list_.begin()), std::make_move_iterator(list_.end()));
  return out;
}

}  // namespace detail

Findings find(const ReportStats& s, const AnalysisFacts& a) {
  detail::Builder b(s, a);
  add_ecn_findings(b);
  add_scheduling_findings(b);
  add_pfc_findings(b);
  add_qos_findings(b);
  add_vlan_findings(b);
  add_mtu_findings(b);
  add_loss_findings(b);
  add_capture_findings(b);
  return b.finish();
}

}  // namespace roceshark::triage
