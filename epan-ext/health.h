// SPDX-License-Identifier: GPL-2.0-or-later
// The health baseline of `-z roce,triage`: a few fabric-wide metrics graded
// PASS / WARN / FAIL against HealthLimits (docs/triage.md), for a daily
// check that a script can act on.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "epan-ext/findings.h"

namespace roceshark::triage {

enum class Grade : uint8_t { na, pass, warn, fail };
const char* grade_name(Grade g);  // "N/A", "PASS", "WARN", "FAIL"

struct Metric {
  std::string name;   // loss, hop_latency, pfc_rate, paused, ce, stall, findings
  std::string label;  // for the text
  std::string unit;   // %, us, /s, count
  std::optional<double> value;  // none: nothing to measure it on
  Threshold limit{0, 0};
  Grade grade = Grade::na;
  std::string detail;
};

struct Health {
  Grade overall = Grade::pass;  // the worst metric
  std::vector<Metric> metrics;
};

Health assess(const ReportStats& s, const Analyzer& a, const Findings& f);

// A preference's "WARN,FAIL" pair, e.g. "0.001,0.01": two decimals, 0 <=
// warn <= fail. Bad input gives nullopt and a sentence in `error`.
std::optional<Threshold> parse_threshold(std::string_view text, std::string& error);
std::string format_threshold(const Threshold& t);  // "0.001,0.01"

}  // namespace roceshark::triage
