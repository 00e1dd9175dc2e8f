// SPDX-License-Identifier: GPL-2.0-or-later
// "RoCE QPs": -z roce,qp's figures as a table, one row per request flow
// (requester -> responder, destination QP) per capture point, with the
// stall the triage ranks by (ImpactStats). Times as the command writes
// them, "–" where there was no sample (TableRows::set_duration).
#include <map>

#include "epan-ext/report/impact_stats.h"
#include "epan-ext/report/qp_stats.h"
#include "epan-ext/common/text_table.h"
#include "ui-stats/register.h"
#include "ui-stats/table_ui.h"

namespace roceshark::ui_stats {
namespace {

enum Column : guint {
  point, stream, requester, responder, dest_qp, requests, stall, gaps, skipped, retrans, gbn, timeout, dups, responses,
  nak_seq, rnr_nak, cnps, ecn_ce, hop_p50, hop_p99, rtt_p50, rtt_p99
};

class QpTable {
 public:
  static std::vector<stat_tap_table_item>& columns() {
    static std::vector<stat_tap_table_item> c = {
        // Point first: the dialog sorts on the first column, and a point's
        // rows then sit together, as in a per-point capture.
        {TABLE_ITEM_STRING, TAP_ALIGN_LEFT, "Point", "%s"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "Stream", "%u"},
        {TABLE_ITEM_STRING, TAP_ALIGN_LEFT, "Requester", "%s"},
        {TABLE_ITEM_STRING, TAP_ALIGN_LEFT, "Responder", "%s"},
        {TABLE_ITEM_STRING, TAP_ALIGN_LEFT, "DestQP", "%s"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "Requests", "%u"},
        // The triage's per-QP cost: loss recovery and PFC stall, overlaps once.
        {TABLE_ITEM_STRING, TAP_ALIGN_RIGHT, "Stall", "%s"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "Gaps", "%u"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "Skipped PSNs", "%u"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "Retrans", "%u"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "GBN", "%u"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "Timeout", "%u"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "Dup", "%u"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "Responses", "%u"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "NAK-seq", "%u"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "RNR-NAK", "%u"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "CNP", "%u"},
        {TABLE_ITEM_UINT, TAP_ALIGN_RIGHT, "ECN-CE", "%u"},
        {TABLE_ITEM_STRING, TAP_ALIGN_RIGHT, "Hop latency p50", "%s"},
        {TABLE_ITEM_STRING, TAP_ALIGN_RIGHT, "Hop latency p99", "%s"},
        {TABLE_ITEM_STRING, TAP_ALIGN_RIGHT, "RTT p50", "%s"},
        {TABLE_ITEM_STRING, TAP_ALIGN_RIGHT, "RTT p99", "%s"},
    };
    return c;
  }

  void attach(stat_tap_table_ui* ui) {
    rows_.attach(ui, "RoCE QPs (per requester -> responder QP, per capture point)");
    clear();
  }
  void clear() {
    stats_.clear();
    impact_.clear();
    row_of_.clear();
    rows_.reset();
  }

  bool add(const TapRecord& r) {
    stats_.add(r);
    impact_.add(r);
    const Verdict* v = r.verdict;
    if (!v) return false;
    const QpStats::Key key{v->stream, v->point, v->row_flow};
    auto it = stats_.rows().find(key);
    if (it == stats_.rows().end()) return false;
    show(key, it->second);
    return true;
  }

 private:
  QpStats stats_;
  triage::ImpactStats impact_;
  TableRows rows_;
  std::map<QpStats::Key, guint> row_of_;

  void show(const QpStats::Key& key, const QpRow& r) {
    auto [it, added] = row_of_.try_emplace(key);
    if (added) {
      it->second = rows_.add(columns(), {r.point_name, r.flow.src.to_string(), r.flow.dst.to_string(), cell::qp(r.flow.qp)});
      rows_.set_uint(it->second, stream, r.stream);
    }
    const guint row = it->second;
    rows_.set_uint(row, requests, r.requests);
    rows_.set_uint(row, gaps, r.gaps);
    rows_.set_uint(row, skipped, r.skipped_psns);
    const triage::QpImpact* q = impact_.find(std::get<2>(key), std::get<1>(key));
    rows_.set_duration(row, stall, q ? std::optional<int64_t>(q->stalled.total()) : std::nullopt);
    rows_.set_uint(row, retrans, r.retransmissions);
    rows_.set_uint(row, gbn, r.gbn_resends);
    rows_.set_uint(row, timeout, r.timeout_retransmissions);
    rows_.set_uint(row, dups, r.duplicates);
    rows_.set_uint(row, responses, r.responses);
    rows_.set_uint(row, nak_seq, r.naks[static_cast<size_t>(NakCode::psn_sequence_error)]);
    rows_.set_uint(row, rnr_nak, r.naks[static_cast<size_t>(NakCode::rnr)]);
    rows_.set_uint(row, cnps, r.cnps);
    rows_.set_uint(row, ecn_ce, r.ce);
    rows_.set_quantile(row, hop_p50, r.hop_latency_ns, 0.5);
    rows_.set_quantile(row, hop_p99, r.hop_latency_ns, 0.99);
    rows_.set_quantile(row, rtt_p50, r.rtt_ns, 0.5);
    rows_.set_quantile(row, rtt_p99, r.rtt_ns, 0.99);
  }
};

}  // namespace

void register_qp_table() { TableUi<QpTable>::register_ui("roce,qp_table", "RoCE QPs"); }

}  // namespace roceshark::ui_stats
