// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/request_sequence.h"

#include <algorithm>
#include <cstdlib>

#include "epan-ext/opcode.h"
#include "epan-ext/psn.h"

namespace roceshark {
namespace {

constexpr uint32_t kMinPmtu = 256;
constexpr uint32_t kMaxPmtu = 4096;

uint32_t segments(uint32_t len, uint32_t pmtu) { return len == 0 ? 1 : (len + pmtu - 1) / pmtu; }

}  // namespace

void RequestSequence::restart(std::optional<uint32_t> start_psn) {
  *this = RequestSequence{};
  start_psn_ = start_psn;
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

SeqClass RequestSequence::run_cause(const PacketInfo& p, const RequestContext& ctx, const Config& cfg) {
  auto asks_for = [&](const NakEvent& nak, uint64_t wait_ns) {
    return nak.valid && nak.frame != nak_used_frame_ && nak.ts_ns <= p.ts_ns &&
           p.ts_ns - nak.ts_ns <= wait_ns + cfg.timeout_ns && psn::at_or_after(p.psn, nak.psn);
  };
  // A resend answers the newer of the two NAKs when both qualify.
  const bool seq = asks_for(ctx.seq_nak, 0);
  const bool rnr = asks_for(ctx.rnr_nak, ctx.rnr_nak.rnr_wait_ns);
  run_quiet_ns_ = 0;
  if (seq && (!rnr || ctx.seq_nak.ts_ns >= ctx.rnr_nak.ts_ns)) {
    nak_used_frame_ = run_nak_frame_ = ctx.seq_nak.frame;
    return SeqClass::gbn_resend;
  }
  if (rnr) {
    nak_used_frame_ = run_nak_frame_ = ctx.rnr_nak.frame;
    return SeqClass::rnr_retry;
  }
  run_nak_frame_ = 0;
  run_quiet_ns_ = p.ts_ns - std::min(p.ts_ns, last_ts_);
  return run_quiet_ns_ >= cfg.timeout_ns ? SeqClass::timeout_retransmission : SeqClass::retransmission;
}

SeqResult RequestSequence::classify(const PacketInfo& p, const RequestContext& ctx, const Config& cfg) {
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
    first_seen_.clear();
    recent_.clear();
    r = start(p, true);
    advance(p, ctx);
    remember(p);
    return r;
  }

  if (ahead > 0) {
    const int32_t beyond = psn::diff(p.psn, window_hi_);
    if (beyond > 0) {
      r.seq = SeqClass::gap;
      r.gap = static_cast<uint32_t>(beyond);
    }
    run_ = SeqClass::none;
    advance(p, ctx);
    remember(p);
    return r;
  }

  // At or behind the highest PSN: a second copy, or a resend.
  if (const auto* prev = recent_.find_same(RecentPackets::Entry::of(p));
      prev && p.ts_ns - std::min(p.ts_ns, prev->ts_ns) <= cfg.duplicate_window_ns &&
      !(ctx.any_nak && ctx.last_nak_ts >= prev->ts_ns)) {
    r.seq = SeqClass::duplicate;
    r.original_frame = prev->frame;
    return r;  // a capture artefact: the flow's state is unchanged
  }

  const bool continues = run_ != SeqClass::none && psn::after(p.psn, run_last_) &&
                         psn::at_or_after(run_end_, p.psn);
  if (!continues) {
    run_ = run_cause(p, ctx, cfg);
    run_end_ = highest_;
  }
  r.seq = run_;
  r.nak_frame = run_nak_frame_;
  r.quiet_ns = run_quiet_ns_;  // the silence before the run, on each of its packets
  run_last_ = p.psn;
  r.original_frame = first_seen_.find(p.psn);
  last_ts_ = p.ts_ns;
  remember(p);
  return r;
}

// Moves the in-order window past a packet that advanced the sequence.
void RequestSequence::advance(const PacketInfo& p, const RequestContext& ctx) {
  highest_ = p.psn;
  last_ts_ = p.ts_ns;
  uint32_t lo = 1, hi = 1;
  if (p.has_reth && classify_opcode(p.opcode).is_read_request) {
    // The READ's responses use the PSNs after it, one per path-MTU segment.
    lo = segments(p.dma_len, ctx.pmtu ? ctx.pmtu : kMaxPmtu);
    hi = segments(p.dma_len, ctx.pmtu ? ctx.pmtu : kMinPmtu);
  }
  window_lo_ = psn::add(p.psn, lo);
  window_hi_ = psn::add(p.psn, hi);
}

void RequestSequence::remember(const PacketInfo& p) {
  first_seen_.note(p.psn, p.frame);
  recent_.push(RecentPackets::Entry::of(p));
}

}  // namespace roceshark
