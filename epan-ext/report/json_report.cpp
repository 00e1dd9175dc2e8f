// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/report/json_report.h"

#include <algorithm>

#include "epan-ext/report/capture_quality.h"
#include "epan-ext/report/json_triage.h"
#include "epan-ext/report/qos_report.h"
#include "epan-ext/common/json_writer.h"
#include "epan-ext/common/qos_policy.h"

namespace roceshark {
namespace {

// With `cdf`, also the distribution as (value, fraction at or below it)
// points, in 2% steps and the tail at 99, 99.9 and 100%, for plotting.
void histogram(JsonWriter& w, std::string_view name, const Histogram& h, bool cdf = false) {
  w.key(name).begin_object().field("count", h.count());
  if (h.count())
    w.field("min", h.min()).field("mean", h.mean()).field("p50", h.quantile(0.5)).field("p99", h.quantile(0.99))
        .field("p999", h.quantile(0.999)).field("max", h.max());
  if (cdf && h.count()) {
    std::vector<std::pair<uint64_t, double>> points;
    const auto at = [&](double q) {
      const uint64_t v = h.quantile(q);
      if (!points.empty() && points.back().first == v) points.back().second = q;
      else points.emplace_back(v, q);
    };
    for (int i = 1; i < 50; ++i) at(i / 50.0);
    at(0.99), at(0.999), at(1.0);
    w.key("cdf").begin_array();
    for (auto [v, q] : points) w.begin_array().value(v).value(q).end_array();
    w.end_array();
  }
  w.end_object();
}

void flow(JsonWriter& w, const FlowKey& f, std::string_view src = "source", std::string_view dst = "destination") {
  w.field(src, f.src.to_string()).field(dst, f.dst.to_string()).field("dest_qp", f.qp);
}

void write_qps(JsonWriter& w, const QpStats& s) {
  w.key("qps").begin_array();
  for (const auto& [k, r] : s.rows()) {
    w.begin_object().field("stream", r.stream).field("point", r.point_name);
    flow(w, r.flow, "requester", "responder");
    w.field("requests", r.requests).field("bytes", r.request_bytes);
    if (r.has_psn) w.field("first_psn", r.first_psn).field("highest_psn", r.highest_psn);
    w.field("gaps", r.gaps).field("skipped_psns", r.skipped_psns).field("retransmissions", r.retransmissions)
        .field("gbn_resends", r.gbn_resends).field("timeout_retransmissions", r.timeout_retransmissions)
        .field("rnr_retries", r.rnr_retries).field("selective_resends", r.selective_resends)
        .field("read_retries", r.read_retries).field("out_of_order", r.out_of_order)
        .field("reorder_depth_max", r.reorder_depth_max).field("reorder_resends", r.reorder_resends)
        .field("ambiguous", r.ambiguous).field("recovery_mode", recovery_mode_name(r.recovery))
        .field("duplicates", r.duplicates).field("qp_reuses", r.qp_reuses)
        .field("responses_seen", r.responses > 0 || r.cnps > 0).field("responses", r.responses)
        .field("acks", r.acks).field("duplicate_acks", r.duplicate_acks).field("read_responses", r.read_responses)
        .field("response_gaps", r.response_gaps).field("missing_responses", r.missing_responses)
        .field("reorder_naks", r.reorder_naks);
    w.key("naks").begin_object();
    for (auto [code, name] : kNakKeys) w.field(name, r.naks[static_cast<size_t>(code)]);
    w.end_object();
    w.field("cnps", r.cnps).field("ecn_ce", r.ce).field("fecn", r.fecn).field("becn", r.becn)
        .field("icrc_bad", r.icrc_bad).field("icrc_unchecked", r.icrc_unchecked);
    histogram(w, "ack_rtt_ns", r.rtt_ns);
    histogram(w, "hop_latency_ns", r.hop_latency_ns);
    w.end_object();
  }
  w.end_array();
}

void write_hops(JsonWriter& w, const hop::HopStats& s, const AnalysisFacts& a) {
  const auto lost = s.losses();
  const auto sizes = s.sizes();
  w.key("hops").begin_array();
  for (const auto& [k, r] : s.hops()) {
    const hop::HopLoss l = lost.count(k) ? lost.at(k) : hop::HopLoss{};
    w.begin_object().field("from", a.point_name(k.first)).field("to", a.point_name(k.second))
        .field("matched", r.matched).field("lost", l.lost);
    if (l.lost) w.field("first_lost_frame", l.first_loss_frame);
    w.field("reordered", l.reordered);
    if (l.reordered) w.field("first_reordered_frame", l.first_reorder_frame);
    histogram(w, "latency_ns", r.latency_ns, true);
    histogram(w, "queue_ns", r.queue_ns);
    w.field("microbursts", r.bursts).field("remarked", r.remarked).field("ce_set", r.ce_set)
        .field("ttl_changed", r.ttl_changed).field("negative_latencies", r.negative);
    if (r.remarked) w.field("first_remarked_frame", r.first_remark_frame);
    if (r.vlan_changed) w.field("vlan_changed", r.vlan_changed).field("first_vlan_changed_frame", r.first_vlan_frame);
    if (const auto z = sizes.find(k); z != sizes.end() && z->second.above) {
      w.key("size_split").begin_object().field("largest_passed", z->second.largest_passed)
          .field("lost_longer", z->second.above).field("smallest_lost_longer", z->second.smallest_above).end_object();
    }
    w.end_object();
  }
  w.end_array();
  w.key("paths").begin_array();
  for (const auto& [f, q] : s.qps()) {
    w.begin_object().field("stream", a.flow_stream(f));
    flow(w, a.flow_key(f));
    w.field("first_point", a.point_name(q.first_point)).field("retransmissions", q.retransmissions);
    w.key("retransmissions_first_seen").begin_object();
    for (const auto& [p, n] : q.retrans_first_seen) w.field(a.point_name(p), n);
    w.end_object();
    w.key("end_to_end").begin_array();
    for (const auto& [p, h] : q.e2e_ns) {
      w.begin_object().field("to", a.point_name(p));
      histogram(w, "latency_ns", h);
      w.end_object();
    }
    w.end_array().end_object();
  }
  w.end_array();
  w.key("clocks").begin_array();
  for (const auto& e : s.clock_estimates())
    w.begin_object().field("point", a.point_name(e.b)).field("relative_to", a.point_name(e.a))
        .field("offset_ns", e.offset_ns).field("uncertainty_ns", e.uncertainty_ns).field("samples", e.samples)
        .field("not_synced", e.proven()).end_object();
  w.end_array();
  w.key("ecn_thresholds").begin_array();
  for (const auto& [p, t] : s.ecn()) {
    const hop::EcnEstimate e = t.estimate();
    const double gbps = a.config().gbps(p.to);
    w.begin_object().field("from", a.point_name(p.from)).field("to", a.point_name(p.to)).field("priority", uint32_t{p.priority})
        .field("link_gbps", gbps).field("samples", e.samples).field("marked", e.marked)
        .field("estimate", hop::state_name(e.state));
    if (e.samples > e.marked)
      w.field("max_unmarked_ns", e.max_unmarked_ns).field("max_unmarked_bytes", hop::queue_bytes(e.max_unmarked_ns, gbps));
    if (e.state == hop::EcnEstimate::State::marks) {
      w.field("onset_ns", e.onset_ns).field("onset_bytes", hop::queue_bytes(e.onset_ns, gbps));
      if (e.full_ns) w.field("full_ns", *e.full_ns).field("full_bytes", hop::queue_bytes(*e.full_ns, gbps));
    }
    w.end_object();
  }
  w.end_array();
}

constexpr size_t kMaxEpisodes = 256;  // per row: the report stays small on a hostile capture

void write_pfc(JsonWriter& w, const pfc::PfcStats& s, const AnalysisFacts& a) {
  const auto& episodes = s.episodes();
  w.key("pfc").begin_object().key("pauses").begin_array();
  for (const auto& [key, row] : s.rows()) {
    const pfc::PauseSummary sum = s.summary(key);
    const auto it = episodes.find(key);
    const std::vector<pfc::Episode> none;
    const auto& eps = it == episodes.end() ? none : it->second;
    w.begin_object().field("point", a.point_name(row.point)).field("pausing_mac", mac_to_string(row.mac));
    if (const std::string name = a.mac_name(row.mac); !name.empty()) w.field("pausing_mac_name", name);
    w        .field("priority", uint32_t{row.priority}).field("frames", row.frames).field("xoff", row.xoff)
        .field("xon", row.xon).field("paused_ns", sum.paused_ns).field("longest_ns", sum.longest_ns)
        .field("no_ecn_pauses", row.no_ecn).field("propagated", row.propagated).field("wrong_class", row.wrong_class);
    w.key("episodes").begin_array();
    for (size_t i = 0; i < eps.size() && i < kMaxEpisodes; ++i) {
      const auto& e = eps[i];
      w.begin_object().field("start_ns", e.start_ns).field("end_ns", e.end_ns).field("paused_ns", e.paused_ns)
          .field("frames", e.frames).field("first_frame", e.first_frame).field("storm", e.storm).field("chatter", e.chatter)
          .end_object();
    }
    w.end_array().field("episodes_dropped", static_cast<uint64_t>(eps.size() > kMaxEpisodes ? eps.size() - kMaxEpisodes : 0));
    w.key("storms").begin_array();
    for (const auto& e : eps)
      if (e.storm)
        w.begin_object().field("start_ns", e.start_ns).field("end_ns", e.end_ns).field("frames", e.frames)
            .field("first_frame", e.first_frame).field("storm_frame", e.storm_frame).end_object();
    w.end_array().key("stalled_qps").begin_array();
    for (const auto& [f, q] : row.qps) {
      w.begin_object().field("stream", a.flow_stream(f));
      flow(w, a.flow_key(f), "requester", "responder");
      w.field("held_packets", q.held_packets).field("stall_ns", q.stall_ns).end_object();
    }
    w.end_array().end_object();
  }
  w.end_array().key("propagation").begin_array();
  for (const auto& p : s.propagations())
    w.begin_object().field("storm_at", a.point_name(p.from_point)).field("pause_at", a.point_name(p.to_point))
        .field("storm_frame", p.storm_frame).field("pause_frame", p.pause_frame).field("delay_ns", p.delay_ns)
        .end_object();
  w.end_array().field("lossy_queue_findings", s.lossy_findings()).field("bad_frames", s.bad_frames()).end_object();
}

void counts(JsonWriter& w, std::string_view name, const qos::ValueCounts& c) {
  w.key(name).begin_object();
  for (auto [v, n] : c.by_count()) w.field(v < 0 ? std::string("untagged") : std::to_string(v), n);
  w.end_object();
}

void write_qos(JsonWriter& w, const qos::QosStats& s, const AnalysisFacts& a) {
  const qos::Policy& p = a.policy();  // learned, in learned mode
  w.key("qos").begin_object().key("policy").begin_object()
      .field("mode", qos::mode_name(a.config().policy.mode))
      .field("dscp_priority_overrides", qos::format_dscp_map(p.dscp_priority))
      .field("lossless_priorities", qos::format_priorities(p.lossless_mask)).field("cnp_dscp", uint32_t{p.cnp_dscp})
      .field("cnp_priority", uint32_t{p.cnp_priority}).field("trust", qos::trust_name(p.trust))
      .field("expect_ecn", p.expect_ecn).end_object();
  w.key("marking").begin_array();
  for (const auto& [k, r] : s.rows()) {
    w.begin_object().field("stream", r.stream).field("point", r.point_name);
    flow(w, r.flow);
    w.field("requests", r.requests).field("responses", r.responses).field("cnps", r.cnps);
    counts(w, "dscp", r.dscp);
    counts(w, "pcp", r.pcp);
    counts(w, "ecn", r.ecn);
    counts(w, "cnp_dscp", r.cnp_dscp);
    counts(w, "cnp_pcp", r.cnp_pcp);
    w.end_object();
  }
  w.end_array().key("violations").begin_array();
  for (const auto& [k, v] : s.violations()) {
    w.begin_object().field("check", qos::check_field(std::get<0>(k)))
        .field("point", v.point_name).field("stream", v.stream);
    flow(w, v.flow);
    w.field("first_frame", v.first_frame).field("packets", v.packets).end_object();
  }
  w.end_array().key("dcbx").begin_array();
  for (const auto& e : s.dcbx()) {
    w.begin_object().field("first_frame", e.first_frame).field("point", e.point_name)
        .field("mac", mac_to_string(e.announcement.mac));
    if (const std::string name = a.mac_name(e.announcement.mac); !name.empty()) w.field("mac_name", name);
    w.field("repeats", e.repeats);
    if (e.announcement.has_pfc) w.field("pfc_enabled", qos::format_priorities(e.announcement.pfc_enabled));
    if (e.announcement.max_frame_size) w.field("max_frame_size", e.announcement.max_frame_size);
    const auto ets = [&w](const char* key, const std::optional<qos::EtsTable>& t) {
      if (!t) return;
      const auto row = [&w](const char* name, const std::array<uint8_t, 8>& v) {
        w.key(name).begin_array();
        for (uint8_t x : v) w.value(uint32_t{x});
        w.end_array();
      };
      w.key(key).begin_object();
      row("priority_tc", t->tc);
      row("tc_bandwidth", t->bw);
      row("tc_tsa", t->tsa);
      w.end_object();
    };
    ets("ets", e.announcement.ets);
    ets("ets_recommended", e.announcement.ets_recommended);
    w.key("findings").begin_array();
    for (const auto& f : e.findings) w.begin_object().field("kind", qos::finding_kind_name(f.kind)).field("text", f.text).end_object();
    w.end_array().end_object();
  }
  w.end_array().end_object();
}

}  // namespace

void write_json_report(const ReportStats& s, const AnalysisFacts* a, const std::string& filter, const TextOut& out) {
  JsonWriter w(out);
  w.begin_object().field("schema", "roceshark-report").field("version", kReportVersion).field("filter", filter);
  const AnalysisFacts& an = a ? *a : no_facts();  // a file with nothing for the engine: empty sections
  const triage::Triage t = triage::make_triage(s, an);
  w.key("capture").begin_object().field("first_ns", s.impact.first_ns()).field("last_ns", s.impact.last_ns())
      .field("span_ns", s.impact.span_ns()).end_object();
  w.key("points").begin_array();
  for (uint32_t p : an.points()) w.begin_object().field("id", p).field("name", an.point_name(p)).end_object();
  w.end_array();
  // Limits reached: the rest of the report covers only part of the capture.
  w.key("limits").begin_array();
  for (const triage::Limit& l : t.health.limits)
    if (l.name == triage::kCutShort)
      w.begin_object().field("name", l.name).field("error", l.beyond).end_object();
    else if (l.name == triage::kCaptureDrops)
      w.begin_object().field("name", l.name).field("packets_beyond", l.packets_beyond).end_object();
    else if (l.cap)
      w.begin_object().field("name", l.name).field("value", l.value).field("passed", l.packets_beyond)
          .field("text", triage::limit_sentence(l)).end_object();
    else
      w.begin_object().field("name", l.name).field("preference", l.preference).field("value", l.value)
          .field("packets_beyond", l.packets_beyond).end_object();
  w.end_array();
  w.key("capture_quality").begin_array();
  for (const QualityNote& q : t.health.quality) {
    w.begin_object();
    if (!q.point.empty()) w.field("point", q.point);
    w.field("kind", q.kind).field("count", q.count).field("text", q.text).end_object();
  }
  w.end_array();
  write_qps(w, s.qp);
  write_hops(w, s.hops, an);
  write_pfc(w, s.pfc, an);
  write_qos(w, s.qos, an);
  triage::write_triage(w, t, s, an);
  w.end_object();
  w.flush();
  out("\n");
}

std::string format_json_report(const ReportStats& s, const AnalysisFacts* a, const std::string& filter) {
  std::string text;
  write_json_report(s, a, filter, [&](std::string_view piece) { text += piece; });
  return text;
}

}  // namespace roceshark
