// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/report/health.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>

#include "epan-ext/report/findings_builder.h"
#include "epan-ext/common/option_list.h"

namespace roceshark::triage {
namespace {

Metric metric(const char* name, const char* label, const char* unit, std::optional<double> value, Threshold t,
              std::string detail) {
  Metric m{name, label, unit, value, t, Grade::na, std::move(detail)};
  if (value) m.grade = *value > t.fail ? Grade::fail : *value > t.warn ? Grade::warn : Grade::pass;
  return m;
}

}  // namespace

const char* grade_name(Grade g) {
  switch (g) {
    case Grade::na: return "N/A";
    case Grade::pass: return "PASS";
    case Grade::warn: return "WARN";
    case Grade::fail: return "FAIL";
    case Grade::incomplete: return "INCOMPLETE";
    case Grade::no_data: return "NO DATA";
  }
  return "?";
}

Health assess(const ReportStats& s, const AnalysisFacts& a, const Findings& f) {
  const HealthLimits& lim = a.config().health;
  const double span_s = static_cast<double>(f.span_ns) / 1e9;
  Health h;

  // Per QP, each count where it shows most: CE marks and losses happen on
  // the way, so the last point sees them, the first one does not.
  uint64_t originals = 0, runs = 0, ce = 0;
  for (const auto& [flow, points] : s.impact.by_flow()) {
    uint64_t o = 0, r = 0, c = 0;
    for (const QpImpact* q : points)
      o = std::max(o, q->originals), r = std::max(r, q->runs - q->reorder_runs), c = std::max(c, q->ce);
    originals += o, runs += r, ce += c;
  }
  uint64_t hop_lost = 0;
  for (const auto& [k, l] : s.hops.losses()) hop_lost += l.lost;
  const uint64_t events = std::max(runs, hop_lost);
  std::optional<double> ratio;
  if (originals) ratio = 100.0 * static_cast<double>(events) / static_cast<double>(originals);
  h.metrics.push_back(metric("loss", "Loss", "%", ratio, lim.loss_pct,
                             std::to_string(events) + " loss recovery runs (losses, timer expiries; not reordering) in " +
                                 std::to_string(originals) + " requests"));

  std::optional<double> worst;
  std::string worst_hop = "no hop between capture points";
  for (const auto& [k, row] : s.hops.hops()) {
    if (!row.latency_ns.count()) continue;
    const double us = row.latency_ns.mean() / 1e3;
    if (!worst || us > *worst) worst = us, worst_hop = a.point_name(k.first) + " -> " + a.point_name(k.second);
  }
  h.metrics.push_back(metric("hop_latency", "Hop latency (avg)", "us", worst, lim.hop_latency_us, worst_hop));

  // Hops of one class are meant to mark alike: a drift shows here before it
  // is wide enough for ecn_threshold_mismatch.
  std::optional<double> spread;
  std::string spread_detail = "no two hops of one priority with enough ECN-capable packets to compare";
  if (const auto e = hop::ecn_spread(s.hops.ecn())) {
    const auto hop = [&](const hop::EcnPlace& p) { return a.point_name(p.from) + " -> " + a.point_name(p.to); };
    spread = static_cast<double>(e->ns) / 1e3;
    spread_detail = hop(e->place) + ", priority " + std::to_string(e->place.priority) +
                    (e->never_marked ? ", never marks; queued unmarked past the onset of " : ", against ") +
                    hop(e->reference);
  }
  h.metrics.push_back(metric("ecn_spread", "ECN onset spread", "us", spread, lim.ecn_spread_us, spread_detail));

  std::optional<double> rate, paused;
  std::string busiest = "no PFC frames";
  if (span_s > 0) rate = 0.0, paused = 0.0;
  for (const auto& [key, row] : s.pfc.rows()) {
    if (span_s <= 0) break;
    const double r = static_cast<double>(row.frames) / span_s;
    const uint64_t p = s.pfc.summary(key).paused_ns;
    const double pct = 100.0 * static_cast<double>(p) / static_cast<double>(f.span_ns);
    const std::string where = a.point_name(row.point) + ", " + mac_label(a, row.mac) + ", priority " +
                              std::to_string(row.priority);
    if (r > *rate) rate = r, busiest = where;
    paused = std::max(*paused, pct);
  }
  h.metrics.push_back(metric("pfc_rate", "PFC frames", "/s", rate, lim.pfc_per_s, busiest));
  h.metrics.push_back(metric("paused", "Paused", "%", paused, lim.paused_pct, "of the capture span, busiest class"));

  std::optional<double> ce_pct;
  if (originals) ce_pct = 100.0 * static_cast<double>(ce) / static_cast<double>(originals);
  h.metrics.push_back(metric("ce", "ECN-CE", "%", ce_pct, lim.ce_pct, std::to_string(ce) + " requests marked CE"));

  std::optional<double> stall;
  if (f.qps && f.span_ns) stall = 100.0 * f.stalled_share;
  h.metrics.push_back(metric("stall", "Stalled", "%", stall, lim.stall_pct,
                             detail::duration(f.stalled_ns) + " of QP time waiting on the network"));

  uint64_t errors = 0, warnings = 0;
  for (const Finding& x : f.list) errors += x.severity == Severity::error, warnings += x.severity == Severity::warning;
  Metric m = metric("findings", "Findings", "count", static_cast<double>(errors), {0, 0},
                    std::to_string(errors) + " errors, " + std::to_string(warnings) + " warnings");
  m.grade = errors ? Grade::fail : warnings ? Grade::warn : Grade::pass;
  h.metrics.push_back(m);

  for (const Metric& x : h.metrics) h.overall = std::max(h.overall, x.grade);
  h.quality = capture_quality(s, a);
  if (quality_warns(h.quality)) h.overall = std::max(h.overall, Grade::warn);
  // Ratios over part of the capture could move either way on the rest: no verdict, not even FAIL.
  h.limits = limits_reached(s, a);
  if (!h.limits.empty()) h.overall = Grade::incomplete;
  else if (!analysed(s) && f.list.empty()) h.overall = Grade::no_data;
  return h;
}

bool analysed(const ReportStats& s) { return !s.qp.rows().empty() || !s.pfc.rows().empty(); }

std::string limit_sentence(const Limit& l) {
  if (l.name == kCutShort)
    return "The capture was cut short (" + l.beyond +
           "): what came after was not analysed, so the health verdict is INCOMPLETE.";
  if (l.name == kCaptureDrops)
    return "The capture dropped " + std::to_string(l.packets_beyond) +
           " packets before the analysis saw them (the kernel's or the interface's drops), so the health verdict is "
           "INCOMPLETE.";
  if (l.cap) {
    std::string what;
    for (const CapInfo& c : kCapInfo)
      if (c.name == l.name) what = c.what;
    return "The internal cap of " + std::to_string(l.value) + " " + what + " was passed " +
           std::to_string(l.packets_beyond) + (l.packets_beyond == 1 ? " time: " : " times: ") + l.beyond +
           ", so the health verdict is INCOMPLETE.";
  }
  return l.preference + " (" + std::to_string(l.value) + ") was reached: " + std::to_string(l.packets_beyond) + " " +
         l.beyond + " were not analysed, so the health verdict is INCOMPLETE; raise " + l.preference +
         " to judge the whole capture.";
}

std::vector<Limit> limits_reached(const ReportStats& s, const AnalysisFacts& a) {
  std::vector<Limit> out;
  for (const std::string& e : s.cut_short) out.push_back({std::string(kCutShort), "", 0, 0, e});
  if (s.capture_drops) out.push_back({std::string(kCaptureDrops), "", 0, s.capture_drops, "packets the capture dropped"});
  // The whole capture's counts: a filter that selects none of the frames
  // past a limit still covers only part of the capture.
  for (size_t k = 1; k < kLimitKinds; ++k) {
    const uint64_t n = std::max(s.qp.beyond()[k] + s.pfc.beyond()[k], a.beyond()[k]);
    if (!n) continue;
    const LimitInfo& info = limit_info(static_cast<LimitKind>(k));
    out.push_back({std::string(info.name), std::string(info.preference),
                   limit_value(a.config(), static_cast<LimitKind>(k)), n, std::string(info.beyond)});
  }
  // The internal caps: the analysis' own over the whole capture, the
  // statistics' (DCBX, NAK resends) over what the filter selected.
  const CapCounts analysis = a.caps(), stats = s.caps();
  for (size_t c = 0; c < kCaps; ++c)
    if (const uint64_t n = analysis[c] + stats[c])
      out.push_back({std::string(kCapInfo[c].name), "", kCapInfo[c].value, n, std::string(kCapInfo[c].past), true});
  return out;
}

}  // namespace roceshark::triage
