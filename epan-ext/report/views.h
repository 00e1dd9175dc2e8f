// SPDX-License-Identifier: GPL-2.0-or-later
// The statistics views, as `tshark -q -z roce,NAME` and `roceshark NAME`
// both print them: each renders its part of the gathered statistics.
#pragma once
#include <string>

#include "epan-ext/common/json_writer.h"
#include "epan-ext/report/report_stats.h"

namespace roceshark::views {

// `a` is null when the capture had nothing the engine looks at; `policy`
// is the configured one, which the QoS view reports then.
void qp(const QpStats& s, const AnalysisFacts* a, const std::string& filter, const TextOut& out);
void pfc(const pfc::PfcStats& s, const AnalysisFacts* a, const std::string& filter, const TextOut& out);
void qos(const qos::QosStats& s, const AnalysisFacts* a, const qos::Policy& policy, const std::string& filter,
         const TextOut& out);
void hops(const hop::HopStats& s, const AnalysisFacts* a, const std::string& filter, const TextOut& out);
void triage(const ReportStats& s, const AnalysisFacts* a, const std::string& filter, const TextOut& out);
void report(const ReportStats& s, const AnalysisFacts* a, const std::string& filter, const TextOut& out);

}  // namespace roceshark::views
