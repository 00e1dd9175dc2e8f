// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/session/baseline.h"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "epan-ext/common/json_writer.h"

namespace roceshark::monitor {
namespace {

using Values = std::map<metrics::Labels, double>;

// A counter family's growth in the window, by label set.
Values grown(const std::vector<metrics::Family>& now, const std::vector<metrics::Family>& before,
             const std::string& name, const std::vector<std::string>& keep) {
  const auto by = [&](const std::vector<metrics::Family>& fs) {
    Values v;
    for (const auto& f : fs)
      if (f.name == name)
        for (const auto& s : f.samples) {
          metrics::Labels l;
          for (const auto& kv : s.labels)
            if (std::find(keep.begin(), keep.end(), kv.first) != keep.end()) l.push_back(kv);
          v[l] += f.type == metrics::Type::histogram ? s.sum : s.value;
        }
    return v;
  };
  Values out = by(now);
  for (const auto& [l, v] : by(before)) out[l] -= v;
  return out;
}

Values histogram_counts(const std::vector<metrics::Family>& fs, const std::string& name) {
  Values v;
  for (const auto& f : fs)
    if (f.name == name)
      for (const auto& s : f.samples) v[s.labels] += double(s.count);
  return v;
}

// The smallest range width per metric: a spread below it is noise, not a
// range (a link that never lost a packet must not alert on its first loss
// of 1 in 10^6).
double floor_of(const std::string& metric) {
  if (metric == "loss") return 1e-5;          // 0.001 % of requests, the health baseline's WARN
  if (metric == "hop_latency") return 1e-6;   // 1 us
  if (metric == "paused" || metric == "ce") return 0.01;
  if (metric == "pfc_rate") return 10;        // frames/s
  return 0;
}

const char* unit_of(const std::string& metric, double& scale) {
  scale = 1;
  if (metric == "loss" || metric == "paused" || metric == "ce") return scale = 100, " %";
  if (metric == "hop_latency") return scale = 1e6, " us";
  if (metric == "pfc_rate") return "/s";
  return "";
}

std::string where(const metrics::Labels& l) {
  std::string from, to, point, prio;
  for (const auto& [k, v] : l) {
    if (k == "from_point") from = v;
    else if (k == "to_point") to = v;
    else if (k == "point") point = v;
    else if (k == "priority") prio = v;
  }
  std::string s = !from.empty() ? from + " -> " + to : point;
  if (!prio.empty()) s += " priority " + prio;
  return s;
}

}  // namespace

std::vector<WindowValue> window_values(const std::vector<metrics::Family>& now,
                                       const std::vector<metrics::Family>& before, double window_s) {
  std::vector<WindowValue> out;
  const Values requests = grown(now, before, "roceshark_requests_total", {"point"});
  const Values resent = grown(now, before, "roceshark_retransmissions_total", {"point"});
  const Values ce = grown(now, before, "roceshark_ecn_ce_packets_total", {"point"});
  for (const auto& [l, n] : requests) {
    if (n <= 0) continue;
    const auto r = resent.find(l), c = ce.find(l);
    out.push_back({"loss", l, (r == resent.end() ? 0 : r->second) / n});
    out.push_back({"ce", l, (c == ce.end() ? 0 : c->second) / n});
  }
  const Values sum = grown(now, before, "roceshark_hop_latency_seconds", {"from_point", "to_point"});
  Values count = histogram_counts(now, "roceshark_hop_latency_seconds");
  for (const auto& [l, v] : histogram_counts(before, "roceshark_hop_latency_seconds")) count[l] -= v;
  for (const auto& [l, n] : count)
    if (n > 0) out.push_back({"hop_latency", l, sum.count(l) ? sum.at(l) / n : 0});
  if (window_s > 0) {
    const Values paused = grown(now, before, "roceshark_pfc_paused_seconds_total", {"point", "priority"});
    const Values frames = grown(now, before, "roceshark_pfc_pause_frames_total", {"point", "priority"});
    for (const auto& [l, s] : paused) out.push_back({"paused", l, std::min(1.0, std::max(0.0, s / window_s))});
    for (const auto& [l, n] : frames) out.push_back({"pfc_rate", l, std::max(0.0, n / window_s)});
  }
  return out;
}

void Baseline::learn(const std::vector<WindowValue>& values) {
  if (!to_learn_) return;
  for (const WindowValue& v : values) {
    const auto [it, added] = ranges_.try_emplace({v.metric, v.labels}, Range{v.value, v.value, 0});
    it->second.low = std::min(it->second.low, v.value);
    it->second.high = std::max(it->second.high, v.value);
  }
  if (--to_learn_ == 0)
    for (auto& [key, r] : ranges_) r.width = std::max(r.high - r.low, floor_of(key.first));
}

metrics::Family Baseline::deviations(const std::vector<WindowValue>& values, std::vector<Drift>& drifts) const {
  metrics::Family f{"roceshark_baseline_deviation",
                    "How far the last window's value is from its learned normal range, in ranges: 0 inside it, "
                    "positive above, negative below",
                    metrics::Type::gauge, {}};
  if (learning()) return f;
  for (const WindowValue& v : values) {
    const auto it = ranges_.find({v.metric, v.labels});
    if (it == ranges_.end()) continue;
    const Range& r = it->second;
    const double w = std::max(r.width, floor_of(v.metric));
    const double d = w <= 0          ? 0
                     : v.value > r.high ? (v.value - r.high) / w
                     : v.value < r.low  ? -(r.low - v.value) / w
                                        : 0;
    metrics::Labels l{{"metric", v.metric}};
    l.insert(l.end(), v.labels.begin(), v.labels.end());
    f.samples.push_back({l, d, {}, 0, 0});
    if (d != 0) drifts.push_back({v, r, d});
  }
  return f;
}

std::string Baseline::to_json() const {
  JsonWriter w;
  w.begin_object().field("schema", "roceshark-baseline").field("version", 1).key("ranges").begin_array();
  for (const auto& [key, r] : ranges_) {
    w.begin_object().field("metric", key.first).key("labels").begin_object();
    for (const auto& [k, v] : key.second) w.field(k, v);
    w.end_object().field("low", r.low).field("high", r.high).field("width", r.width).end_object();
  }
  w.end_array().end_object();
  return w.str() + "\n";
}

std::string drift_text(const Drift& d) {
  double scale = 1;
  const char* unit = unit_of(d.v.metric, scale);
  char buf[256];
  std::snprintf(buf, sizeof buf, "%s at %s: %.4g%s (normal %.4g-%.4g%s, %.1f ranges %s)", d.v.metric.c_str(),
                where(d.v.labels).c_str(), d.v.value * scale, unit, d.range.low * scale, d.range.high * scale, unit,
                std::fabs(d.deviation), d.deviation > 0 ? "above" : "below");
  return buf;
}

}  // namespace roceshark::monitor
