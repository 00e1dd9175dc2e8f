// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/session/monitor_window.h"

#include <algorithm>
#include <cstdio>

#include "epan-ext/common/json_writer.h"

namespace roceshark::monitor {
namespace {

const metrics::Family* find(const std::vector<metrics::Family>& fs, const std::string& name) {
  for (const auto& f : fs)
    if (f.name == name) return &f;
  return nullptr;
}

double grown(const std::vector<metrics::Family>& now, const std::vector<metrics::Family>& before,
             const std::string& name) {
  return std::max(0.0, total(now, name) - total(before, name));
}

}  // namespace

std::vector<metrics::Family> Carry::with_carry(std::vector<metrics::Family> fs) const {
  for (auto& f : fs) {
    if (f.type == metrics::Type::gauge) continue;
    for (auto& s : f.samples) {
      const auto it = carried_.find({f.name, s.labels});
      if (it == carried_.end()) continue;
      s.value += it->second.value;
      s.sum += it->second.sum;
      s.count += it->second.count;
      for (size_t i = 0; i < s.buckets.size() && i < it->second.buckets.size(); ++i) s.buckets[i] += it->second.buckets[i];
    }
    // A label set the period did not see keeps its carried count.
    for (const auto& [key, c] : carried_) {
      if (key.first != f.name) continue;
      const metrics::Labels& labels = key.second;  // clang before 16 cannot capture a structured binding
      const bool seen = std::any_of(f.samples.begin(), f.samples.end(),
                                    [&](const metrics::Sample& s) { return s.labels == labels; });
      if (!seen) f.samples.push_back({labels, c.value, c.buckets, c.sum, c.count});
    }
  }
  return fs;
}

void Carry::end_period(const std::vector<metrics::Family>& last) {
  for (const auto& f : last) {
    if (f.type == metrics::Type::gauge) continue;
    for (const auto& s : f.samples) carried_[{f.name, s.labels}] = {s.value, s.buckets, s.sum, s.count};
  }
}

metrics::Family active_findings(const std::vector<triage::Finding>& now, std::map<std::string, uint64_t>& seen) {
  std::map<metrics::Labels, double> counts;
  std::map<std::string, uint64_t> next;
  for (const triage::Finding& f : now) {
    const metrics::Labels l{{"check", triage::kind_name(f.kind)}, {"severity", triage::severity_name(f.severity)}};
    const auto it = seen.find(f.id);
    counts[l] += it == seen.end() || f.evidence > it->second ? 1 : 0;
    next[f.id] = f.evidence;
  }
  seen = std::move(next);
  metrics::Family fam{"roceshark_findings", "Findings active in the last window: new, or their evidence grew in it",
                      metrics::Type::gauge, {}};
  for (auto& [l, n] : counts) fam.samples.push_back({l, n, {}, 0, 0});
  return fam;
}

double total(const std::vector<metrics::Family>& fs, const std::string& name) {
  double t = 0;
  if (const metrics::Family* f = find(fs, name))
    for (const auto& s : f->samples) t += s.value;
  return t;
}

WindowFigures figures(const std::vector<metrics::Family>& now, const std::vector<metrics::Family>& before,
                      const std::vector<WindowValue>& values) {
  WindowFigures w;
  w.roce_packets = uint64_t(grown(now, before, "roceshark_roce_packets_total"));
  w.pause_frames = uint64_t(grown(now, before, "roceshark_pfc_pause_frames_total"));
  const double requests = grown(now, before, "roceshark_requests_total");
  if (requests > 0) {
    w.loss_share = grown(now, before, "roceshark_retransmissions_total") / requests;
    w.ce_share = grown(now, before, "roceshark_ecn_ce_packets_total") / requests;
  }
  for (const WindowValue& v : values)
    if (v.metric == "paused") w.paused_share = std::max(w.paused_share, v.value);
  if (const metrics::Family* status = find(now, "roceshark_health_status"))
    for (const auto& s : status->samples)
      if (s.value == 1) w.verdict = s.labels.front().second;
  return w;
}

std::string line_header() {
  return "window  end(s)        frames   roce-pkts  pkt/s      resent%  paused%  ce%     pfc-frames  drops  verdict    "
         "top finding\n";
}

std::string line(const WindowFigures& w) {
  char buf[320];
  const double secs = double(w.end_ns - w.start_ns) / 1e9;
  std::snprintf(buf, sizeof buf, "%-7llu %-13.3f %-8llu %-10llu %-10.0f %-8.4f %-8.2f %-7.3f %-11llu %-6llu %-10s %s\n",
                static_cast<unsigned long long>(w.index), double(w.end_ns) / 1e9,
                static_cast<unsigned long long>(w.frames), static_cast<unsigned long long>(w.roce_packets),
                secs > 0 ? double(w.roce_packets) / secs : 0.0, w.loss_share * 100, w.paused_share * 100,
                w.ce_share * 100, static_cast<unsigned long long>(w.pause_frames),
                static_cast<unsigned long long>(w.drops), w.verdict.c_str(),
                w.top_finding.empty() ? "-" : w.top_finding.c_str());
  std::string out = buf;
  for (const Drift& d : w.drifts) out += "        drift: " + drift_text(d) + "\n";
  return out;
}

std::string json_line(const WindowFigures& w) {
  JsonWriter j;
  j.begin_object().field("window", w.index).field("start_ns", w.start_ns).field("end_ns", w.end_ns)
      .field("frames", w.frames).field("last_frame", w.last_frame).field("roce_packets", w.roce_packets).field("resent_share", w.loss_share)
      .field("paused_share", w.paused_share).field("ce_share", w.ce_share).field("pause_frames", w.pause_frames)
      .field("drops", w.drops).field("verdict", w.verdict).field("top_finding", w.top_finding);
  j.key("drift").begin_array();
  for (const Drift& d : w.drifts) {
    j.begin_object().field("metric", d.v.metric).key("labels").begin_object();
    for (const auto& [k, v] : d.v.labels) j.field(k, v);
    j.end_object().field("value", d.v.value).field("low", d.range.low).field("high", d.range.high)
        .field("deviation", d.deviation).field("text", drift_text(d)).end_object();
  }
  j.end_array().end_object();
  return j.str();
}

}  // namespace roceshark::monitor
