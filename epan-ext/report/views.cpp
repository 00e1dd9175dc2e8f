// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/report/views.h"

#include "epan-ext/report/hop_report.h"
#include "epan-ext/report/json_report.h"
#include "epan-ext/report/pfc_report.h"
#include "epan-ext/report/qos_report.h"
#include "epan-ext/report/qp_report.h"
#include "epan-ext/common/text_table.h"
#include "epan-ext/report/triage.h"

namespace roceshark::views {

void qp(const QpStats& s, const AnalysisFacts*, const std::string& filter, const TextOut& out) {
  out(format_qp_report(s, filter));
}

void pfc(const pfc::PfcStats& s, const AnalysisFacts* a, const std::string& filter, const TextOut& out) {
  out(a ? pfc::format_pfc_report(s, *a, filter) : stats_header("RoCE PFC Analysis", filter) + "No PFC frames.\n" + stats_rule());
}

void qos(const qos::QosStats& s, const AnalysisFacts* a, const qos::Policy& policy, const std::string& filter,
         const TextOut& out) {
  // With no RoCE at all there is no engine to ask: report the configured policy.
  out(a ? qos::format_qos_report(s, a->policy(), a->learned(), filter, *a) : qos::format_qos_report(s, policy, {}, filter));
}

void hops(const hop::HopStats& s, const AnalysisFacts*, const std::string& filter, const TextOut& out) {
  out(hop::format_hop_report(s, filter));
}

void triage(const ReportStats& s, const AnalysisFacts* a, const std::string& filter, const TextOut& out) {
  out(format_triage_report(s, a, filter));
}

void report(const ReportStats& s, const AnalysisFacts* a, const std::string& filter, const TextOut& out) {
  write_json_report(s, a, filter, out);
}

}  // namespace roceshark::views
