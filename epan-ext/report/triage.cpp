// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/report/triage.h"

#include <cstdio>

#include "epan-ext/report/event_view.h"
#include "epan-ext/report/findings_builder.h"
#include "epan-ext/common/printable.h"
#include "epan-ext/common/text_table.h"

namespace roceshark::triage {
namespace {

using detail::duration;

std::string percent(double share) {
  char buf[32];
  std::snprintf(buf, sizeof buf, share >= 0.001 || share == 0 ? "%.1f%%" : "%.3f%%", share * 100);
  return buf;
}

std::string plural(uint64_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

std::string impact_text(const Impact& i) {
  if (!i.stall_ns) return i.counted_elsewhere ? "counted under the findings that explain the losses" : "no stall measured";
  std::string s = duration(i.stall_ns) + " stalled on " + plural(i.qps, "QP", "QPs") + " (" + percent(i.share) +
                  " of all QP time)";
  std::string parts;
  if (i.recovery_ns) parts += "recovery " + duration(i.recovery_ns);
  if (i.timeout_ns) parts += (parts.empty() ? "" : ", ") + std::string("timer waits ") + duration(i.timeout_ns);
  if (i.pause_ns) parts += (parts.empty() ? "" : ", ") + std::string("pause ") + duration(i.pause_ns);
  return parts.empty() ? s : s + ": " + parts;
}

std::string summarise(const Findings& f, const Health& h, const AnalysisFacts& a) {
  uint64_t errors = 0, warnings = 0;
  for (const Finding& x : f.list) errors += x.severity == Severity::error, warnings += x.severity == Severity::warning;
  std::string s = "Over " + duration(f.span_ns) + " of traffic from " + plural(f.qps, "QP", "QPs") + " at " +
                  plural(a.points().size(), "capture point", "capture points") + ", ";
  if (!errors && !warnings) {
    s += "roceshark found no misconfiguration";
    s += f.stalled_ns ? "; the QPs still waited " + duration(f.stalled_ns) + " on the network." : ".";
  } else {
    s += "roceshark found " + plural(errors, "error", "errors") + " and " + plural(warnings, "warning", "warnings") +
         ". The QPs waited " + duration(f.stalled_ns) + " on the network (" + percent(f.stalled_share) +
         " of their time).";
    size_t n = 0;
    for (const Finding& x : f.list) {
      if (x.severity == Severity::note || n == 3) break;
      s += (n == 0 ? " Most costly: " : n == 1 ? "; then " : "; and ") + x.title;
      if (x.impact.stall_ns) s += " (" + duration(x.impact.stall_ns) + ")";
      ++n;
    }
    if (n) s += ".";
    const Finding& top = f.list.front();
    if (top.severity != Severity::note) s += " Start with #1: " + top.fix;
  }
  std::string failing;
  for (const Metric& m : h.metrics)
    if (m.grade == Grade::fail || m.grade == Grade::warn)
      failing += (failing.empty() ? "" : ", ") + m.name + " " + grade_name(m.grade);
  if (quality_warns(h.quality)) failing += (failing.empty() ? "" : ", ") + std::string("capture quality");
  s += std::string(" Health: ") + grade_name(h.overall) + (failing.empty() ? "." : " (" + failing + ").");
  for (const Limit& l : h.limits) s += " " + limit_sentence(l);
  return s;
}

// Words wrapped to `width`, every line after the first indented.
std::string wrap(const std::string& text, size_t indent, size_t width = 100) {
  std::string out, line;
  size_t start = 0;
  while (start <= text.size()) {
    size_t end = text.find(' ', start);
    if (end == std::string::npos) end = text.size();
    const std::string word = text.substr(start, end - start);
    if (!line.empty() && indent + line.size() + 1 + word.size() > width) {
      out += line + "\n" + std::string(indent, ' ');
      line.clear();
    }
    line += (line.empty() ? "" : " ") + word;
    start = end + 1;
  }
  return out + line;
}

std::string value_text(const Metric& m) {
  if (!m.value) return "-";
  char buf[48];
  if (m.unit == "%") std::snprintf(buf, sizeof buf, *m.value < 0.1 && *m.value > 0 ? "%.4f%%" : "%.2f%%", *m.value);
  else if (m.unit == "us") std::snprintf(buf, sizeof buf, "%.1f us", *m.value);
  else if (m.unit == "/s") std::snprintf(buf, sizeof buf, "%.0f/s", *m.value);
  else std::snprintf(buf, sizeof buf, "%.0f", *m.value);
  return buf;
}

std::string limit_text(const Metric& m, double v) {
  if (m.unit == "count") return "-";
  Metric x = m;
  x.value = v;
  return value_text(x);
}

std::string location_text(const Location& l) {
  std::string s;
  const auto add = [&](const std::string& part) { s += (s.empty() ? "" : ", ") + part; };
  if (!l.hop.empty()) add("hop " + l.hop);
  else if (!l.point.empty()) add("point " + l.point);
  if (!l.mac.empty()) add("MAC " + (l.mac_name.empty() ? l.mac : printable(l.mac_name) + " (" + l.mac + ")"));
  if (l.priority >= 0) add("priority " + std::to_string(l.priority));
  if (l.dscp >= 0) add("DSCP " + std::to_string(l.dscp));
  if (!l.streams.empty()) add(detail::streams_text({l.streams.begin(), l.streams.end()}));
  return s.empty() ? "the whole capture" : s;
}

// "<ISO time> to <ISO time> (<s> to <s> into the capture)", as roceshark
// events prints its time and rel_s.
std::string when_text(const TimeSpan& w, const Findings& f) {
  const auto rel = [&](uint64_t t) { return cell::fixed(since(t, f.start_ns), 9) + " s"; };
  const std::string first = events::iso_time(w.first_ns, f.ns);
  if (w.first_ns == w.last_ns) return first + " (" + rel(w.first_ns) + " into the capture)";
  return first + " to " + events::iso_time(w.last_ns, f.ns) + " (" + rel(w.first_ns) + " to " + rel(w.last_ns) +
         " into the capture)";
}

}  // namespace

Triage make_triage(const ReportStats& s, const AnalysisFacts& a) {
  Triage t;
  t.findings = find(s, a);
  t.health = assess(s, a, t.findings);
  t.summary = summarise(t.findings, t.health, a);
  return t;
}

}  // namespace roceshark::triage

namespace roceshark {

std::string format_triage_report(const ReportStats& s, const AnalysisFacts* a, const std::string& filter) {
  return format_triage(triage::make_triage(s, a ? *a : no_facts()), filter);
}

std::string format_triage(const triage::Triage& t, const std::string& filter) {
  using namespace triage;
  std::string out = stats_header("RoCE Triage", filter);
  const Findings& f = t.findings;
  out += "Capture span " + duration(f.span_ns) + ", " + plural(f.qps, "QP", "QPs") + "; they waited " +
         duration(f.stalled_ns) + " on the network (" + percent(f.stalled_share) + " of their time).\n\n";

  out += "Findings, most costly first\n";
  if (f.list.empty()) out += "  none\n";
  size_t rank = 0;
  for (const Finding& x : f.list) {
    std::string sev = severity_name(x.severity);
    for (char& c : sev) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
    out += "#" + std::to_string(++rank) + " " + sev + " " + kind_name(x.kind) + ": " + x.title + "\n";
    out += "   Where:    " + wrap(location_text(x.where), 13) + "\n";
    if (!x.when.empty()) out += "   When:     " + wrap(when_text(x.when, f), 13) + "\n";
    out += "   Impact:   " + wrap(impact_text(x.impact), 13) + "\n";
    std::string frames;
    for (uint32_t fr : x.frames) frames += (frames.empty() ? "" : " ") + std::to_string(fr);
    out += "   Evidence: " + wrap(plural(x.evidence, "frame", "frames") + (frames.empty() ? "" : ", first " + frames) +
                              "; " + x.detail, 13) + "\n";
    out += "   Filter:   " + x.filter + "\n";
    out += "   Fix:      " + wrap(x.fix, 13) + "\n";
  }

  out += "\nHealth (thresholds: roce.health_* preferences)\n";
  TextTable table({{"Metric", TextTable::Align::left}, {"Value"}, {"Warn above"}, {"Fail above"},
                   {"Verdict", TextTable::Align::left}, {"Detail", TextTable::Align::left}});
  for (const Metric& m : t.health.metrics)
    table.add_row({m.label, value_text(m), limit_text(m, m.limit.warn), limit_text(m, m.limit.fail),
                   grade_name(m.grade), m.detail});
  out += table.render();
  out += std::string("Overall: ") + grade_name(t.health.overall) + "\n";
  for (const Limit& l : t.health.limits) out += "Limit:   " + wrap(limit_sentence(l), 9) + "\n";
  for (const QualityNote& q : t.health.quality) out += (q.settings_only ? "Setting: " : "Capture: ") + wrap(q.text + ".", 9) + "\n";
  out += "\n";
  out += "Summary\n" + wrap(t.summary, 0) + "\n";
  return out + stats_rule();
}

}  // namespace roceshark
