// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/report/metrics.h"

#include <map>
#include <optional>

#include "epan-ext/common/checks.h"
#include "epan-ext/decode/address.h"

namespace roceshark::metrics {
namespace {

// A family whose samples are summed by label set as they are added.
class Builder {
 public:
  Builder(std::string name, std::string help, Type type) : f_{std::move(name), std::move(help), type, {}} {}
  void add(Labels l, double v) { sums_[std::move(l)] += v; }
  Family done() && {
    for (auto& [l, v] : sums_) f_.samples.push_back({l, v, {}, 0, 0});
    return std::move(f_);
  }

 private:
  Family f_;
  std::map<Labels, double> sums_;
};

Labels point(const std::string& p) { return {{"point", p}}; }

void qp_families(const ReportStats& s, std::vector<Family>& out) {
  Builder packets("roceshark_roce_packets_total", "RoCE packets analysed: requests, responses and CNPs", Type::counter);
  Builder requests("roceshark_requests_total", "RoCE request packets, resends included", Type::counter);
  Builder bytes("roceshark_request_bytes_total", "Bytes on the wire of RoCE request packets", Type::counter);
  Builder resends("roceshark_retransmissions_total", "Resent RoCE requests, by recovery kind", Type::counter);
  Builder naks("roceshark_naks_total", "NAKs, by syndrome", Type::counter);
  Builder cnps("roceshark_cnps_total", "Congestion notification packets (CNPs)", Type::counter);
  Builder ce("roceshark_ecn_ce_packets_total", "RoCE requests marked ECN-CE", Type::counter);
  for (const auto& [key, r] : s.qp.rows()) {
    const Labels p = point(r.point_name);
    packets.add(p, double(r.requests + r.responses + r.cnps));
    requests.add(p, double(r.requests));
    bytes.add(p, double(r.request_bytes));
    const uint64_t kinds[] = {r.gbn_resends, r.timeout_retransmissions, r.rnr_retries, r.selective_resends,
                              r.read_retries};
    const char* names[] = {"go_back_n", "timeout", "rnr", "selective", "read_retry"};
    uint64_t classified = 0;
    for (size_t i = 0; i < std::size(kinds); ++i) {
      resends.add({{"point", r.point_name}, {"kind", names[i]}}, double(kinds[i]));
      classified += kinds[i];
    }
    resends.add({{"point", r.point_name}, {"kind", "other"}},
                double(r.retransmissions > classified ? r.retransmissions - classified : 0));
    for (auto [code, name] : kNakKeys)
      naks.add({{"point", r.point_name}, {"code", name}}, double(r.naks[static_cast<size_t>(code)]));
    cnps.add(p, double(r.cnps));
    ce.add(p, double(r.ce));
  }
  for (Builder* b : {&packets, &requests, &bytes, &resends, &naks, &cnps, &ce}) out.push_back(std::move(*b).done());
}

void pfc_families(const ReportStats& s, const AnalysisFacts& a, std::vector<Family>& out) {
  Builder frames("roceshark_pfc_pause_frames_total", "PFC pause frames, by point and priority", Type::counter);
  Builder paused("roceshark_pfc_paused_seconds_total", "Time a priority was paused, by point and priority",
                 Type::counter);
  Builder storms("roceshark_pfc_storms_total", "PFC storms (docs/triage.md), by point and priority", Type::counter);
  const auto& episodes = s.pfc.episodes();
  for (const auto& [key, row] : s.pfc.rows()) {
    const Labels l{{"point", a.point_name(row.point)}, {"priority", std::to_string(row.priority)}};
    frames.add(l, double(row.frames));
    double ns = 0, n = 0;
    if (const auto it = episodes.find(key); it != episodes.end())
      for (const auto& e : it->second) ns += double(e.paused_ns), n += e.storm;
    paused.add(l, ns / 1e9);
    storms.add(l, n);
  }
  for (Builder* b : {&frames, &paused, &storms}) out.push_back(std::move(*b).done());
}

void hop_families(const ReportStats& s, const AnalysisFacts& a, std::vector<Family>& out) {
  Builder entered("roceshark_hop_packets_total", "RoCE packets that entered a hop, those lost on it included",
                  Type::counter);
  Builder lost("roceshark_hop_lost_packets_total", "RoCE packets lost on a hop", Type::counter);
  Family latency{"roceshark_hop_latency_seconds", "Hop latency of RoCE packets (bucket counts within 3%)",
                 Type::histogram, {}};
  const auto losses = s.hops.losses();
  for (const auto& [k, row] : s.hops.hops()) {
    const Labels l{{"from_point", a.point_name(k.first)}, {"to_point", a.point_name(k.second)}};
    const auto it = losses.find(k);
    const double n = it == losses.end() ? 0 : double(it->second.lost);
    entered.add(l, double(row.matched) + n);
    lost.add(l, n);
    Sample h{l, 0, {}, double(row.latency_ns.sum()) / 1e9, row.latency_ns.count()};
    for (double b : kLatencyBounds) h.buckets.push_back(row.latency_ns.count_at_most(uint64_t(b * 1e9 + 0.5)));
    latency.samples.push_back(std::move(h));
  }
  out.push_back(std::move(entered).done());
  out.push_back(std::move(lost).done());
  out.push_back(std::move(latency));
}

void triage_families(const triage::Triage& t, std::vector<Family>& out) {
  Builder evidence("roceshark_finding_evidence_total", "Frames that show a finding, by check and severity",
                   Type::counter);
  for (const triage::Finding& f : t.findings.list) {
    const Labels l{{"check", triage::kind_name(f.kind)}, {"severity", triage::severity_name(f.severity)}};
    evidence.add(l, double(f.evidence));
  }
  out.push_back(std::move(evidence).done());
  Builder status("roceshark_health_status", "1 for the report's health verdict, 0 for the others", Type::gauge);
  for (triage::Grade g : {triage::Grade::pass, triage::Grade::warn, triage::Grade::fail, triage::Grade::incomplete,
                          triage::Grade::no_data})
    status.add({{"verdict", verdict_label(g)}}, g == t.health.overall ? 1 : 0);
  out.push_back(std::move(status).done());
  // The health metrics in base units: % as a ratio, us as seconds.
  struct Unit {
    const char* metric;
    const char* name;
    double scale;
  };
  static constexpr Unit kUnits[] = {
      {"loss", "roceshark_health_loss_ratio", 0.01},
      {"hop_latency", "roceshark_health_hop_latency_seconds", 1e-6},
      {"ecn_spread", "roceshark_health_ecn_spread_seconds", 1e-6},
      {"pfc_rate", "roceshark_health_pfc_pauses_per_second", 1},
      {"paused", "roceshark_health_paused_ratio", 0.01},
      {"ce", "roceshark_health_ce_ratio", 0.01},
      {"stall", "roceshark_health_stall_ratio", 0.01},
  };
  for (const Unit& u : kUnits)
    for (const triage::Metric& m : t.health.metrics)
      if (m.name == u.metric && m.value)
        out.push_back({u.name, "Health metric " + m.name + " (" + m.label + "), docs/triage.md", Type::gauge,
                       {{{}, *m.value * u.scale, {}, 0, 0}}});
}

}  // namespace

const char* verdict_label(triage::Grade g) {
  switch (g) {
    case triage::Grade::pass: return "pass";
    case triage::Grade::warn: return "warn";
    case triage::Grade::fail: return "fail";
    case triage::Grade::incomplete: return "incomplete";
    case triage::Grade::no_data: return "no_data";
    case triage::Grade::na: break;
  }
  return "na";
}

std::vector<Family> collect(const ReportStats& s, const AnalysisFacts& a, const triage::Triage& t) {
  std::vector<Family> out;
  qp_families(s, out);
  pfc_families(s, a, out);
  hop_families(s, a, out);
  triage_families(t, out);
  return out;
}

}  // namespace roceshark::metrics
