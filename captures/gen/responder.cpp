// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/responder.h"

#include <algorithm>

#include "captures/gen/aeth.h"
#include "captures/gen/psn.h"

namespace roceshark::gen {
namespace {

// ATOMIC results a responder keeps for duplicates (its "responder resources").
constexpr size_t kSavedAtomics = 16;

}  // namespace

Responder::Responder(uint32_t start_psn, Ns coalesce) : epsn_(start_psn), coalesce_(coalesce) {}

std::vector<Reply> Responder::on_request(const Incoming& in, Ns now) {
  std::vector<Reply> out;
  if (error_) return out;
  const int32_t d = psn::diff(in.psn, epsn_);

  if (d > 0 && ooo_) {  // place it; the hole may still fill (reordering)
    in_dup_run_ = false;
    const bool known = std::any_of(placed_.begin(), placed_.end(), [&](const Incoming& x) { return x.psn == in.psn; });
    if (!known) placed_.push_back(in);
    if (!nak_at_ && !nak_sent_ && ooo_nak_) nak_at_ = now + *ooo_nak_;
    return out;
  }

  if (d > 0) {  // a hole: PSNs in between were lost
    in_dup_run_ = false;
    if (!nak_sent_) {
      nak_sent_ = true;
      pending_.reset();  // the NAK acknowledges everything before ePSN anyway
      out.push_back({Reply::Kind::nak, epsn_, aeth::kNakPsnSeqError, msn_});
    }
    return out;
  }

  if (d < 0) {  // duplicate
    if (in.read) {  // READs are re-executed (9.7.5.1.3)
      out.push_back({Reply::Kind::read_response, in.psn, aeth::kAckInvalidCredit, msn_, false, in.span, in.read_length});
      return out;
    }
    if (in.atomic) {  // answered from the saved result, not executed again (9.7.5.1.3)
      for (const Reply& r : atomic_saved_)
        if (r.psn == in.psn) out.push_back(r);
      if (!out.empty()) return out;
    }
    const bool first_of_run = !in_dup_run_;
    in_dup_run_ = true;
    if (in.ackreq || first_of_run) ack_due(psn::add(epsn_, -1), now, out);
    return out;
  }

  in_dup_run_ = false;
  nak_sent_ = false;
  if (auto f = forced_.find(in.message); in.first && f != forced_.end()) {
    const ForcedReply r = f->second;
    forced_.erase(f);  // once
    pending_.reset();
    if (r.rnr) {
      nak_sent_ = true;  // the rest of the message is dropped until the retry
      out.push_back({Reply::Kind::nak, in.psn, aeth::rnr_nak(r.rnr_timer), msn_});
    } else {
      error_ = true;
      out.push_back({Reply::Kind::nak, in.psn, static_cast<uint8_t>(0x60 | static_cast<uint8_t>(r.code)), msn_, true});
    }
    return out;
  }

  bool ack = false;
  accept(in, now, out, ack);
  if (ooo_) drain_placed(now, out, ack);
  if (ack) ack_due(psn::add(epsn_, -1), now, out);  // one ACK, for the newest
  return out;
}

void Responder::accept(const Incoming& in, Ns now, std::vector<Reply>& out, bool& ack) {
  epsn_ = psn::add(epsn_, in.span);
  if (in.last) msn_ = psn::add(msn_, 1);  // MSN is 24 bits too
  if (in.read || in.atomic) {
    if (ack) ack_due(psn::add(in.psn, -1), now, out), ack = false;
    if (auto p = on_flush(now)) out.push_back(*p);  // keep responses in PSN order
  }
  if (in.read) {
    out.push_back({Reply::Kind::read_response, in.psn, aeth::kAckInvalidCredit, msn_, false, in.span, in.read_length});
  } else if (in.atomic) {
    Reply r{Reply::Kind::atomic_ack, in.psn, aeth::kAckInvalidCredit, msn_};
    r.original = execute_atomic(*in.atomic, in.atomic_args, target_);
    atomic_saved_.push_back(r);
    if (atomic_saved_.size() > kSavedAtomics) atomic_saved_.pop_front();
    out.push_back(r);
  } else if (in.ackreq) {
    ack = true;
  }
}

// ePSN has moved: what was placed behind the hole is in order now.
void Responder::drain_placed(Ns now, std::vector<Reply>& out, bool& ack) {
  for (bool more = !placed_.empty(); more;) {
    more = false;
    for (auto it = placed_.begin(); it != placed_.end(); ++it)
      if (it->psn == epsn_) {
        const Incoming x = *it;
        placed_.erase(it);
        accept(x, now, out, ack);
        more = true;
        break;
      }
  }
  std::erase_if(placed_, [&](const Incoming& x) { return psn::diff(x.psn, epsn_) < 0; });
  nak_at_.reset();
  nak_sent_ = false;
  if (!placed_.empty() && ooo_nak_) nak_at_ = now + *ooo_nak_;  // the next hole
}

std::optional<Reply> Responder::on_nak_timer(Ns now) {
  if (error_ || nak_at_ != now) return std::nullopt;
  nak_at_.reset();
  if (placed_.empty() || nak_sent_) return std::nullopt;
  nak_sent_ = true;
  pending_.reset();  // the NAK acknowledges everything before ePSN anyway
  return Reply{Reply::Kind::nak, epsn_, aeth::kNakPsnSeqError, msn_};
}

void Responder::ack_due(uint32_t p, Ns now, std::vector<Reply>& out) {
  if (coalesce_ == 0) {
    out.push_back({Reply::Kind::ack, p, aeth::kAckInvalidCredit, msn_});
  } else if (pending_) {
    pending_->psn = p;
    pending_->msn = msn_;
  } else {
    pending_ = Pending{p, msn_, now + coalesce_};
  }
}

std::vector<int> Responder::unused_forced() const {
  std::vector<int> lines;
  for (const auto& [msg, r] : forced_) lines.push_back(r.line);
  return lines;
}

std::optional<Ns> Responder::flush_deadline() const {
  if (!pending_) return std::nullopt;
  return pending_->deadline;
}

std::optional<Reply> Responder::on_flush(Ns) {
  if (!pending_) return std::nullopt;
  Reply r{Reply::Kind::ack, pending_->psn, aeth::kAckInvalidCredit, pending_->msn};
  pending_.reset();
  return r;
}

}  // namespace roceshark::gen
