// SPDX-License-Identifier: GPL-2.0-or-later
// The health baseline of `-z roce,triage`: a few fabric-wide metrics graded
// PASS / WARN / FAIL against HealthLimits (docs/triage.md), for a daily
// check that a script can act on.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "epan-ext/report/capture_quality.h"
#include "epan-ext/report/findings.h"

namespace roceshark::triage {

// incomplete: a limit (roce.max_flows, epan-ext/common/limits.h) left part of the capture unanalysed,
// so no verdict on the whole can be given; only `Health::overall` takes it.
enum class Grade : uint8_t { na, pass, warn, fail, incomplete };
const char* grade_name(Grade g);  // "N/A", "PASS", "WARN", "FAIL", "INCOMPLETE"

// A limit the analysis reached: part of the capture was not analysed.
struct Limit {
  std::string name;        // "max_flows"
  std::string preference;  // "roce.max_flows"
  uint64_t value = 0;      // the limit in force
  uint64_t packets_beyond = 0;  // frames not analysed because of it
  std::string beyond;           // what they were: "RoCE packet(s) of further flows"
};

struct Metric {
  std::string name;   // loss, hop_latency, ecn_spread, pfc_rate, paused, ce, stall, findings
  std::string label;  // for the text
  std::string unit;   // %, us, /s, count
  std::optional<double> value;  // none: nothing to measure it on
  Threshold limit{0, 0};
  Grade grade = Grade::na;
  std::string detail;
};

struct Health {
  Grade overall = Grade::pass;  // the worst metric; incomplete when a limit was reached
  std::vector<Metric> metrics;
  std::vector<Limit> limits;  // reached limits only
  // What the capture points' recordings lack: a clean result there is
  // unproven, so it makes PASS a WARN (never a FAIL).
  std::vector<QualityNote> quality;
};

std::vector<Limit> limits_reached(const ReportStats& s, const AnalysisFacts& a);
// "roce.max_flows (5) was reached: 1990 RoCE packets of later flows were not analysed; ..."
std::string limit_sentence(const Limit& l);

Health assess(const ReportStats& s, const AnalysisFacts& a, const Findings& f);

}  // namespace roceshark::triage
