// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/report/qp_stats.h"

#include <algorithm>
#include <utility>

#include "epan-ext/decode/psn.h"

namespace roceshark {

uint64_t QpStats::untracked() const {
  uint64_t n = 0;
  for (uint64_t b : beyond_) n += b;
  return n;
}

void QpStats::add(const TapRecord& r) {
  if (!r.verdict) return;
  const Verdict& v = *r.verdict;
  const PacketSummary& p = v.pkt;
  if (v.untracked() || v.truncated) {
    ++(v.untracked() ? beyond_[static_cast<size_t>(v.beyond)] : truncated_);
    return;
  }
  if (v.role != Role::request && v.role != Role::response && v.role != Role::cnp) return;

  auto [it, added] = last_rows_.try_emplace(rows_, v.row_flow, {v.stream, v.point, v.row_flow});
  QpRow& row = it->second;
  if (added) {
    row.stream = v.stream;
    row.flow = r.facts->flow_key(v.row_flow);
    row.point_name = r.facts->point_name(v.point);
  }
  if (v.seq == SeqClass::duplicate) {
    ++row.duplicates;
    return;
  }
  row.icrc_bad += p.icrc == IcrcState::bad;
  row.icrc_unchecked += p.icrc == IcrcState::not_captured;

  if (v.role == Role::cnp) {
    ++row.cnps;
    return;
  }
  if (v.role == Role::response) {
    ++row.responses;
    row.read_responses += classify_opcode(p.opcode).is_read_response;
    row.acks += p.has_aeth && v.nak == NakCode::none && !classify_opcode(p.opcode).is_read_response;
    row.duplicate_acks += v.duplicate_ack;
    if (v.nak != NakCode::none) ++row.naks[static_cast<size_t>(v.nak)];
    row.reorder_naks += v.reorder_nak;
    if (v.seq == SeqClass::gap) {
      ++row.response_gaps;
      row.missing_responses += v.gap;
    }
    for (uint64_t rtt : r.rtt_samples) row.rtt_ns.add(rtt);
    row.ambiguous += v.pair_ambiguous;  // in its own flow's row: the requests it answers are not known
    row.ambiguous_pairs += v.pair_ambiguous;
    return;
  }

  ++row.requests;
  row.request_bytes += r.frame_len;
  if (const hop::HopVerdict* h = r.hop)
    row.hop_latency_ns.add(hop::nonnegative_ns(h->latency_ns));
  row.payload_bytes += p.payload_len;
  if (!row.has_psn || v.qp_reuse) {
    row.has_psn = true;
    row.first_psn = row.highest_psn = p.psn;
    row.first_ts_ns = r.ts_ns;
  } else if (psn::after(p.psn, row.highest_psn)) {
    row.highest_psn = p.psn;
  }
  row.last_ts_ns = r.ts_ns;
  row.qp_reuses += v.qp_reuse;
  row.ce += p.ecn == 3;
  row.fecn += p.fecn;
  row.becn += p.becn;
  switch (v.seq) {
    case SeqClass::gap:
      ++row.gaps;
      row.skipped_psns += v.gap;
      break;
    case SeqClass::gbn_resend: ++row.gbn_resends; break;
    case SeqClass::timeout_retransmission: ++row.timeout_retransmissions; break;
    case SeqClass::rnr_retry: ++row.rnr_retries; break;
    case SeqClass::selective_resend: ++row.selective_resends; break;
    case SeqClass::read_retry: ++row.read_retries; break;
    case SeqClass::out_of_order:
      ++row.out_of_order;
      row.reorder_depth_max = std::max(row.reorder_depth_max, v.gap);
      break;
    default: break;
  }
  row.retransmissions += is_retransmission(v.seq);
  row.reorder_resends += is_retransmission(v.seq) && v.reorder_nak;
  resends_.add(v, r.ts_ns);
  row.ambiguous += v.ambiguous;
  if (v.flow != kNoId) row.recovery = r.facts->recovery_mode(v.flow);
  // A QP's first NAK resend comes before its mode shows and passes as GBN
  // (the per-frame label stays causal); the row counts by the mode known now.
  if (row.recovery == RecoveryMode::selective) row.selective_resends += std::exchange(row.gbn_resends, 0);
}

void QpStats::settle(const EventLog& log, const FrameSet& selected) {
  const auto& naks = log.nak_reorders();
  for (; nak_events_ < naks.size(); ++nak_events_) {
    const NakReorder& n = naks[nak_events_];
    const auto it = rows_.find({n.stream, n.point, n.flow});
    if (selected.contains(n.nak_frame) && it != rows_.end()) ++it->second.reorder_naks;
    for (const NakResends::Resend& r : resends_.take(n.nak_frame))
      if (const auto row = rows_.find({r.stream, r.point, r.flow}); row != rows_.end()) ++row->second.reorder_resends;
  }
}

}  // namespace roceshark
