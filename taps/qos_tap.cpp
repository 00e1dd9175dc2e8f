// SPDX-License-Identifier: GPL-2.0-or-later
// `tshark -q -z roce,qos[,filter]`: the policy in force, the marking seen
// per QP and the violations, a listener on the roce tap.
#include <epan/packet.h>
#include <epan/stat_tap_ui.h>
#include <epan/tap.h>

#include <cstdio>
#include <string>

#include "epan-ext/qos_report.h"
#include "epan-ext/qos_stats.h"
#include "plugins/roce.h"
#include "taps/cli.h"

namespace roceshark::glue {
namespace {

struct QosTap {
  std::string filter;
  qos::QosStats stats;
  const Analyzer* analyzer = nullptr;
};

void reset(void* data) { static_cast<QosTap*>(data)->stats.clear(); }

tap_packet_status packet(void* data, packet_info*, epan_dissect_t*, const void* rec, tap_flags_t) {
  auto* tap = static_cast<QosTap*>(data);
  const auto& r = *static_cast<const TapRecord*>(rec);
  tap->analyzer = r.analyzer;
  tap->stats.add(r);
  return TAP_PACKET_REDRAW;
}

void draw(void* data) {
  auto* tap = static_cast<QosTap*>(data);
  // With no RoCE at all there is no engine to ask: report the configured policy.
  const std::string text = tap->analyzer
                               ? qos::format_qos_report(tap->stats, tap->analyzer->qos(), tap->filter)
                               : qos::format_qos_report(tap->stats, configured_policy(), {}, tap->filter);
  std::fputs(text.c_str(), stdout);
}

void finish(void* data) { delete static_cast<QosTap*>(data); }

void init(const char* opt_arg, void*) {
  auto* tap = new QosTap{cli_filter(opt_arg, "roce,qos"), {}, nullptr};
  start_listener(tap, tap->filter, reset, packet, draw, finish);
}

}  // namespace

void register_qos_tap() {
  static stat_tap_ui ui = {REGISTER_STAT_GROUP_GENERIC, "RoCE QoS", "roce,qos", init, 0, nullptr};
  register_stat_tap_ui(&ui, nullptr);
}

}  // namespace roceshark::glue
