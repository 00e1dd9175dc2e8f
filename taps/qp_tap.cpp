// SPDX-License-Identifier: GPL-2.0-or-later
// `tshark -q -z roce,qp[,filter]`: the per-QP table, a listener on the roce tap.
#include <epan/packet.h>
#include <epan/stat_tap_ui.h>
#include <epan/tap.h>

#include <cstdio>
#include <cstring>
#include <string>

#include "epan-ext/qp_report.h"
#include "epan-ext/qp_stats.h"
#include "taps/cli.h"

namespace roceshark::glue {
namespace {

struct QpTap {
  std::string filter;
  QpStats stats;
};

void reset(void* data) { static_cast<QpTap*>(data)->stats.clear(); }

tap_packet_status packet(void* data, packet_info*, epan_dissect_t*, const void* rec, tap_flags_t) {
  static_cast<QpTap*>(data)->stats.add(*static_cast<const TapRecord*>(rec));
  return TAP_PACKET_REDRAW;
}

void draw(void* data) {
  auto* tap = static_cast<QpTap*>(data);
  std::fputs(format_qp_report(tap->stats, tap->filter).c_str(), stdout);
}

void finish(void* data) { delete static_cast<QpTap*>(data); }

void init(const char* opt_arg, void*) {
  auto* tap = new QpTap{cli_filter(opt_arg, "roce,qp"), {}};
  start_listener(tap, tap->filter, reset, packet, draw, finish);
}

}  // namespace

void register_qp_tap() {
  static stat_tap_ui ui = {REGISTER_STAT_GROUP_GENERIC, "RoCE QP sequence", "roce,qp", init, 0, nullptr};
  register_stat_tap_ui(&ui, nullptr);
}

}  // namespace roceshark::glue
