// SPDX-License-Identifier: GPL-2.0-or-later
// `tshark -q -z roce,report[,filter]`: one JSON document combining the
// per-QP, per-hop, PFC and QoS results, for scripts and dashboards. The
// schema is versioned: docs/report-schema.json describes version kVersion.
#pragma once
#include <string>

#include "epan-ext/hop_stats.h"
#include "epan-ext/pfc_stats.h"
#include "epan-ext/qos_stats.h"
#include "epan-ext/qp_stats.h"

namespace roceshark {

inline constexpr int kReportVersion = 1;

// The four statistics, fed from one listener.
struct ReportStats {
  QpStats qp;
  pfc::PfcStats pfc;
  qos::QosStats qos;
  hop::HopStats hops;
  void add(const TapRecord& r) {
    qp.add(r);
    pfc.add(r);
    qos.add(r);
    hops.add(r);
  }
  void clear() { *this = ReportStats{}; }
};

// `a` is null when the file had nothing the engine looks at.
std::string format_json_report(const ReportStats& s, const Analyzer* a, const std::string& filter);

}  // namespace roceshark
