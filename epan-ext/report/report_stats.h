// SPDX-License-Identifier: GPL-2.0-or-later
// Every statistic at once, fed from one listener: what `-z roce,report`
// and `-z roce,triage` read.
#pragma once
#include <algorithm>
#include <string>
#include <vector>

#include "epan-ext/report/evidence.h"
#include "epan-ext/report/hop_stats.h"
#include "epan-ext/report/impact_stats.h"
#include "epan-ext/report/pfc_stats.h"
#include "epan-ext/report/qos_stats.h"
#include "epan-ext/report/qp_stats.h"

namespace roceshark {

struct ReportStats {
  QpStats qp;
  pfc::PfcStats pfc;
  qos::QosStats qos;
  hop::HopStats hops;
  triage::ImpactStats impact;
  triage::EvidenceStats evidence;
  // Read errors that cut a capture short, from a front end that knows them.
  std::vector<std::string> cut_short;
  // Packets a live capture dropped before the analysis saw them (libpcap's
  // kernel and interface drops), from a front end that knows them.
  uint64_t capture_drops = 0;
  void add(const TapRecord& r) {
    qp.add(r);
    pfc.add(r);
    qos.add(r);
    hops.add(r);
    impact.add(r);
    evidence.add(r);
  }
  // Takes in the engine's later events about the frames selected.
  void settle(const EventLog& log, const FrameSet& selected) {
    hops.settle(log, selected);
    pfc.settle(log, selected);
    evidence.settle(log, selected);
    qp.settle(log, selected);
    impact.settle(log, selected);
  }
  void clear() { *this = ReportStats{}; }
  // How often the statistics' internal caps were passed: DCBX announcements
  // with findings not kept, NAKs taken back too late (common/limits.h).
  CapCounts caps() const {
    CapCounts c{};
    c[size_t(Cap::dcbx)] = qos.dcbx_dropped_findings();
    c[size_t(Cap::nak_resends)] =
        std::max({qp.resends_missed(), impact.resends_missed(), evidence.resends_missed()});
    return c;
  }
};

}  // namespace roceshark
