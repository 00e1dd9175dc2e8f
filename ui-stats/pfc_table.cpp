// SPDX-License-Identifier: GPL-2.0-or-later
// "RoCE PFC": -z roce,pfc's pause table, one row per (point, pausing MAC,
// priority), with the QPs its pauses held. Storm and chatter episodes, QP by
// QP stalls and propagation stay in the text (docs/gui.md).
#include <map>

#include "epan-ext/common/text_table.h"
#include "epan-ext/decode/ethernet.h"
#include "epan-ext/report/pfc_stats.h"
#include "ui-stats/register.h"
#include "ui-stats/table_ui.h"

namespace roceshark::ui_stats {
namespace {

enum Column : guint {
  point, mac, priority, frames, xoff, xon, paused, longest, storms, chatter, no_ecn, propagated, qps_held, qp_stall
};

class PfcTable {
 public:
  static std::vector<stat_tap_table_item>& columns() {
    static std::vector<stat_tap_table_item> c = {
        {TABLE_ITEM_STRING, TAP_ALIGN_LEFT, "Point", "%s"},
        {TABLE_ITEM_STRING, TAP_ALIGN_LEFT, "Pausing MAC", "%s"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "Prio", "%u"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "Frames", "%u"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "XOFF", "%u"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "XON", "%u"},
        {TABLE_ITEM_STRING, TAP_ALIGN_RIGHT, "Paused", "%s"},
        {TABLE_ITEM_STRING, TAP_ALIGN_RIGHT, "Longest", "%s"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "Storms", "%u"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "Chatter", "%u"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "No-ECN", "%u"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "Propagated", "%u"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "QPs held", "%u"},
        // Summed over the QPs: the triage's "holding 2 QPs for 5.20 ms".
        {TABLE_ITEM_STRING, TAP_ALIGN_RIGHT, "QP stall", "%s"},
    };
    return c;
  }

  void attach(stat_tap_table_ui* ui) {
    rows_.attach(ui, "RoCE PFC (per point, pausing MAC and priority)");
    clear();
  }
  void clear() {
    stats_.clear();
    selected_ = {};
    row_of_.clear();
    rows_.reset();
  }

  // A pause frame settles the episodes, the open ones as they stand
  // (finish(), as Tapped::settle before a -z view draws); only those whose
  // first frame the filter selected count. Its cost is the log's episodes,
  // per pause frame. A packet a pause held changes its row's QPs. Either
  // redraws every row: rows are few.
  bool add(const TapRecord& r) {
    stats_.add(r);
    selected_.add(r.frame());
    if (r.pause && r.events) {
      r.facts->finish();
      stats_.settle(*r.events, selected_);
    }
    if (!r.pause && !(r.verdict && r.verdict->pfc.held)) return false;
    for (const auto& [key, row] : stats_.rows()) show(key, row, *r.facts);
    return true;
  }

 private:
  pfc::PfcStats stats_;
  FrameSet selected_;
  TableRows rows_;
  std::map<pfc::PfcStats::Key, guint> row_of_;

  void show(const pfc::PfcStats::Key& key, const pfc::PfcRow& r, const AnalysisFacts& a) {
    auto [it, added] = row_of_.try_emplace(key);
    if (added) {
      it->second = rows_.add(columns(), {a.point_name(r.point), mac_label(a, r.mac)});
      rows_.set_uint(it->second, priority, r.priority);
    }
    const guint row = it->second;
    const pfc::PauseSummary s = stats_.summary(key);
    rows_.set_uint(row, frames, r.frames);
    rows_.set_uint(row, xoff, r.xoff);
    rows_.set_uint(row, xon, r.xon);
    rows_.set_duration(row, paused, static_cast<int64_t>(s.paused_ns));
    rows_.set_duration(row, longest, static_cast<int64_t>(s.longest_ns));
    rows_.set_uint(row, storms, s.storms);
    rows_.set_uint(row, chatter, s.chatter);
    rows_.set_uint(row, no_ecn, r.no_ecn);
    rows_.set_uint(row, propagated, r.propagated);
    rows_.set_uint(row, qps_held, r.qps.size());
    uint64_t stall = 0;
    for (const auto& [flow, q] : r.qps) stall += q.stall_ns;
    rows_.set_duration(row, qp_stall, r.qps.empty() ? std::nullopt : std::optional<int64_t>(stall));
  }
};

}  // namespace

void register_pfc_table() { TableUi<PfcTable>::register_ui("roce,pfc_table", "RoCE PFC"); }

}  // namespace roceshark::ui_stats
