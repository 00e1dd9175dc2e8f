// SPDX-License-Identifier: GPL-2.0-or-later
// `roceshark monitor`'s windows (docs/monitoring.md). The analysis runs in
// periods: a Session per period (--period), so its state and its verdicts
// cover the last period, not the monitor's whole life. Each window ends
// with a snapshot of the period's session; its metrics are the snapshot's,
// with the counters carried across periods so they only grow, as
// Prometheus expects of a counter; the window's own figures are the
// counters' growth during it.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "epan-ext/report/metrics.h"
#include "epan-ext/session/baseline.h"

namespace roceshark::monitor {

// The window's own figures, from the counters' growth in it.
struct WindowFigures {
  uint64_t index = 0;           // from 1
  uint64_t start_ns = 0, end_ns = 0;  // capture time
  uint64_t frames = 0;          // read in the window, every kind
  uint64_t last_frame = 0;      // the number of the last frame in it (from 1 at the input's start)
  uint64_t roce_packets = 0;
  double loss_share = 0;    // resent requests / requests
  double paused_share = 0;  // the most paused class's paused time / the window
  double ce_share = 0;      // CE-marked requests / requests
  uint64_t pause_frames = 0;
  uint64_t drops = 0;       // the capture's own, in the window
  std::string verdict;      // the period's health verdict (metrics::verdict_label)
  std::string top_finding;  // the period's first-ranked finding's id, or ""
  std::vector<Drift> drifts;  // links whose value left the baseline's range
};

class Carry {
 public:
  // The period's families with what earlier periods counted added: counters
  // and histograms carried, gauges as they are.
  std::vector<metrics::Family> with_carry(std::vector<metrics::Family> period) const;
  // At a period's end: its last counters go into the carry.
  void end_period(const std::vector<metrics::Family>& period_last);

 private:
  struct Carried {
    double value = 0;
    std::vector<uint64_t> buckets;
    double sum = 0;
    uint64_t count = 0;
  };
  std::map<std::pair<std::string, metrics::Labels>, Carried> carried_;
};

// roceshark_findings: the findings of `now` that are new since the last
// window or whose evidence grew in it, by check and severity. `seen` holds
// each finding's evidence count at the last window, by id, and is updated.
metrics::Family active_findings(const std::vector<triage::Finding>& now, std::map<std::string, uint64_t>& seen);

// A counter family's sum over its samples, 0 when absent.
double total(const std::vector<metrics::Family>& fs, const std::string& name);

// The window's figures: `now` and `before` are the carried families at
// its end and at the one before (empty for the first window), `values`
// the window's own per link (window_values()).
WindowFigures figures(const std::vector<metrics::Family>& now, const std::vector<metrics::Family>& before,
                      const std::vector<WindowValue>& values);

// One line per window for a person, as vmstat prints: the header, then the rows.
std::string line_header();
std::string line(const WindowFigures& w);
// One JSON object (no newline) for windows.ndjson.
std::string json_line(const WindowFigures& w);

}  // namespace roceshark::monitor
