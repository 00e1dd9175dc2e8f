// SPDX-License-Identifier: GPL-2.0-or-later
// "RoCE Hops": -z roce,hops's per-hop figures as a table, one row per
// (upstream point, downstream point). Times in integer nanoseconds, as
// roce.hop.latency_ns has them: the Qt dialog shows a float with six
// decimals, and sorts strings as text.
#include <map>
#include <tuple>
#include <utility>

#include "epan-ext/hop_stats.h"
#include "ui-stats/register.h"
#include "ui-stats/table_ui.h"

namespace roceshark::ui_stats {
namespace {

enum Column : guint { from, to, matched, lost, lat_min, lat_p50, lat_p99, lat_max, queue_p99, bursts, remarked, ce_set };

class HopTable {
 public:
  static std::vector<stat_tap_table_item>& columns() {
    static std::vector<stat_tap_table_item> c = {
        {TABLE_ITEM_STRING, TAP_ALIGN_LEFT, "From", "%s"},
        {TABLE_ITEM_STRING, TAP_ALIGN_LEFT, "To", "%s"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "Matched", "%u"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "Lost", "%u"},
        {TABLE_ITEM_INT, TAP_ALIGN_RIGHT, "Latency min (ns)", "%d"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "Latency p50 (ns)", "%u"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "Latency p99 (ns)", "%u"},
        {TABLE_ITEM_INT, TAP_ALIGN_RIGHT, "Latency max (ns)", "%d"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "Queue p99 (ns)", "%u"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "Bursts", "%u"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "Remarked", "%u"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "CE set", "%u"},
    };
    return c;
  }

  void attach(stat_tap_table_ui* ui) {
    rows_.attach(ui, "RoCE hops (upstream point -> downstream point)");
    clear();
  }
  void clear() {
    stats_.clear();
    row_of_.clear();
    lost_seen_.clear();
    rows_.reset();
  }

  bool add(const TapRecord& r) {
    const Verdict* v = r.verdict;
    const hop::HopVerdict* h = v && v->has_hop ? r.analyzer->find_hop(v->frame) : nullptr;
    stats_.add(r);
    bool changed = false;
    if (h) {
      const Hop hop{h->prev_point, v->point};
      if (auto it = stats_.hops().find(hop); it != stats_.hops().end()) {
        show(hop, it->second, *r.analyzer);
        changed = true;
      }
    }
    if (v && v->flow != kNoId) changed |= count_losses(*v, *r.analyzer);
    return changed;
  }

 private:
  using Hop = std::pair<uint32_t, uint32_t>;
  hop::HopStats stats_;
  TableRows rows_;
  std::map<Hop, guint> row_of_;
  // The engine's losses per (hop, flow) already in the Lost column.
  std::map<std::tuple<uint32_t, uint32_t, uint32_t>, uint64_t> lost_seen_;

  void show(const Hop& hop, const hop::HopRow& r, const Analyzer& a) {
    auto [it, added] = row_of_.try_emplace(hop);
    if (added) it->second = rows_.add(columns(), {a.point_name(hop.first), a.point_name(hop.second)});
    const guint row = it->second;
    rows_.set_uint(row, matched, r.matched);
    // Exact and signed, as -z roce,hops shows them; the percentiles count a
    // negative latency (unsynced clocks) as 0.
    rows_.set_int(row, lat_min, r.min_latency_ns);
    rows_.set_uint(row, lat_p50, r.latency_ns.quantile(0.5));
    rows_.set_uint(row, lat_p99, r.latency_ns.quantile(0.99));
    rows_.set_int(row, lat_max, r.max_latency_ns);
    rows_.set_uint(row, queue_p99, r.queue_ns.quantile(0.99));
    rows_.set_uint(row, bursts, r.bursts);
    rows_.set_uint(row, remarked, r.remarked);
    rows_.set_uint(row, ce_set, r.ce_set);
  }

  // The engine counts a loss on a hop when a later packet of the same flow
  // reaches either end of it, so only the hops at this packet's point, for
  // its flow, can have changed. (HopStats::losses() sums every flow: too
  // much work per packet.)
  bool count_losses(const Verdict& v, const Analyzer& a) {
    const auto& engine = a.hops().hops();
    bool changed = false;
    for (const auto& [hop, row] : row_of_) {
      if (hop.first != v.point && hop.second != v.point) continue;
      auto e = engine.find({hop.first, hop.second, v.flow});
      if (e == engine.end()) continue;
      uint64_t& seen = lost_seen_[{hop.first, hop.second, v.flow}];
      if (e->second.lost == seen) continue;
      // A packet taken as lost that turns up late (reordering) takes one back.
      rows_.set_uint(row, lost, rows_.uint_at(row, lost) + e->second.lost - seen);
      seen = e->second.lost;
      changed = true;
    }
    return changed;
  }
};

}  // namespace

void register_hop_table() { TableUi<HopTable>::register_ui("roce,hop_table", "RoCE Hops"); }

}  // namespace roceshark::ui_stats
