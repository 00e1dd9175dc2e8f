// SPDX-License-Identifier: GPL-2.0-or-later
// Per-QP, per-point counters, fed by the `roce` tap.
//
// A row is one request flow (requester -> responder, destination QP) at one
// capture point. Responses and CNPs are accounted to the request flow they
// answer; a response flow that was never paired gets a row of its own.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <utility>

#include "epan-ext/analysis/flow_table.h"
#include "epan-ext/common/histogram.h"
#include "epan-ext/analysis/event_log.h"
#include "epan-ext/report/frame_set.h"
#include "epan-ext/report/nak_resends.h"
#include "epan-ext/report/row_cache.h"
#include "epan-ext/analysis/tap_record.h"

namespace roceshark {

// QpRow::naks' codes as the JSON report and the metrics name them, in their order.
inline constexpr std::pair<NakCode, const char*> kNakKeys[] = {
    {NakCode::psn_sequence_error, "psn_sequence_error"}, {NakCode::rnr, "rnr"},
    {NakCode::invalid_request, "invalid_request"},       {NakCode::remote_access_error, "remote_access_error"},
    {NakCode::remote_operational_error, "remote_operational_error"},
    {NakCode::invalid_rd_request, "invalid_rd_request"}, {NakCode::reserved, "reserved"}};

struct QpRow {
  uint32_t stream = kNoId;
  FlowKey flow;
  std::string point_name;

  uint64_t requests = 0;
  uint64_t request_bytes = 0;  // frame bytes on the wire
  uint64_t payload_bytes = 0;
  bool has_psn = false;
  uint32_t first_psn = 0;
  uint32_t highest_psn = 0;
  uint64_t first_ts_ns = 0;
  uint64_t last_ts_ns = 0;

  uint64_t gaps = 0;
  // PSNs the gaps skipped, when they were skipped: some may arrive late
  // (out_of_order) or be resent later, so not "never seen" (docs/analysis.md).
  uint64_t skipped_psns = 0;
  uint64_t retransmissions = 0;  // every kind below, duplicates excluded
  uint64_t gbn_resends = 0;
  uint64_t timeout_retransmissions = 0;
  uint64_t rnr_retries = 0;
  uint64_t selective_resends = 0;
  uint64_t read_retries = 0;
  uint64_t out_of_order = 0;       // late originals: reordering, neither loss nor resend
  uint32_t reorder_depth_max = 0;  // PSNs the latest of them arrived behind the highest
  uint64_t reorder_resends = 0;    // resends that NAKs caused by reordering forced
  uint64_t ambiguous = 0;          // copies, late packets or responses' pairings the capture cannot call
  uint64_t ambiguous_pairs = 0;    // of which responses no QP pairing can be told for (roce.ack.ambiguous)
  RecoveryMode recovery = RecoveryMode::unknown;
  uint64_t duplicates = 0;  // mirror copies, requests and responses
  uint64_t qp_reuses = 0;

  uint64_t responses = 0;
  uint64_t acks = 0;
  uint64_t duplicate_acks = 0;
  uint64_t read_responses = 0;
  uint64_t response_gaps = 0;     // READ responses that skipped others of their READ
  uint64_t missing_responses = 0;
  uint64_t reorder_naks = 0;      // sequence NAKs for a PSN that had arrived here out of order
  std::array<uint64_t, 8> naks{};  // by NakCode; [rnr] counts RNR NAKs
  uint64_t cnps = 0;
  uint64_t ce = 0;  // requests marked ECN-CE
  uint64_t fecn = 0;
  uint64_t becn = 0;
  uint64_t icrc_bad = 0;
  uint64_t icrc_unchecked = 0;
  Histogram rtt_ns;
  Histogram hop_latency_ns;  // from the previous capture point, for packets seen there too
};

class QpStats {
 public:
  void add(const TapRecord& r);
  void clear() { *this = QpStats{}; }
  // Counts the selected NAKs a late original took back as reorder NAKs.
  void settle(const EventLog& log, const FrameSet& selected);
  // (stream, point, flow) order: a connection's rows sit together.
  using Key = std::tuple<uint32_t, uint32_t, uint32_t>;
  const std::map<Key, QpRow>& rows() const { return rows_; }
  // RoCE packets past each limit: not analysed.
  const LimitCounts& beyond() const { return beyond_; }
  // NAKs taken back after their resends were let go (Cap::nak_resends).
  uint64_t resends_missed() const { return resends_.missed(); }
  uint64_t untracked() const;
  uint64_t truncated() const { return truncated_; }

 private:
  std::map<Key, QpRow> rows_;
  RowCache<std::map<Key, QpRow>> last_rows_;  // by flow
  LimitCounts beyond_{};
  uint64_t truncated_ = 0;
  size_t nak_events_ = 0;  // of the log's, taken in
  NakResends resends_;
};

}  // namespace roceshark
