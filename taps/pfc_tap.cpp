// SPDX-License-Identifier: GPL-2.0-or-later
// `tshark -q -z roce,pfc[,filter]`: pause, storms and stalled QPs per
// (point, pausing MAC, priority), a listener on the roce tap.
#include <epan/packet.h>
#include <epan/stat_tap_ui.h>
#include <epan/tap.h>

#include <cstdio>
#include <string>

#include "epan-ext/pfc_report.h"
#include "epan-ext/pfc_stats.h"
#include "epan-ext/text_table.h"
#include "taps/cli.h"

namespace roceshark::glue {
namespace {

struct PfcTap {
  std::string filter;
  pfc::PfcStats stats;
  const Analyzer* analyzer = nullptr;
};

void reset(void* data) { static_cast<PfcTap*>(data)->stats.clear(); }

tap_packet_status packet(void* data, packet_info*, epan_dissect_t*, const void* rec, tap_flags_t) {
  auto* tap = static_cast<PfcTap*>(data);
  const auto& r = *static_cast<const TapRecord*>(rec);
  tap->analyzer = r.analyzer;
  tap->stats.add(r);
  return TAP_PACKET_REDRAW;
}

void draw(void* data) {
  auto* tap = static_cast<PfcTap*>(data);
  if (!tap->analyzer) {
    std::fputs((stats_header("RoCE PFC Analysis", tap->filter) + "No PFC frames.\n" + stats_rule()).c_str(), stdout);
    return;
  }
  std::fputs(pfc::format_pfc_report(tap->stats, *tap->analyzer, tap->filter).c_str(), stdout);
}

void finish(void* data) { delete static_cast<PfcTap*>(data); }

void init(const char* opt_arg, void*) {
  auto* tap = new PfcTap{cli_filter(opt_arg, "roce,pfc"), {}, nullptr};
  start_listener(tap, tap->filter, reset, packet, draw, finish);
}

}  // namespace

void register_pfc_tap() {
  static stat_tap_ui ui = {REGISTER_STAT_GROUP_GENERIC, "RoCE PFC", "roce,pfc", init, 0, nullptr};
  register_stat_tap_ui(&ui, nullptr);
}

}  // namespace roceshark::glue
