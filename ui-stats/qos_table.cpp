// SPDX-License-Identifier: GPL-2.0-or-later
// "RoCE QoS": -z roce,qos's marking table, one row per directed flow per
// capture point, with the checks it failed. The policy in force and DCBX
// stay in the text (docs/gui.md).
#include <map>

#include "epan-ext/common/text_table.h"
#include "epan-ext/report/qos_report.h"
#include "epan-ext/report/qos_stats.h"
#include "ui-stats/register.h"
#include "ui-stats/table_ui.h"

namespace roceshark::ui_stats {
namespace {

using qos::ValueKind;

enum Column : guint {
  stream, point, source, destination, dest_qp, roles, dscp, pcp, ecn, priority, cnp_dscp, cnp_pcp, violations
};

class QosTable {
 public:
  static std::vector<stat_tap_table_item>& columns() {
    static std::vector<stat_tap_table_item> c = {
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "Stream", "%u"},
        {TABLE_ITEM_STRING, TAP_ALIGN_LEFT, "Point", "%s"},
        {TABLE_ITEM_STRING, TAP_ALIGN_LEFT, "Source", "%s"},
        {TABLE_ITEM_STRING, TAP_ALIGN_LEFT, "Destination", "%s"},
        {TABLE_ITEM_STRING, TAP_ALIGN_LEFT, "DestQP", "%s"},
        // value:packets, as in -z roce,qos.
        {TABLE_ITEM_STRING, TAP_ALIGN_LEFT, "Roles", "%s"},
        {TABLE_ITEM_STRING, TAP_ALIGN_LEFT, "DSCP", "%s"},
        {TABLE_ITEM_STRING, TAP_ALIGN_LEFT, "PCP", "%s"},
        {TABLE_ITEM_STRING, TAP_ALIGN_LEFT, "ECN (data)", "%s"},
        {TABLE_ITEM_STRING, TAP_ALIGN_LEFT, "Priority", "%s"},
        {TABLE_ITEM_STRING, TAP_ALIGN_LEFT, "CNP DSCP", "%s"},
        {TABLE_ITEM_STRING, TAP_ALIGN_LEFT, "CNP PCP", "%s"},
        // field:packets: the field is the display filter for them.
        {TABLE_ITEM_STRING, TAP_ALIGN_LEFT, "Violations", "%s"},
    };
    return c;
  }

  void attach(stat_tap_table_ui* ui) {
    rows_.attach(ui, "RoCE QoS (per directed flow, per capture point)");
    clear();
  }
  void clear() {
    stats_.clear();
    row_of_.clear();
    rows_.reset();
  }

  bool add(const TapRecord& r) {
    stats_.add(r);
    const Verdict* v = r.verdict;
    if (!v) return false;
    const qos::QosStats::RowKey key{v->stream, v->point, v->flow};
    const auto it = stats_.rows().find(key);
    if (it == stats_.rows().end()) return false;
    show(key, it->second);
    return true;
  }

 private:
  qos::QosStats stats_;
  TableRows rows_;
  std::map<qos::QosStats::RowKey, guint> row_of_;

  void show(const qos::QosStats::RowKey& key, const qos::QosRow& r) {
    auto [it, added] = row_of_.try_emplace(key);
    if (added) {
      it->second =
          rows_.add(columns(), {r.point_name, r.flow.src.to_string(), r.flow.dst.to_string(), cell::qp(r.flow.qp)});
      rows_.set_uint(it->second, stream, r.stream);
    }
    const guint row = it->second;
    rows_.set_string(row, roles, qos::format_roles(r));
    const auto counts = [&](guint column, const qos::ValueCounts& c, ValueKind kind) {
      rows_.set_string(row, column, c.empty() ? TableRows::kNone : qos::format_counts(c, kind));
    };
    counts(dscp, r.dscp, ValueKind::number);
    counts(pcp, r.pcp, ValueKind::pcp);
    counts(ecn, r.ecn, ValueKind::ecn);
    counts(priority, r.priority, ValueKind::number);
    counts(cnp_dscp, r.cnp_dscp, ValueKind::number);
    counts(cnp_pcp, r.cnp_pcp, ValueKind::pcp);
    std::string failed;
    for (size_t c = 0; c < qos::kChecks; ++c) {
      const auto check = static_cast<qos::Check>(c);
      const auto v = stats_.violations().find({check, std::get<1>(key), std::get<0>(key), std::get<2>(key)});
      if (v != stats_.violations().end())
        failed += (failed.empty() ? "" : " ") + qos::check_field(check) + ":" + cell::num(v->second.packets);
    }
    rows_.set_string(row, violations, failed.empty() ? TableRows::kNone : failed);
  }
};

}  // namespace

void register_qos_table() { TableUi<QosTable>::register_ui("roce,qos_table", "RoCE QoS"); }

}  // namespace roceshark::ui_stats
