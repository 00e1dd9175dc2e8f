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

// Only `Health::overall` takes the last two. incomplete: a limit
// (roce.max_flows, epan-ext/common/limits.h) or a capture cut short left part
// of it unanalysed, so no verdict on the whole can be given. no_data: no RoCE
// packet or PFC frame was analysed (an empty file, other traffic only, a
// filter that selects nothing) and nothing was found: nothing to judge.
enum class Grade : uint8_t { na, pass, warn, fail, incomplete, no_data };
const char* grade_name(Grade g);  // "N/A", "PASS", "WARN", "FAIL", "INCOMPLETE", "NO DATA"

// A limit the analysis reached, an internal cap it passed, or a capture cut
// short: part of it was not analysed, or not fully.
struct Limit {
  std::string name;        // "max_flows", "cut_short", "capture_drops" or "cap_copies" (common/limits.h)
  std::string preference;  // "roce.max_flows"; none for cut_short, capture_drops or a cap
  uint64_t value = 0;      // the limit in force
  uint64_t packets_beyond = 0;  // frames not analysed because of it (cut_short: unknown, 0; capture_drops: the drops)
  std::string beyond;           // what they were: "RoCE packet(s) of further flows"; cut_short: the read error
  bool cap = false;  // an internal cap: `value` is the cap, `packets_beyond` how often it was passed, `beyond` what that did
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

inline constexpr std::string_view kCutShort = "cut_short";
inline constexpr std::string_view kCaptureDrops = "capture_drops";
std::vector<Limit> limits_reached(const ReportStats& s, const AnalysisFacts& a);
// Whether any RoCE packet or PFC frame was analysed (NO DATA otherwise).
bool analysed(const ReportStats& s);
// "roce.max_flows (5) was reached: 1990 RoCE packets of later flows were not analysed; ..."
std::string limit_sentence(const Limit& l);

Health assess(const ReportStats& s, const AnalysisFacts& a, const Findings& f);

}  // namespace roceshark::triage
