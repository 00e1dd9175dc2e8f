// SPDX-License-Identifier: GPL-2.0-or-later
// One capture's analysis, from decoded records to every view, for a front
// end that keeps no result per frame: the roceshark command and the fuzz
// targets (the Wireshark plugin keeps its results by frame: StoredAnalysis).
// The layer above analysis/ and report/: it sees both.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "epan-ext/analysis/analyzer.h"
#include "epan-ext/analysis/event_log.h"
#include "epan-ext/common/json_writer.h"
#include "epan-ext/common/preferences.h"
#include "epan-ext/report/health.h"
#include "epan-ext/report/tapped.h"

namespace roceshark {

// The views by name, as `-z roce,NAME` and `roceshark NAME` print them;
// `health` is the triage with its verdict as the exit status.
inline constexpr std::string_view kViewNames[] = {"qp", "pfc", "qos", "hops", "triage", "report", "health"};

// The exit status of a health verdict: 0 PASS (and WARN unless
// `fail_on_warn`), 1 FAIL (or WARN), 2 cannot judge (INCOMPLETE, NO DATA).
int health_exit_status(triage::Grade g, bool fail_on_warn);

class Session {
 public:
  explicit Session(const prefs::Settings& s) : settings_(s) {}
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  void name_point(uint32_t point, std::string name) {
    if (!analyzer_.point_named(point)) analyzer_.name_point(point, std::move(name));
  }
  // Each frame's record, in frame order.
  void feed(const PacketInfo& p, uint32_t wire_len);
  void feed(const pfc::PauseFrame& f, uint32_t wire_len);
  void feed(uint32_t frame, uint64_t ts_ns, const qos::DcbxAnnouncement& a, uint32_t wire_len);
  void feed(const icmp::TooBig& m, uint32_t wire_len);
  void feed(const CrossPacket& c) { analyzer_.process(c); }  // weighed only
  // A read error that ended the capture early: the report says so.
  void cut_short(std::string error) { tapped_.stats.cut_short.push_back(std::move(error)); }

  // Prints view `name` (one of kViewNames); returns health's exit status,
  // 0 for the others.
  int view(std::string_view name, bool fail_on_warn, const TextOut& out);

 private:
  void tap(TapRecord r);

  const prefs::Settings settings_;
  EventLog events_;
  Analyzer analyzer_{settings_.cfg, &events_};
  Tapped<ReportStats> tapped_;
};

}  // namespace roceshark
