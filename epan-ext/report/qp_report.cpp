// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/report/qp_report.h"

#include <cstdio>

#include "epan-ext/common/text_table.h"

namespace roceshark {
namespace {

using Col = TextTable::Column;
constexpr auto kLeft = TextTable::Align::left;
using cell::num;

std::string us(uint64_t ns) { return cell::us(ns, 2); }

std::vector<std::string> flow_cells(const QpRow& r) {
  return {num(r.stream), r.point_name, r.flow.src.to_string(), r.flow.dst.to_string(), cell::qp(r.flow.qp)};
}

std::vector<Col> flow_columns() {
  return {{"Stream"}, {"Point", kLeft}, {"Requester", kLeft}, {"Responder", kLeft}, {"DestQP", kLeft}};
}

// The NAK codes other than sequence error and RNR, which have columns.
std::string other_naks(const QpRow& r) {
  std::string out;
  for (auto code : {NakCode::invalid_request, NakCode::remote_access_error, NakCode::remote_operational_error,
                    NakCode::invalid_rd_request, NakCode::reserved}) {
    const uint64_t n = r.naks[static_cast<size_t>(code)];
    if (n) out += (out.empty() ? "" : ", ") + std::string(nak_name(code)) + " " + num(n);
  }
  return out.empty() ? "-" : out;
}

std::string psn_range(const QpRow& r) {
  return r.has_psn ? num(r.first_psn) + "-" + num(r.highest_psn) : "-";
}

}  // namespace

std::string format_qp_report(const QpStats& stats, const std::string& filter) {
  auto seq_cols = flow_columns();
  for (const char* h : {"Packets", "Bytes", "PSN first-highest", "Gaps", "Skipped", "OOO", "OOO-depth", "Retrans",
                        "GBN", "Selective", "Timeout", "RNR-retry", "READ-retry", "Dup", "Ambiguous",
                        "Hop latency p50/p99/max (us)"})
    seq_cols.push_back({h});
  seq_cols.push_back({"Recovery", kLeft});
  TextTable seq(seq_cols);

  auto resp_cols = flow_columns();
  for (const char* h : {"Responses", "ACKs", "DupACK", "NAK-seq", "NAK-reorder", "RNR-NAK", "Resp-gaps",
                        "Resp-missing", "CNP", "ECN-CE", "ICRC-bad", "RTT-n", "RTT min/avg/p99/max (us)"})
    resp_cols.push_back({h});
  resp_cols.push_back({"Other NAKs", kLeft});
  TextTable resp(resp_cols);

  uint64_t unchecked = 0, silent = 0, reused = 0, ambiguous = 0, ambiguous_pairs = 0;
  for (const auto& [key, r] : stats.rows()) {
    auto cells = flow_cells(r);
    if (r.requests) {
      const Histogram& hl = r.hop_latency_ns;
      for (auto s : {num(r.requests), num(r.request_bytes), psn_range(r), num(r.gaps), num(r.skipped_psns),
                     num(r.out_of_order), r.out_of_order ? num(r.reorder_depth_max) : "-", num(r.retransmissions),
                     num(r.gbn_resends), num(r.selective_resends), num(r.timeout_retransmissions),
                     num(r.rnr_retries), num(r.read_retries), num(r.duplicates), num(r.ambiguous),
                     hl.count() ? us(hl.quantile(0.5)) + "/" + us(hl.quantile(0.99)) + "/" + us(hl.max()) : "-",
                     std::string(recovery_mode_name(r.recovery))})
        cells.push_back(s);
    } else {
      cells.push_back("requests not seen");
    }
    seq.add_row(cells);

    cells = flow_cells(r);
    if (r.responses || r.cnps) {
      const Histogram& h = r.rtt_ns;
      const std::string rtt = h.count() ? us(h.min()) + "/" + us(static_cast<uint64_t>(h.mean())) + "/" +
                                              us(h.quantile(0.99)) + "/" + us(h.max())
                                        : "-";
      for (auto s : {num(r.responses), num(r.acks), num(r.duplicate_acks),
                     num(r.naks[static_cast<size_t>(NakCode::psn_sequence_error)]), num(r.reorder_naks),
                     num(r.naks[static_cast<size_t>(NakCode::rnr)]), num(r.response_gaps),
                     num(r.missing_responses), num(r.cnps), num(r.ce), num(r.icrc_bad),
                     num(h.count()), rtt, other_naks(r)})
        cells.push_back(s);
    } else {
      cells.push_back("responses not seen");
      silent += 1;
    }
    resp.add_row(cells);
    unchecked += r.icrc_unchecked;
    reused += r.qp_reuses;
    ambiguous += r.ambiguous - r.ambiguous_pairs;
    ambiguous_pairs += r.ambiguous_pairs;
  }

  std::string out = stats_header("RoCE QP Sequence Analysis", filter);
  if (stats.rows().empty() && !stats.truncated()) return out + "No RoCE packets.\n" + stats_rule();
  if (!seq.empty()) {
    out += "\nRequests (per requester -> responder QP, per capture point)\n" + seq.render();
    out += "\nResponses and congestion (accounted to the requests they answer)\n" + resp.render();
  }
  out += "\n";
  if (silent)
    out += "Note: " + num(silent) +
           " row(s) saw no responses at that point (one-directional tap?): unanswered requests are not counted as loss.\n";
  if (unchecked)
    out += "Note: " + num(unchecked) + " packet(s) were cut by the snaplen: their ICRC could not be checked.\n";
  if (reused) out += "Note: " + num(reused) + " QP reuse(s): a new connection restarted the PSN sequence.\n";
  if (ambiguous)
    out += "Note: " + num(ambiguous) +
           " packet(s) could be a resend or a mirror copy / late original; nothing in the capture tells: counted as "
           "retransmissions (roce.seq.ambiguous).\n";
  if (ambiguous_pairs)
    out += "Note: " + num(ambiguous_pairs) +
           " response(s) fit the requests of more than one QP between the same hosts, with no CM exchange to tell "
           "which they answer: accounted to their own flow, no RTT or NAK credited (roce.ack.ambiguous).\n";
  for (size_t k = 1; k < kLimitKinds; ++k)
    if (const uint64_t n = stats.beyond()[k]) {
      const LimitInfo& l = limit_info(static_cast<LimitKind>(k));
      out += "Note: " + num(n) + " packet(s) past " + std::string(l.preference) + " were not analysed.\n";
    }
  if (stats.truncated())
    out += "Note: " + num(stats.truncated()) + " RoCE packet(s) too short for their BTH were not analysed.\n";
  out += "Percentiles from a log-linear histogram, within 1.6% of the sample at that rank.\n";
  return out + stats_rule();
}

}  // namespace roceshark
