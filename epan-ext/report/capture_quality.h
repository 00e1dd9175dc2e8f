// SPDX-License-Identifier: GPL-2.0-or-later
// Capture quality: what a capture point's recording lacks, as opposed to
// what the network did. Not a finding: it says which figures are lower
// bounds (docs/triage.md, "Capture quality"). One list for every kind, in
// the triage, the JSON report (`capture_quality`) and where a view shows it.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "epan-ext/report/report_stats.h"

namespace roceshark {

struct QualityNote {
  std::string point;  // the capture point's name; empty: the whole capture
  std::string kind;   // "tap_missed_copies", "clock_back", "clock_rebased", "path_order_unmatched", ...
  uint64_t count = 0;
  std::string text;   // one sentence for the user
  // A note on the settings, not on the capture: listed, but it never
  // changes the verdict (a site-wide naming table names points a capture
  // need not have).
  bool settings_only = false;
};

// Copies a downstream tap missed: the responder's ACK proves they arrived
// and they were never resent (HopStats::missed).
std::vector<QualityNote> tap_misses(const hop::HopStats& s, const AnalysisFacts& a);
// Where the stamps ran backwards, or a capture stamped past 2^62 ns
// (epan-ext/analysis/point_clock.h; docs/analysis.md, "Time that runs backwards").
std::vector<QualityNote> clock_steps(const AnalysisFacts& a);
// Names in roce.path_order that no analysed capture point has: a tap the
// path expects is missing from the capture, or a typo; either way the order
// the user gave is not what the hop directions rest on there.
std::vector<QualityNote> path_order_unmatched(const AnalysisFacts& a);
// roce.point_names entries and roce.point_link_gbps names that no analysed
// capture point took: a typo, or a table for more points than this capture
// has (settings_only). A mistyped speed would leave that link at
// roce.link_gbps, so the note says which.
std::vector<QualityNote> names_unmatched(const AnalysisFacts& a);
// Whether any note is on the capture itself (not settings_only): those make
// a verdict WARN at least, and the triage's summary names them.
bool quality_warns(const std::vector<QualityNote>& notes);
// Every note, for the triage and the JSON report.
std::vector<QualityNote> capture_quality(const ReportStats& s, const AnalysisFacts& a);

}  // namespace roceshark
