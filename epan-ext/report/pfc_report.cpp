// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/report/pfc_report.h"

#include <algorithm>
#include <cstdio>

#include "epan-ext/common/text_table.h"

namespace roceshark::pfc {
namespace {

constexpr auto kLeft = TextTable::Align::left;
using cell::num;
using cell::pct;
using cell::us;

// Microseconds since `origin` (the capture start).
std::string us_since(uint64_t ns, uint64_t origin) { return us(ns >= origin ? ns - origin : 0); }

}  // namespace

std::string format_pfc_report(const PfcStats& stats, const AnalysisFacts& a, const std::string& filter) {
  std::string out = stats_header("RoCE PFC Analysis", filter);
  if (stats.rows().empty()) return out + "No PFC frames.\n" + stats_rule();
  const Config& cfg = a.config();
  const uint64_t origin = stats.first_ns();
  out += "Capture span " + us(stats.span_ns()) + " us; times below are microseconds from the first RoCE or PFC frame.\n";

  const auto& episodes = stats.episodes();

  TextTable pause({{"Point", kLeft}, {"Pausing MAC", kLeft}, {"Prio"}, {"Frames"}, {"XOFF"}, {"XON"}, {"Paused (us)"},
                   {"Of span"}, {"Longest (us)"}, {"Storms"}, {"Chatter"}, {"No-ECN"}, {"Propagated"}});
  TextTable storms({{"Point", kLeft}, {"Pausing MAC", kLeft}, {"Prio"}, {"Start"}, {"End"}, {"Duration (us)"},
                    {"Frames"}, {"First frame"}, {"Storm frame"}});
  TextTable chatter({{"Point", kLeft}, {"Pausing MAC", kLeft}, {"Prio"}, {"Start"}, {"End"}, {"Duration (us)"},
                     {"Paused"}, {"Frames"}, {"Per ms"}, {"First frame"}});
  TextTable stalls({{"Point", kLeft}, {"Pausing MAC", kLeft}, {"Prio"}, {"Stream"}, {"Requester", kLeft},
                    {"Responder", kLeft}, {"DestQP", kLeft}, {"Held packets"}, {"Stall (us)"}, {"Of span"}});
  std::string wrong;
  for (const auto& [key, row] : stats.rows()) {
    const std::string point = a.point_name(row.point), mac = mac_label(a, row.mac);
    const PauseSummary sum = stats.summary(key);
    const auto it = episodes.find(key);
    for (const Episode& e : it == episodes.end() ? std::vector<Episode>{} : it->second) {
      if (e.chatter) {
        char rate[32];
        std::snprintf(rate, sizeof rate, "%.1f", double(e.frames) * 1e6 / double(e.end_ns - e.start_ns));
        chatter.add_row({point, mac, num(row.priority), us_since(e.start_ns, origin), us_since(e.end_ns, origin),
                         us(e.end_ns - e.start_ns), pct(e.paused_ns, e.end_ns - e.start_ns), num(e.frames), rate,
                         num(e.first_frame)});
      }
      if (!e.storm) continue;
      storms.add_row({point, mac, num(row.priority), us_since(e.start_ns, origin), us_since(e.end_ns, origin),
                      us(e.end_ns - e.start_ns), num(e.frames), num(e.first_frame),
                      e.storm_frame ? num(e.storm_frame) : "-"});
    }
    pause.add_row({point, mac, num(row.priority), num(row.frames), num(row.xoff), num(row.xon), us(sum.paused_ns),
                   pct(sum.paused_ns, stats.span_ns()), us(sum.longest_ns), num(sum.storms), num(sum.chatter), num(row.no_ecn), num(row.propagated)});
    for (const auto& [flow, q] : row.qps) {
      const FlowKey& f = a.flow_key(flow);
      stalls.add_row({point, mac, num(row.priority), num(a.flow_stream(flow)), f.src.to_string(), f.dst.to_string(),
                      cell::qp(f.qp), num(q.held_packets), us(q.stall_ns), pct(q.stall_ns, stats.span_ns())});
    }
    if (row.wrong_class)
      wrong += "  priority " + num(row.priority) + " at " + point + " (paused by " + mac +
               ") carries no RoCE, while RoCE runs on a priority without PFC there\n";
  }

  out += "\nPause per (point, pausing MAC, priority)\n" + pause.render();
  char storm_rule[200];
  std::snprintf(storm_rule, sizeof storm_rule,
                "\nStorms (pauses with gaps under %s us for %s us or more, paused %u%% of it or more)\n",
                us(cfg.storm_gap_ns).c_str(), us(cfg.storm_ns).c_str(), unsigned(cfg.storm_share_pct));
  out += storm_rule + (storms.empty() ? std::string("  none\n") : storms.render());
  out += "\nPause chatter (as long, paused less: traffic flowed between the pauses)\n" +
         (chatter.empty() ? std::string("  none\n") : chatter.render());
  out += "\nQPs held by pause (silent on that priority while it was in force, released back to back after it)\n" +
         (stalls.empty() ? std::string("  none\n") : stalls.render());
  for (const auto& [key, row] : stats.rows())
    if (row.unattributed)
      out += "  unattributed at " + a.point_name(row.point) + " (" + mac_label(a, row.mac) + ", priority " +
             num(row.priority) + "): " + num(row.unattributed) +
             " packet(s) released after its pauses whose MACs put them on both sides of the link, not counted\n";

  TextTable chains({{"Storm at", kLeft}, {"Pause at", kLeft}, {"Storm frame"}, {"Pause began"}, {"Linked at"},
                     {"After (us)"}});
  for (const Propagation& p : stats.propagations())
    chains.add_row({a.point_name(p.from_point), a.point_name(p.to_point), num(p.storm_frame), num(p.pause_frame),
                    num(p.found_frame), us(p.delay_ns)});
  out += "\nPause propagation (a pause following a storm at another point)\n" +
         (chains.empty() ? std::string("  none\n") : chains.render());

  out += "\nConfiguration smells\n";
  out += wrong.empty() ? "  PFC on the wrong class: none\n" : "  PFC on the wrong class:\n" + wrong;
  out += "  RoCE loss on a priority that never saw PFC (lossy queue): " + num(stats.lossy_findings()) +
         " (point, priority) pair(s)\n";
  uint64_t no_ecn = 0;
  for (const auto& [k, row] : stats.rows()) no_ecn += row.no_ecn;
  out += "  Pauses with no ECN-CE or CNP on their link in the " + us(cfg.ecn_window_ns) +
         " us before (ECN threshold above PFC XOFF?): " + num(no_ecn) + "\n";
  if (stats.bad_frames())
    out += "Note: " + num(stats.bad_frames()) +
           " PFC frame(s) were malformed or unusual (reserved enable bits, destination, truncation).\n";
  return out + stats_rule();
}

}  // namespace roceshark::pfc
