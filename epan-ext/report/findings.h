// SPDX-License-Identifier: GPL-2.0-or-later
// `-z roce,triage`: the misconfigurations the analyses found, as ranked
// findings with where they are, what they cost, the frames that show them
// and what to change (docs/triage.md). Nothing here looks at packets: it
// reads the statistics and the engine.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "epan-ext/common/checks.h"
#include "epan-ext/report/report_stats.h"
#include "epan-ext/report/time_span.h"

namespace roceshark::triage {

enum class Severity : uint8_t { note, warning, error };
const char* severity_name(Severity s);  // "note", "warning", "error"

// A finding's kind is its row in the check catalogue (epan-ext/common/checks.h),
// whose order breaks ties between findings of equal cost.
using checks::Kind;
using checks::kind;
using checks::kind_name;

// Time the affected QPs spent waiting on the network, QP by QP (each at the
// point where it shows most), and as a share of all QPs' time in the capture.
struct Impact {
  uint64_t stall_ns = 0;     // recovery and pause, overlaps once
  uint64_t recovery_ns = 0;  // loss recovery, timer waits included
  uint64_t pause_ns = 0;
  uint64_t timeout_ns = 0;   // silence before timer resends
  uint64_t qps = 0;
  double share = 0;          // stall_ns / (span x QPs)
  // Its stall is in the impact of the findings that explain its losses
  // (timer waits): counted once, so a symptom never outranks its cause.
  bool counted_elsewhere = false;
};

struct Location {
  std::string point, hop, mac;
  std::string mac_name;  // the MAC's name (AnalysisFacts::mac_name), "" for none
  int priority = -1, dscp = -1;
  std::vector<uint32_t> streams;
};

struct Finding {
  Kind kind{};
  Severity severity = Severity::note;
  std::string id;      // kind|place: the same finding in another capture has the same id
  std::string title;   // one line, naming the place
  std::string detail;  // what the evidence shows, with figures
  Location where;
  Impact impact;
  std::vector<uint32_t> frames;  // the first evidence frames
  uint64_t evidence = 0;         // how many frames show it
  TimeSpan when;                 // its first and last evidence (docs/triage.md, "When")
  std::string filter;            // a display filter for them
  std::string fix;
};

// The findings, ranked: warnings and errors before notes, then by stall
// time, then by severity, kind and place.
struct Findings {
  uint64_t span_ns = 0;
  uint64_t qps = 0;         // request flows seen
  uint64_t stalled_ns = 0;  // every QP's stall, summed
  double stalled_share = 0;
  uint64_t start_ns = 0;  // the capture's start (PointClock::start_ns): the origin of "into the capture"
  bool ns = false;        // times have nanoseconds (PointClock::nanoseconds)
  std::vector<Finding> list;
};

Findings find(const ReportStats& s, const AnalysisFacts& a);

}  // namespace roceshark::triage
