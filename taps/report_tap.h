// SPDX-License-Identifier: GPL-2.0-or-later
// One `-z roce,NAME[,filter]` statistic: a listener on the roce tap that
// feeds a Stats and prints what Format makes of it. Every roce statistic is
// one of these; only the Stats and the Format differ.
#pragma once
#include <epan/packet.h>
#include <epan/stat_tap_ui.h>
#include <epan/tap.h>

#include <cstdio>
#include <string>
#include <type_traits>

#include "epan-ext/common/json_writer.h"
#include "epan-ext/report/tapped.h"
#include "plugins/compat/ws_compat.h"
#include "taps/cli.h"
#include "taps/read_check.h"

namespace roceshark::glue {

// Format gets the stats, the engine (null when the file had no RoCE, PFC or
// LLDP frame) and the filter, and writes to the output it is given.
template <typename Stats>
using ReportFormat = void (*)(const Stats&, const AnalysisFacts*, const std::string&, const TextOut&);

template <typename Stats, ReportFormat<Stats> Format>
class ReportTap {
 public:
  static void register_ui(const char* cli, const char* title) {
    static stat_tap_ui ui = {REGISTER_STAT_GROUP_GENERIC, title, cli, init, 0, nullptr};
    cli_ = cli;
    register_stat_tap_ui(&ui, nullptr);
  }

 private:
  std::string filter_;
  Tapped<Stats> tapped_;
  static inline const char* cli_ = nullptr;

  static ws::tap_init_result init(const char* opt_arg, void*) {
    auto* tap = new ReportTap;
    tap->filter_ = cli_filter(opt_arg, cli_);
    start_listener(tap, tap->filter_, reset, packet, draw, finish);
    return ws::tap_init_done();
  }
  static void reset(void* data) { static_cast<ReportTap*>(data)->tapped_.clear(); }
  static tap_packet_status packet(void* data, packet_info*, epan_dissect_t*, const void* rec, tap_flags_t) {
    static_cast<ReportTap*>(data)->tapped_.add(*static_cast<const TapRecord*>(rec));
    return TAP_PACKET_REDRAW;
  }
  static void draw(void* data) {
    auto* tap = static_cast<ReportTap*>(data);
    tap->tapped_.settle();
    if constexpr (std::is_same_v<Stats, ReportStats>)  // the views that give limits
      if (const auto& e = tshark_read_error()) tap->tapped_.stats.cut_short = {*e};
    Format(tap->tapped_.stats, tap->tapped_.facts, tap->filter_,
           [](std::string_view text) { std::fwrite(text.data(), 1, text.size(), stdout); });
  }
  static void finish(void* data) { delete static_cast<ReportTap*>(data); }
};

}  // namespace roceshark::glue
