// SPDX-License-Identifier: GPL-2.0-or-later
// `tshark -q -z roce,report[,filter]`: one JSON document combining the
// per-QP, per-hop, PFC and QoS results, for scripts and dashboards. The
// schema is versioned: docs/report-schema.json describes version kVersion.
#pragma once
#include <string>

#include "epan-ext/common/json_writer.h"

#include "epan-ext/report/report_stats.h"

namespace roceshark {

inline constexpr int kReportVersion = 12;

// `a` is null when the file had nothing the engine looks at. Written to
// `out` as it is made; format_json_report keeps it whole instead.
void write_json_report(const ReportStats& s, const AnalysisFacts* a, const std::string& filter, const TextOut& out);
std::string format_json_report(const ReportStats& s, const AnalysisFacts* a, const std::string& filter);

}  // namespace roceshark
