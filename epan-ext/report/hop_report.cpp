// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/report/hop_report.h"

#include "epan-ext/report/capture_quality.h"
#include "epan-ext/common/text_table.h"

namespace roceshark::hop {
namespace {

constexpr auto kLeft = TextTable::Align::left;
using cell::num;

std::string us(uint64_t ns) { return cell::us(ns, 2); }

std::string signed_us(int64_t ns) { return ns < 0 ? "-" + us(static_cast<uint64_t>(-ns)) : us(static_cast<uint64_t>(ns)); }

std::string spread(const Histogram& h) {
  if (!h.count()) return "-";
  return us(h.min()) + "/" + us(h.quantile(0.5)) + "/" + us(h.quantile(0.99)) + "/" + us(h.quantile(0.999)) + "/" +
         us(h.max());
}

// Queueing in us and, drained at the downstream link's speed, in KB.
std::string depth(uint64_t ns, double gbps) {
  return us(ns) + " (" + num((queue_bytes(ns, gbps) + 500) / 1000) + " KB)";
}

std::string ecn_table(const HopStats& stats, const AnalysisFacts& a) {
  TextTable t({{"From", kLeft}, {"To", kLeft}, {"Priority"}, {"ECN-capable"}, {"Marked"}, {"Estimate", kLeft},
               {"Onset us (KB)"}, {"Full marking us (KB)"}, {"Largest unmarked us (KB)"}});
  for (const auto& [p, th] : stats.ecn()) {
    const EcnEstimate e = th.estimate();
    const double gbps = a.config().gbps(p.to);
    const bool marks = e.state == EcnEstimate::State::marks;
    t.add_row({a.point_name(p.from), a.point_name(p.to), num(p.priority), num(e.samples), num(e.marked),
               state_name(e.state), marks ? depth(e.onset_ns, gbps) : "-",
               marks ? (e.full_ns ? depth(*e.full_ns, gbps) : "not reached") : "-",
               e.samples > e.marked ? depth(e.max_unmarked_ns, gbps) : "-"});
  }
  return "\nECN marking per hop and priority (ECN-capable packets: queueing against CE set on the hop)\n" + t.render();
}

// The point a flow reaches last: its end-to-end figure grows the most.
const std::pair<const uint32_t, Histogram>* furthest(const QpPathRow& q) {
  const std::pair<const uint32_t, Histogram>* best = nullptr;
  for (const auto& e : q.e2e_ns)
    if (!best || e.second.quantile(0.5) > best->second.quantile(0.5)) best = &e;
  return best;
}

}  // namespace

std::string format_hop_report(const HopStats& stats, const std::string& filter) {
  std::string out = stats_header("RoCE Hops (the same packet at several capture points)", filter);
  const AnalysisFacts* a = stats.facts();
  if (!a || (stats.hops().empty() && stats.qps().empty()))
    return out + "No RoCE packet was seen at more than one capture point.\n" + stats_rule();
  const Config& cfg = a->config();
  out += std::string("Clocks: ") + (cfg.clock_mode == ClockMode::estimate ? "estimated from traffic both ways" :
                                                                             "synced (taken as they are)") +
         "; match window " + us(cfg.match_window_ns) + " us; microburst above " + us(cfg.microburst_ns) + " us.\n";

  const auto lost = stats.losses();
  const auto sizes = stats.sizes();

  // The MTU columns: the longest frame that crossed, and the losses longer
  // than it (mtu_mismatch when they are most of the hop's losses).
  TextTable hops({{"From", kLeft}, {"To", kLeft}, {"Matched"}, {"Lost"}, {"First lost"}, {"Reordered"},
                  {"First reordered"},
                  {"Latency min/p50/p99/p999/max (us)"}, {"Queue p99/max (us)"}, {"Bursts"}, {"Remarked"},
                  {"CE set"}, {"TTL changed"}, {"Negative"}, {"VLAN changed"}, {"Largest passed (B)"},
                  {"Lost longer"}});
  uint64_t negative = 0;
  for (const auto& [k, r] : stats.hops()) {
    const HopLoss l = lost.count(k) ? lost.at(k) : HopLoss{};
    const auto z = sizes.find(k);
    hops.add_row({a->point_name(k.first), a->point_name(k.second), num(r.matched), num(l.lost),
                  l.lost ? num(l.first_loss_frame) : "-", num(l.reordered),
                  l.reordered ? num(l.first_reorder_frame) : "-",
                  r.negative ? signed_us(r.min_latency_ns) + " .. " + signed_us(r.max_latency_ns) : spread(r.latency_ns),
                  us(r.queue_ns.quantile(0.99)) + "/" + us(r.queue_ns.max()), num(r.bursts), num(r.remarked),
                  num(r.ce_set), num(r.ttl_changed), num(r.negative), num(r.vlan_changed), num(r.largest_passed),
                  num(z == sizes.end() ? 0 : z->second.above)});
    negative += r.negative;
  }
  out += "\nPer hop (upstream point -> downstream point)\n" + hops.render();

  TextTable qps({{"Stream"}, {"Source", kLeft}, {"Destination", kLeft}, {"DestQP", kLeft}, {"From", kLeft},
                 {"To", kLeft}, {"Packets"}, {"End to end min/p50/p99/max (us)"}, {"Retrans"},
                 {"First seen at", kLeft}});
  for (const auto& [flow, q] : stats.qps()) {
    const FlowKey& f = a->flow_key(flow);
    const auto* last = furthest(q);
    std::string first_seen;
    for (const auto& [p, n] : q.retrans_first_seen) first_seen += (first_seen.empty() ? "" : " ") + a->point_name(p) + ":" + num(n);
    const Histogram& e = last ? last->second : Histogram{};
    qps.add_row({num(a->flow_stream(flow)), f.src.to_string(), f.dst.to_string(), cell::qp(f.qp),
                 last ? a->point_name(q.first_point) : "-", last ? a->point_name(last->first) : "-", num(e.count()),
                 e.count() ? us(e.min()) + "/" + us(e.quantile(0.5)) + "/" + us(e.quantile(0.99)) + "/" + us(e.max()) : "-",
                 num(q.retransmissions), first_seen.empty() ? "-" : first_seen});
  }
  out += "\nPer QP direction, end to end\n" + qps.render();
  if (!stats.ecn().empty()) out += ecn_table(stats, *a);

  const auto& estimates = stats.clock_estimates();
  if (!estimates.empty()) {
    TextTable clocks({{"Point", kLeft}, {"Relative to", kLeft}, {"Offset (us)"}, {"Uncertainty (us)"}, {"Samples"}});
    for (const auto& e : estimates)
      clocks.add_row({a->point_name(e.b), a->point_name(e.a), signed_us(e.offset_ns), "+/-" + us(static_cast<uint64_t>(e.uncertainty_ns)),
                      num(e.samples)});
    out += "\nClock offsets (minimum delay both ways; the offset of a point's clock from the other's)\n" +
           clocks.render();
  }
  if (cfg.clock_mode == ClockMode::synced)
    for (const auto& e : estimates)
      if (e.proven())
        out += "\nNote: the clocks of " + a->point_name(e.a) + " and " + a->point_name(e.b) +
               " are not synced (traffic both ways shows an offset of " + signed_us(e.offset_ns) + " +/- " +
               us(static_cast<uint64_t>(e.uncertainty_ns)) + " us). Try -o roce.clock:estimate.\n";
  if (negative && cfg.clock_mode == ClockMode::synced)
    out += "\nNote: " + num(negative) +
           " hop latenc(ies) came out negative: the points' clocks are not synced. Try -o roce.clock:estimate.\n";
  for (const QualityNote& q : tap_misses(stats, *a)) out += "\nCapture quality: " + q.text + ".\n";
  out += "Latency and queueing percentiles from a log-linear histogram, within 1.6% of the sample at that rank.\n";
  return out + stats_rule();
}

}  // namespace roceshark::hop
