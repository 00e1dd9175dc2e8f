// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/report/json_triage.h"

namespace roceshark::triage {
namespace {

void finding(JsonWriter& w, const Finding& f, size_t rank, uint64_t start_ns) {
  w.begin_object().field("rank", static_cast<uint64_t>(rank)).field("id", f.id).field("kind", kind_name(f.kind))
      .field("severity", severity_name(f.severity)).field("title", f.title).field("detail", f.detail);
  w.key("location").begin_object();
  const Location& l = f.where;
  if (!l.point.empty()) w.field("point", l.point);
  if (!l.hop.empty()) w.field("hop", l.hop);
  if (!l.mac.empty()) w.field("mac", l.mac);
  if (!l.mac_name.empty()) w.field("mac_name", l.mac_name);
  if (l.priority >= 0) w.field("priority", l.priority);
  if (l.dscp >= 0) w.field("dscp", l.dscp);
  w.key("streams").begin_array();
  for (uint32_t s : l.streams) w.value(s);
  w.end_array().end_object();
  const Impact& i = f.impact;
  w.key("impact").begin_object().field("stall_ns", i.stall_ns).field("recovery_ns", i.recovery_ns)
      .field("pause_ns", i.pause_ns).field("timeout_ns", i.timeout_ns).field("qps", i.qps).field("share", i.share);
  if (i.counted_elsewhere) w.field("counted_elsewhere", true);
  w.end_object();
  w.key("evidence").begin_object().key("frames").begin_array();
  for (uint32_t fr : f.frames) w.value(fr);
  w.end_array().field("count", f.evidence).field("filter", f.filter);
  if (!f.when.empty()) {
    w.field("first_ns", f.when.first_ns).field("last_ns", f.when.last_ns)
        .field("first_rel_ns", since(f.when.first_ns, start_ns)).field("last_rel_ns", since(f.when.last_ns, start_ns));
  }
  w.end_object();
  w.field("fix", f.fix).end_object();
}

void health(JsonWriter& w, const Health& h) {
  w.key("health").begin_object().field("verdict", grade_name(h.overall)).key("metrics").begin_array();
  for (const Metric& m : h.metrics) {
    w.begin_object().field("name", m.name).field("unit", m.unit).key("value");
    m.value ? w.value(*m.value) : w.null();
    w.field("warn", m.limit.warn).field("fail", m.limit.fail).field("verdict", grade_name(m.grade))
        .field("detail", m.detail).end_object();
  }
  w.end_array().end_object();
}

void timeline(JsonWriter& w, const ReportStats& s, const AnalysisFacts& a) {
  const Timeline& t = s.impact.timeline();
  w.key("timeline").begin_object().field("start_ns", t.start_ns()).field("bin_ns", t.bin_ns())
      .field("bins", t.bins_used()).key("qps").begin_array();
  static constexpr std::pair<Timeline::Series, const char*> kSeries[] = {
      {Timeline::retransmissions, "retransmissions"}, {Timeline::stalled_ns, "stalled_ns"},
      {Timeline::paused_ns, "paused_ns"}};
  for (const auto& [k, q] : s.impact.rows()) {
    if (q->timeline < 0) continue;
    const FlowKey& f = a.flow_key(q->flow);
    w.begin_object().field("stream", q->stream).field("point", a.point_name(q->point))
        .field("requester", f.src.to_string()).field("responder", f.dst.to_string()).field("dest_qp", f.qp);
    for (auto [series, name] : kSeries) {
      w.key(name).begin_array();
      const auto& bins = t.row(q->timeline, series);
      for (uint32_t b = 0; b < t.bins_used(); ++b) w.value(bins[b]);
      w.end_array();
    }
    w.end_object();
  }
  w.end_array().field("qps_dropped", t.dropped()).end_object();
}

}  // namespace

void write_triage(JsonWriter& w, const Triage& t, const ReportStats& s, const AnalysisFacts& a) {
  const Findings& f = t.findings;
  w.key("triage").begin_object().field("span_ns", f.span_ns).field("qps", f.qps).field("stalled_ns", f.stalled_ns)
      .field("stalled_share", f.stalled_share).field("start_ns", f.start_ns).key("findings").begin_array();
  size_t rank = 0;
  for (const Finding& x : f.list) finding(w, x, ++rank, f.start_ns);
  w.end_array();
  health(w, t.health);
  timeline(w, s, a);
  w.field("summary", t.summary).end_object();
}

}  // namespace roceshark::triage
