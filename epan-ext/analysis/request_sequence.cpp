// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/analysis/request_sequence.h"

#include <algorithm>
#include <cstdlib>

#include "epan-ext/decode/opcode.h"
#include "epan-ext/decode/psn.h"

namespace roceshark {
namespace {

constexpr uint32_t kMinPmtu = 256;
constexpr uint32_t kMaxPmtu = 4096;
constexpr uint32_t kLateValid = 0x80000000u;

uint32_t segments(uint32_t len, uint32_t pmtu) { return len == 0 ? 1 : (len + pmtu - 1) / pmtu; }

// Sent before `b` by a NIC whose IPv4 IDs count up.
bool id_before(uint16_t a, uint16_t b) {
  const auto d = static_cast<uint16_t>(b - a);
  return d != 0 && d < 0x8000;
}

bool is_read(const PacketInfo& p) { return p.has_reth && classify_opcode(p.opcode).is_read_request; }



}  // namespace

const char* recovery_mode_name(RecoveryMode m) {
  switch (m) {
    case RecoveryMode::unknown: return "-";
    case RecoveryMode::go_back_n: return "go-back-N";
    case RecoveryMode::selective: return "selective";
  }
  return "?";
}

void RequestSequence::restart(std::optional<uint32_t> start_psn) {
  *this = RequestSequence{};
  start_psn_ = start_psn;
}

bool RequestSequence::arrived_out_of_order(uint32_t psn) const {
  return std::find(late_psns_.begin(), late_psns_.end(), psn | kLateValid) != late_psns_.end();
}

const RequestSequence::Hole* RequestSequence::hole_of(uint32_t psn) const {
  for (const Hole& h : holes_)
    if (h.n && psn::at_or_after(psn, h.lo) && psn::diff(psn, h.lo) < static_cast<int32_t>(h.n)) return &h;
  return nullptr;
}

bool RequestSequence::in_read_span(uint32_t psn, uint32_t pmtu) const {
  return std::any_of(reads_.begin(), reads_.end(), [&](const Read& r) {
    const int32_t k = psn::diff(psn, r.psn);
    return r.dma_len && k > 0 && static_cast<uint32_t>(k) < segments(r.dma_len, pmtu ? pmtu : kMaxPmtu);
  });
}

SeqResult RequestSequence::start(const PacketInfo& p, bool reuse) {
  SeqResult r;
  r.qp_reuse = reuse;
  if (start_psn_ && !reuse) {
    const int32_t d = psn::diff(p.psn, *start_psn_);
    r.has_expected = true;
    r.expected_psn = *start_psn_;
    if (d > 0) {
      r.seq = SeqClass::gap;
      r.gap = static_cast<uint32_t>(d);
    }
  }
  started_ = true;
  highest_ = p.psn;
  run_ = SeqClass::none;
  return r;
}

bool RequestSequence::nak_asks_for(const NakEvent& nak, const PacketInfo& p, uint64_t wait_ns,
                                   const Config& cfg) const {
  return nak.valid && nak.frame != nak_used_frame_ && nak.ts_ns <= p.ts_ns &&
         p.ts_ns - nak.ts_ns <= wait_ns + cfg.timeout_ns && psn::at_or_after(p.psn, nak.psn);
}

const NakEvent* RequestSequence::seq_nak_for(const PacketInfo& p, const RequestContext& ctx, const Config& cfg) const {
  if (nak_asks_for(ctx.seq_nak, p, 0, cfg)) return &ctx.seq_nak;
  if (nak_asks_for(ctx.prev_seq_nak, p, 0, cfg)) return &ctx.prev_seq_nak;
  return nullptr;
}

SeqClass RequestSequence::run_cause(const PacketInfo& p, const RequestContext& ctx, RecoveryMode mode,
                                    const Config& cfg) {
  // A resend answers the newer of the two NAKs when both qualify.
  const NakEvent* seq = seq_nak_for(p, ctx, cfg);
  const bool rnr = nak_asks_for(ctx.rnr_nak, p, ctx.rnr_nak.rnr_wait_ns, cfg);
  run_quiet_ns_ = 0;
  run_reorder_ = false;
  if (seq && (!rnr || seq->ts_ns >= ctx.rnr_nak.ts_ns)) {
    nak_used_frame_ = run_nak_frame_ = seq->frame;
    run_reorder_ = seq->reorder || arrived_out_of_order(seq->psn);
    return mode == RecoveryMode::selective ? SeqClass::selective_resend : SeqClass::gbn_resend;
  }
  if (rnr) {
    nak_used_frame_ = run_nak_frame_ = ctx.rnr_nak.frame;
    return SeqClass::rnr_retry;
  }
  run_nak_frame_ = 0;
  run_quiet_ns_ = p.ts_ns - std::min(p.ts_ns, last_ts_);
  return run_quiet_ns_ >= cfg.timeout_ns ? SeqClass::timeout_retransmission : SeqClass::retransmission;
}

// The packet after a NAK run's first resend shows how the requester
// recovers, when there was more after that PSN to resend.
RecoveryMode RequestSequence::learn_mode(const PacketInfo& p, bool continues) const {
  // The same PSN again (a copy, or the resend after a late original) shows no shape.
  if ((run_ != SeqClass::gbn_resend && run_ != SeqClass::selective_resend) || run_length_ != 1 ||
      !psn::after(run_end_, run_first_) || p.psn == run_first_)
    return RecoveryMode::unknown;
  return continues && p.psn == psn::add(run_first_, 1) ? RecoveryMode::go_back_n : RecoveryMode::selective;
}

// A second copy of a packet recorded here: a mirror artefact when a resend
// could not be it, ambiguous when nothing tells.
std::optional<SeqResult> RequestSequence::copy_verdict(const PacketInfo& p, const RequestContext& ctx,
                                                       const PointView& here, const Config& cfg) const {
  const RecentPackets::Entry e = RecentPackets::Entry::of(p);
  const RecentPackets::Entry* prev = recent_.find_same(e);
  if (!prev) return std::nullopt;
  const uint64_t spacing = p.ts_ns - std::min(p.ts_ns, prev->ts_ns);
  if (spacing > cfg.duplicate_window_ns) return std::nullopt;
  SeqResult r;
  r.has_expected = true;
  r.expected_psn = window_lo_;
  r.original_frame = prev->frame;
  // No resend can be this soon: a sequence NAK for this PSN needs the next
  // PSN at the receiver, so its resend comes a round trip after the next PSN
  // passed here; a timer or RNR resend, a retry wait after the original.
  const uint64_t rtt = std::max(kFastestRoundTripNs, here.rtt_floor_ns);
  const RecentPackets::Entry* next = recent_.after(prev);
  const bool before_nak_resend = next && next->psn == psn::add(p.psn, 1) && p.ts_ns >= next->ts_ns &&
                                 p.ts_ns - next->ts_ns < rtt && spacing < kShortestRetryWaitNs + rtt;
  // After a fill that answered its NAK, the late original and the resend
  // come close together and the NAK did show: unless the point mirrors,
  // only a rewrite proves a copy.
  const bool after_fill = prev->frame == run_fill_frame_ && !here.mirrored;
  r.mirror_proven = e.rewritten_from(*prev) || (!after_fill && (spacing < rtt || before_nak_resend));
  if (r.mirror_proven) {
    r.seq = SeqClass::duplicate;
    return r;
  }
  // Unproven, a cause that shows makes it the resend it may be: a NAK after
  // the first copy or asking for this PSN; or, for a READ or ATOMIC, a later
  // PSN's answer overtaking its own (an implied NAK, IBA 9.7.5.1.3: it is
  // retried at once).
  const bool nak = (ctx.any_nak && ctx.last_nak_ts >= prev->ts_ns) || nak_asks_for(ctx.seq_nak, p, 0, cfg) ||
                   nak_asks_for(ctx.rnr_nak, p, ctx.rnr_nak.rnr_wait_ns, cfg);
  const bool implied_nak = (is_read(p) || p.has_atomic_eth) && ctx.any_answer &&
                           ctx.last_answer_ts >= prev->ts_ns && psn::after(ctx.last_answer_psn, p.psn);
  if (nak || implied_nak) return std::nullopt;
  // Without proof it is still a copy where a resend's cause would show
  // (NAKs pass here, or the point mirrors), or when nothing came between.
  if (!after_fill && (here.mirrored || here.responses_seen || prev->frame == last_frame_)) {
    r.seq = SeqClass::duplicate;
  } else {
    r.seq = SeqClass::retransmission;  // counted as the resend it may be
    r.ambiguous = true;
  }
  return r;
}

// A PSN never seen here that fills a recent hole: the late original when
// nothing could have caused a resend yet.
std::optional<SeqResult> RequestSequence::late_verdict(const PacketInfo& p, const RequestContext& ctx,
                                                       const PointView& here, const Config& cfg) {
  const Hole* h = hole_of(p.psn);
  if (!h) return std::nullopt;
  const uint64_t late = p.ts_ns - std::min(p.ts_ns, h->ts_ns);
  if (late > cfg.reorder_window_ns) return std::nullopt;
  const bool seq_nak = nak_asks_for(ctx.seq_nak, p, 0, cfg);
  const bool cause = seq_nak || nak_asks_for(ctx.rnr_nak, p, ctx.rnr_nak.rnr_wait_ns, cfg) ||
                     p.ts_ns - std::min(p.ts_ns, last_ts_) >= cfg.timeout_ns;
  // A resend needs a round trip after the hole: the hole's packet to the
  // receiver, its NAK back to the sender, the resend to here.
  const bool before_any_resend = late < std::max(kFastestRoundTripNs, here.rtt_floor_ns);
  // Its copies elsewhere passed before the NAK that asks for it, and no
  // second copy followed them: a resend would have passed there again
  // (with a new IPv4 ID it would not be this transmission at all).
  const NakEvent* nak = seq_nak_for(p, ctx, cfg);
  const bool passed_before_nak = nak && here.passed_elsewhere_ns && here.passed_elsewhere_ns < nak->ts_ns;
  bool original = before_any_resend || passed_before_nak;
  SeqResult r;
  if (!cause && here.responses_seen) {
    original = true;  // a NAK for it would have passed here
  } else if (!cause) {
    // One-directional: the NAK may pass elsewhere. A NIC that counts its
    // IPv4 IDs up dates the packet.
    const bool sent_before_hole = h->has_ip_id && p.has_ip_id && id_before(p.ip_id, h->ip_id);
    const bool sent_after_highest = highest_has_ip_id_ && p.has_ip_id && id_before(highest_ip_id_, p.ip_id);
    original = original || (sent_before_hole && !sent_after_highest);
    if (!original && !sent_after_highest) r.ambiguous = true;
  }
  if (!original) {
    if (!r.ambiguous) return std::nullopt;
    return r;  // the caller classifies it as a retransmission, flagged
  }
  r.seq = SeqClass::out_of_order;
  r.gap = static_cast<uint32_t>(-psn::diff(p.psn, highest_));
  if (seq_nak && ctx.seq_nak.psn == p.psn) {  // the NAK for it passed here before the late packet
    r.reorder_nak = true;
    r.nak_frame = ctx.seq_nak.frame;
  }
  late_psns_[late_next_++ % late_psns_.size()] = p.psn | kLateValid;
  return r;
}

SeqResult RequestSequence::classify(const PacketInfo& p, const RequestContext& ctx, const PointView& here,
                                    const Config& cfg) {
  if (!started_) {
    SeqResult r = start(p, false);
    advance(p, ctx);
    remember(p);
    return r;
  }
  SeqResult r;
  r.has_expected = true;
  r.expected_psn = window_lo_;
  const int32_t ahead = psn::diff(p.psn, highest_);
  if (static_cast<uint32_t>(std::abs(ahead)) > cfg.reuse_jump) {
    const auto start_psn = start_psn_;
    restart(start_psn);
    r = start(p, true);
    advance(p, ctx);
    remember(p);
    return r;
  }
  const bool in_run = run_ != SeqClass::none && psn::after(p.psn, run_last_) && psn::at_or_after(run_end_, p.psn);
  const RecoveryMode learned = learn_mode(p, in_run);
  // A selective requester's next resend is a run of its own, with its own NAK.
  const bool continues = in_run && learned != RecoveryMode::selective;
  const RecoveryMode mode = learned != RecoveryMode::unknown ? learned : ctx.mode;

  if (ahead > 0) {
    const int32_t beyond = psn::diff(p.psn, window_hi_);
    if (is_read(p) && in_read_span(p.psn, ctx.pmtu)) {
      // Re-issued inside the READ's own responses: a READ retry.
      run_cause(p, ctx, mode, cfg);
      r.seq = SeqClass::read_retry;
      r.run_start = true;  // a run of its own: the requests after it are new
      r.nak_frame = run_nak_frame_;
      r.quiet_ns = run_quiet_ns_;
    } else if (beyond > 0) {
      r.seq = SeqClass::gap;
      r.gap = static_cast<uint32_t>(beyond);
      holes_[holes_next_++ % holes_.size()] = {psn::add(p.psn, -beyond), r.gap, p.ts_ns, p.has_ip_id, p.ip_id};
    }
    run_ = SeqClass::none;
    r.learned = learned;
    advance(p, ctx);
    remember(p);
    return r;
  }

  // At or behind the highest PSN: a second copy, a late packet, or a resend.
  const uint32_t seen = first_seen_.find(p.psn);
  bool ambiguous = false;
  if (!continues) {
    if (auto copy = copy_verdict(p, ctx, here, cfg)) {
      if (copy->seq == SeqClass::duplicate) return *copy;  // a capture artefact: the flow's state is unchanged
      ambiguous = true;
      // The fill may have been the late original: the NAK may be this one's.
      if (copy->original_frame == run_fill_frame_) nak_used_frame_ = 0;
    }
    if (seen && seen == run_fill_frame_ && here.passed_elsewhere_ns && here.passed_elsewhere_ns < run_fill_nak_ts_) {
      // The resend filled the hole here first, and this transmission passed
      // the other points once, before the NAK it answered: the late
      // original, overtaken by its own resend. The resend run goes on,
      // reordering's doing if that NAK is still the flow's latest.
      SeqResult late;
      late.seq = SeqClass::out_of_order;
      if (run_nak_frame_ == ctx.seq_nak.frame && ctx.seq_nak.psn == p.psn) {
        late.reorder_nak = run_reorder_ = true;
        late.nak_frame = run_nak_frame_;
      }
      late.gap = static_cast<uint32_t>(-psn::diff(p.psn, highest_));
      late.has_expected = true;
      late.expected_psn = window_lo_;
      late.learned = learned;
      late_psns_[late_next_++ % late_psns_.size()] = p.psn | kLateValid;
      last_ts_ = p.ts_ns;
      remember(p);
      return late;
    }
    if (!seen) {
      if (auto late = late_verdict(p, ctx, here, cfg)) {
        if (late->seq == SeqClass::out_of_order) {
          late->has_expected = true;
          late->expected_psn = window_lo_;
          late->learned = learned;
          last_ts_ = p.ts_ns;
          remember(p);
          return *late;
        }
        ambiguous = true;
      }
    }
    run_ = run_cause(p, ctx, mode, cfg);
    run_end_ = highest_;
    run_first_ = p.psn;
    run_length_ = 0;
    run_fill_frame_ = !seen && run_nak_frame_ && run_nak_frame_ == ctx.seq_nak.frame && ctx.seq_nak.psn == p.psn ? p.frame : 0;
    run_fill_nak_ts_ = run_fill_frame_ ? ctx.seq_nak.ts_ns : 0;
    r.run_start = true;
  }
  ++run_length_;
  r.seq = is_read(p) && !seen && in_read_span(p.psn, ctx.pmtu) ? SeqClass::read_retry : run_;
  r.ambiguous = ambiguous;
  r.learned = learned;
  r.nak_frame = run_nak_frame_;
  r.quiet_ns = run_quiet_ns_;  // the silence before the run, on each of its packets
  r.reorder_nak = run_reorder_;
  run_last_ = p.psn;
  r.original_frame = seen;
  last_ts_ = p.ts_ns;
  remember(p);
  return r;
}

// Moves the in-order window past a packet that advanced the sequence.
void RequestSequence::advance(const PacketInfo& p, const RequestContext& ctx) {
  highest_ = p.psn;
  highest_has_ip_id_ = p.has_ip_id;
  highest_ip_id_ = p.ip_id;
  last_ts_ = p.ts_ns;
  uint32_t lo = 1, hi = 1;
  if (is_read(p)) {
    // The READ's responses use the PSNs after it, one per path-MTU segment.
    lo = segments(p.dma_len, ctx.pmtu ? ctx.pmtu : kMaxPmtu);
    hi = segments(p.dma_len, ctx.pmtu ? ctx.pmtu : kMinPmtu);
    reads_[reads_next_++ % reads_.size()] = {p.psn, p.dma_len};
  }
  window_lo_ = psn::add(p.psn, lo);
  window_hi_ = psn::add(p.psn, hi);
}

void RequestSequence::remember(const PacketInfo& p) {
  first_seen_.note(p.psn, p.frame);
  recent_.push(RecentPackets::Entry::of(p));
  last_frame_ = p.frame;
}

}  // namespace roceshark
