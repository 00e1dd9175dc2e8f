// SPDX-License-Identifier: GPL-2.0-or-later
// The `-z roce,...` statistics: each a ReportTap of its stats and view
// (epan-ext/report/views.h, which `roceshark` prints too).
#include "epan-ext/report/views.h"
#include "plugins/roce.h"
#include "taps/report_tap.h"

namespace roceshark::glue {
namespace {

void qos(const qos::QosStats& s, const AnalysisFacts* a, const std::string& filter, const TextOut& out) {
  views::qos(s, a, configured_policy(), filter, out);
}

}  // namespace

void register_taps() {
  ReportTap<QpStats, views::qp>::register_ui("roce,qp", "RoCE QP sequence");
  ReportTap<pfc::PfcStats, views::pfc>::register_ui("roce,pfc", "RoCE PFC");
  ReportTap<qos::QosStats, qos>::register_ui("roce,qos", "RoCE QoS");
  ReportTap<hop::HopStats, views::hops>::register_ui("roce,hops", "RoCE hops");
  ReportTap<ReportStats, views::report>::register_ui("roce,report", "RoCE report (JSON)");
  ReportTap<ReportStats, views::triage>::register_ui("roce,triage", "RoCE triage");
}

}  // namespace roceshark::glue
