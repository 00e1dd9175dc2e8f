// SPDX-License-Identifier: GPL-2.0-or-later
// "RoCE Hops": -z roce,hops's per-hop figures as a table, one row per
// (upstream point, downstream point). Times as the command writes them,
// "–" where there is no sample or the marking column says there is no
// estimate (TableRows::set_duration).
#include <map>
#include <utility>

#include "epan-ext/report/hop_stats.h"
#include "ui-stats/register.h"
#include "ui-stats/table_ui.h"

namespace roceshark::ui_stats {
namespace {

enum Column : guint {
  from, to, matched, lost, reordered, lat_min, lat_p50, lat_p99, lat_max, queue_p99, bursts, remarked, ce_set,
  ecn_priority, ecn_estimate, ecn_onset, ecn_full, ecn_unmarked_max, vlan_changed, largest_passed, lost_longer
};

class HopTable {
 public:
  static std::vector<stat_tap_table_item>& columns() {
    static std::vector<stat_tap_table_item> c = {
        {TABLE_ITEM_STRING, TAP_ALIGN_LEFT, "From", "%s"},
        {TABLE_ITEM_STRING, TAP_ALIGN_LEFT, "To", "%s"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "Matched", "%u"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "Lost", "%u"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "Reordered", "%u"},
        {TABLE_ITEM_STRING, TAP_ALIGN_RIGHT, "Latency min", "%s"},
        {TABLE_ITEM_STRING, TAP_ALIGN_RIGHT, "Latency p50", "%s"},
        {TABLE_ITEM_STRING, TAP_ALIGN_RIGHT, "Latency p99", "%s"},
        {TABLE_ITEM_STRING, TAP_ALIGN_RIGHT, "Latency max", "%s"},
        {TABLE_ITEM_STRING, TAP_ALIGN_RIGHT, "Queue p99", "%s"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "Bursts", "%u"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "Remarked", "%u"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "CE set", "%u"},
        // -z roce,hops's ECN table, for the hop's priority with the most ECN-capable packets.
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "ECN priority", "%u"},
        {TABLE_ITEM_STRING, TAP_ALIGN_LEFT, "ECN marking", "%s"},
        {TABLE_ITEM_STRING, TAP_ALIGN_RIGHT, "ECN onset", "%s"},
        {TABLE_ITEM_STRING, TAP_ALIGN_RIGHT, "ECN full marking", "%s"},
        {TABLE_ITEM_STRING, TAP_ALIGN_RIGHT, "Largest unmarked queue", "%s"},
        // -z roce,hops's VLAN and MTU columns.
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "VLAN changed", "%u"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "Largest passed (B)", "%u"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "Lost longer", "%u"},
    };
    return c;
  }

  void attach(stat_tap_table_ui* ui) {
    rows_.attach(ui, "RoCE hops (upstream point -> downstream point)");
    clear();
  }
  void clear() {
    stats_.clear();
    selected_ = {};
    row_of_.clear();
    lost_.clear();
    sizes_.clear();
    rows_.reset();
  }

  bool add(const TapRecord& r) {
    const Verdict* v = r.verdict;
    const hop::HopVerdict* h = r.hop;
    stats_.add(r);
    selected_.add(r.frame());
    bool changed = false;
    // The losses known by now of the frames tapped so far (the GUI taps
    // after the first pass: by then every one is known).
    if (r.events && stats_.settle(*r.events, selected_, r.frame())) {
      lost_.clear();
      for (const auto& [hop, l] : stats_.losses()) lost_[hop] = l;
      sizes_ = stats_.sizes();
      for (const auto& [hop, row] : row_of_) show_loss(hop, row);
      // A hop whose only selected frames are upstream ones lost on it has
      // no match to bring its row: its losses do.
      for (const auto& [hop, row] : stats_.hops())
        if (!row_of_.contains(hop)) show(hop, row, *r.facts);
      changed = true;
    }
    if (h) {
      const Hop hop{h->prev_point, v->point};
      if (auto it = stats_.hops().find(hop); it != stats_.hops().end()) {
        show(hop, it->second, *r.facts);
        changed = true;
      }
    }
    return changed;
  }

 private:
  using Hop = std::pair<uint32_t, uint32_t>;
  hop::HopStats stats_;
  FrameSet selected_;
  TableRows rows_;
  std::map<Hop, guint> row_of_;
  // Lost, Reordered and Lost longer: HopStats's losses as last settled.
  std::map<Hop, hop::HopLoss> lost_;
  std::map<Hop, hop::SizeSplit> sizes_;

  void show_loss(const Hop& hop, guint row) {
    const auto it = lost_.find(hop);
    const hop::HopLoss l = it == lost_.end() ? hop::HopLoss{} : it->second;
    rows_.set_uint(row, lost, l.lost);
    rows_.set_uint(row, reordered, l.reordered);
    const auto z = sizes_.find(hop);
    rows_.set_uint(row, lost_longer, z == sizes_.end() ? 0 : z->second.above);
  }

  void show(const Hop& hop, const hop::HopRow& r, const AnalysisFacts& a) {
    auto [it, added] = row_of_.try_emplace(hop);
    if (added) it->second = rows_.add(columns(), {a.point_name(hop.first), a.point_name(hop.second)});
    const guint row = it->second;
    rows_.set_uint(row, matched, r.matched);
    show_loss(hop, row);
    // Exact and signed, as -z roce,hops shows them; the percentiles count a
    // negative latency (unsynced clocks) as 0.
    // No match (a hop known by its losses): no latency, not the extremes' sentinels.
    rows_.set_duration(row, lat_min, r.matched ? std::optional<int64_t>(r.min_latency_ns) : std::nullopt);
    rows_.set_quantile(row, lat_p50, r.latency_ns, 0.5);
    rows_.set_quantile(row, lat_p99, r.latency_ns, 0.99);
    rows_.set_duration(row, lat_max, r.matched ? std::optional<int64_t>(r.max_latency_ns) : std::nullopt);
    rows_.set_quantile(row, queue_p99, r.queue_ns, 0.99);
    rows_.set_uint(row, bursts, r.bursts);
    rows_.set_uint(row, remarked, r.remarked);
    rows_.set_uint(row, ce_set, r.ce_set);
    rows_.set_uint(row, vlan_changed, r.vlan_changed);
    rows_.set_uint(row, largest_passed, r.largest_passed);
    show_ecn(hop, row);
  }

  void show_ecn(const Hop& hop, guint row) {
    const hop::EcnThreshold* most = nullptr;
    uint8_t priority = 0;
    for (const auto& [p, t] : stats_.ecn())
      if (p.from == hop.first && p.to == hop.second && (!most || t.samples() > most->samples()))
        most = &t, priority = p.priority;
    if (!most) return;
    const hop::EcnEstimate e = most->estimate();
    const bool marks = e.state == hop::EcnEstimate::State::marks;
    rows_.set_uint(row, ecn_priority, priority);
    rows_.set_string(row, ecn_estimate, hop::state_name(e.state));
    const auto ns = [](uint64_t v) { return std::optional<int64_t>(static_cast<int64_t>(v)); };
    rows_.set_duration(row, ecn_onset, marks ? ns(e.onset_ns) : std::nullopt);
    rows_.set_duration(row, ecn_full, marks && e.full_ns ? ns(*e.full_ns) : std::nullopt);
    rows_.set_duration(row, ecn_unmarked_max, ns(e.max_unmarked_ns));
  }
};

}  // namespace

void register_hop_table() { TableUi<HopTable>::register_ui("roce,hop_table", "RoCE Hops"); }

}  // namespace roceshark::ui_stats
