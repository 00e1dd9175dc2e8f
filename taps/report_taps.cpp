// SPDX-License-Identifier: GPL-2.0-or-later
// The `-z roce,...` statistics: each a ReportTap of its stats and report.
#include "epan-ext/hop_report.h"
#include "epan-ext/json_report.h"
#include "epan-ext/pfc_report.h"
#include "epan-ext/qos_report.h"
#include "epan-ext/qp_report.h"
#include "epan-ext/text_table.h"
#include "epan-ext/triage.h"
#include "plugins/roce.h"
#include "taps/report_tap.h"

namespace roceshark::glue {
namespace {

void qp(const QpStats& s, const Analyzer*, const std::string& filter, const TextOut& out) {
  out(format_qp_report(s, filter));
}

void pfc(const pfc::PfcStats& s, const Analyzer* a, const std::string& filter, const TextOut& out) {
  out(a ? pfc::format_pfc_report(s, *a, filter) : stats_header("RoCE PFC Analysis", filter) + "No PFC frames.\n" + stats_rule());
}

void qos(const qos::QosStats& s, const Analyzer* a, const std::string& filter, const TextOut& out) {
  // With no RoCE at all there is no engine to ask: report the configured policy.
  out(a ? qos::format_qos_report(s, a->qos(), filter) : qos::format_qos_report(s, configured_policy(), {}, filter));
}

void hops(const hop::HopStats& s, const Analyzer*, const std::string& filter, const TextOut& out) {
  out(hop::format_hop_report(s, filter));
}

void triage(const ReportStats& s, const Analyzer* a, const std::string& filter, const TextOut& out) {
  out(format_triage_report(s, a, filter));
}

}  // namespace

void register_taps() {
  ReportTap<QpStats, qp>::register_ui("roce,qp", "RoCE QP sequence");
  ReportTap<pfc::PfcStats, pfc>::register_ui("roce,pfc", "RoCE PFC");
  ReportTap<qos::QosStats, qos>::register_ui("roce,qos", "RoCE QoS");
  ReportTap<hop::HopStats, hops>::register_ui("roce,hops", "RoCE hops");
  ReportTap<ReportStats, write_json_report>::register_ui("roce,report", "RoCE report (JSON)");
  ReportTap<ReportStats, triage>::register_ui("roce,triage", "RoCE triage");
}

}  // namespace roceshark::glue
