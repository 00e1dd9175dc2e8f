// SPDX-License-Identifier: GPL-2.0-or-later
// What the network cost each QP, for `-z roce,triage` (docs/triage.md),
// fed by the `roce` tap from the engine's verdicts:
//   - recovery: from the first sign of a loss at a point (a gap, or the
//     NAK) to the last resend of the run that repairs it; for a transport
//     timer resend, from the start of the silence before it;
//   - pause: the PFC stall the engine attributes to the QP's packets;
//   - RNR waits, kept apart: the receiver was not ready, not the fabric.
// Per request flow and point; overlapping stalls count once.
#pragma once
#include <cstdint>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include "epan-ext/analysis/event_log.h"
#include "epan-ext/report/frame_set.h"
#include "epan-ext/report/nak_resends.h"
#include "epan-ext/report/stall_intervals.h"
#include "epan-ext/analysis/tap_record.h"
#include "epan-ext/report/timeline.h"

namespace roceshark::triage {

struct QpImpact {
  uint32_t stream = kNoId;
  uint32_t flow = kNoId;  // the request flow
  uint32_t point = 0;
  uint64_t originals = 0, retransmissions = 0, ce = 0;
  uint64_t runs = 0, timeout_runs = 0, rnr_runs = 0;
  uint64_t reorder_runs = 0;  // of runs: forced by a NAK reordering caused, nothing was lost
  uint64_t recovery_ns = 0;          // every loss recovery run, timer waits included
  uint64_t timeout_ns = 0;           // of which: the silence before timer resends
  uint64_t timeout_recovery_ns = 0;  // of which: the runs a timer started
  uint64_t rnr_ns = 0;
  uint64_t pause_ns = 0;
  StallIntervals stalled;            // recovery and pause
  int timeline = -1;

  // The run under way: from a retransmission the engine marks run_start
  // to the next new request.
  bool open = false, open_timeout = false, open_rnr = false;
  uint64_t run_last_ns = 0;
  uint64_t evidence_ns = 0;  // first loss sign since the last run, 0 for none
  uint64_t rnr_nak_ns = 0;
};

class ImpactStats {
 public:
  void add(const TapRecord& r);
  void clear() { *this = ImpactStats{}; }
  // Takes in the NAKs a late original took back: their runs were
  // reordering's doing (reorder_runs).
  void settle(const EventLog& log, const FrameSet& selected);
  // By (request flow, point).
  std::map<std::pair<uint32_t, uint32_t>, const QpImpact*> rows() const;
  // One of them, null if that flow has none at that point.
  const QpImpact* find(uint32_t flow, uint32_t point) const;
  // By request flow: the rows of every point that saw it, in point order.
  std::map<uint32_t, std::vector<const QpImpact*>> by_flow() const;
  const Timeline& timeline() const { return timeline_; }
  // NAKs taken back after their resends were let go (Cap::nak_resends).
  uint64_t resends_missed() const { return resends_.missed(); }
  uint64_t first_ns() const { return first_ns_; }
  uint64_t last_ns() const { return last_ns_; }
  uint64_t span_ns() const { return last_ns_ - first_ns_; }

 private:
  QpImpact& row(const Verdict& v);
  void on_request(QpImpact& q, const Verdict& v, uint64_t ts);
  void on_response(QpImpact& q, const Verdict& v, uint64_t ts);
  // Adds [from, to) to the run's recovery time.
  void recover(QpImpact& q, uint64_t from, uint64_t to);

  std::unordered_map<uint64_t, QpImpact> rows_;  // flow << 32 | point
  Timeline timeline_;
  NakResends resends_;
  size_t nak_events_ = 0;  // of the log's, taken in
  bool seen_ = false;
  uint64_t first_ns_ = 0, last_ns_ = 0;
};

}  // namespace roceshark::triage
