// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/requester.h"

#include <algorithm>

#include "captures/gen/psn.h"

namespace roceshark::gen {

Requester::Requester(const RequesterConfig& cfg)
    : cfg_(cfg), next_(cfg.start_psn), sent_end_(cfg.start_psn), una_(cfg.start_psn) {}

void Requester::activate(Ns now) {
  if (!active_since_) active_since_ = now;
}

std::optional<Ns> Requester::post_time() const {
  if (!active_since_ || next_work_ >= work_.size()) return std::nullopt;
  const WorkRequest& w = work_[next_work_];
  return *active_since_ + w.at + static_cast<Ns>(next_copy_) * w.every;
}

const Requester::Active* Requester::find(uint32_t p) const {
  for (const Active& a : active_) {
    int32_t d = psn::diff(p, a.first_psn);
    if (d >= 0 && static_cast<uint32_t>(d) < a.span) return &a;
  }
  return nullptr;
}

Requester::Active* Requester::find(uint32_t p) {
  return const_cast<Active*>(static_cast<const Requester*>(this)->find(p));
}

bool Requester::last_fully_sent() const {
  return active_.empty() || psn::add(active_.back().first_psn, active_.back().span) == sent_end_;
}

bool Requester::ready(Ns now) const {
  if (error_ || !active_since_ || now < blocked_until_) return false;
  if (lone_) return true;
  if (psn::diff(next_, una_) >= static_cast<int32_t>(cfg_.window)) return false;
  if (psn::diff(next_, sent_end_) < 0 || !last_fully_sent()) return true;
  auto t = post_time();
  return t && *t <= now;
}

std::optional<Ns> Requester::wake_time(Ns now) const {
  if (error_ || !active_since_) return std::nullopt;
  if (blocked_until_ > now) return blocked_until_;
  if (lone_) return now;
  if (psn::diff(next_, una_) >= static_cast<int32_t>(cfg_.window)) return std::nullopt;
  if (psn::diff(next_, sent_end_) < 0 || !last_fully_sent()) return now;
  if (auto t = post_time()) return std::max(*t, now);
  return std::nullopt;
}

RequestPacket Requester::build(const Active& m, uint32_t psn, Cause cause) const {
  const WorkRequest& w = work_[m.work];
  const auto index = static_cast<uint32_t>(psn::diff(psn, m.first_psn));
  RequestPacket p;
  p.psn = psn;
  p.seg = request_segment(w.type, w.imm, w.length, cfg_.mtu, w.type == MsgType::read ? 0 : index);
  p.ackreq = p.seg.last || (cfg_.ackreq_every != 0 && (index + 1) % cfg_.ackreq_every == 0);
  p.cause = cause;
  p.span = w.type == MsgType::read ? m.span - index : 1;
  p.message = w.message;
  p.copy = m.copy;
  p.length = w.length;
  p.first_psn = m.first_psn;
  if (w.type == MsgType::read) p.read_skip = index;  // a READ re-issued for what is missing
  p.atomic = w.atomic;
  return p;
}

RequestPacket Requester::take(Ns now) {
  if (lone_) {
    const LoneResend r = *lone_;
    lone_.reset();
    Active& m = *find(r.psn);
    if (work_[m.work].type == MsgType::read) m.retried = r.psn;
    if (!timer_) timer_ = now + cfg_.timeout;
    return build(m, r.psn, r.cause);
  }
  const bool resend = psn::diff(next_, sent_end_) < 0;
  if (!resend && last_fully_sent()) {
    const WorkRequest& w = work_[next_work_];
    const uint32_t span = psn_span(w.type, w.length, cfg_.mtu);
    active_.push_back({next_work_, next_copy_, sent_end_, span, sent_end_, std::nullopt});
    if (++next_copy_ == w.repeat) ++next_work_, next_copy_ = 0;
  }
  Active& m = *find(next_);
  RequestPacket p = build(m, next_, resend ? retx_cause_ : Cause::original);
  if (resend && work_[m.work].type == MsgType::read && next_ != m.first_psn) m.retried = next_;

  next_ = psn::add(next_, p.span);
  if (psn::diff(next_, sent_end_) > 0) sent_end_ = next_;
  if (!timer_) timer_ = now + cfg_.timeout;
  return p;
}

void Requester::advance_una(uint32_t to, Ns now) {
  if (psn::diff(to, una_) <= 0 || psn::diff(to, sent_end_) > 0) return;
  una_ = to;
  if (lone_ && psn::diff(lone_->psn, una_) < 0) lone_.reset();  // acknowledged meanwhile
  while (!active_.empty() && psn::diff(una_, psn::add(active_.front().first_psn, active_.front().span)) >= 0)
    active_.pop_front();
  if (psn::diff(next_, una_) < 0) next_ = una_;  // an ACK overtook the resend: skip what is acknowledged
  retries_ = 0;
  if (una_ == sent_end_) timer_.reset();
  else timer_ = now + cfg_.timeout;
}

bool Requester::on_ack(uint32_t p, Ns now, bool atomic_ack) {
  uint32_t before = una_;
  uint32_t to = psn::add(p, 1);
  // An ATOMIC whose ATOMIC ACK has not come stays unacknowledged: only the
  // timer (or a NAK) resends it, and the responder answers that resend from
  // its saved result.
  for (const Active& a : active_)
    if (is_atomic(work_[a.work].type) && psn::diff(a.first_psn, una_) >= 0 && psn::diff(a.first_psn, p) <= 0 &&
        !(atomic_ack && a.first_psn == p)) {
      to = a.first_psn;
      break;
    }
  advance_una(to, now);
  return una_ != before;
}

bool Requester::on_nak_seq(uint32_t p, Ns now) {
  if (error_ || psn::diff(p, una_) < 0 || psn::diff(p, sent_end_) >= 0) return false;
  advance_una(p, now);  // a NAK at p also acknowledges everything before p
  if (cfg_.selective) {
    lone_ = LoneResend{p, Cause::selective};  // x alone; the responder kept what followed it
  } else {
    next_ = p;
    retx_cause_ = Cause::gbn;
  }
  blocked_until_ = now + cfg_.nak_turnaround;
  timer_ = now + cfg_.timeout;
  return true;
}

bool Requester::on_rnr(uint32_t p, Ns wait, Ns now) {
  if (error_ || psn::diff(p, una_) < 0 || psn::diff(p, sent_end_) >= 0) return false;
  advance_una(p, now);
  next_ = p;
  retx_cause_ = Cause::rnr;
  blocked_until_ = now + wait;
  timer_.reset();  // the RNR wait replaces the transport timer; the resend re-arms it
  return true;
}

// Responses must come in PSN order (a requester does not place read
// responses out of order, IBA vol. 1 9.7.5.1). One beyond the next expected shows a
// hole: the requester drops it and, after the NAK turnaround, re-issues the
// READ from the first missing response for the bytes still missing. Until
// that re-issued READ's first response comes, later old ones are dropped too.
bool Requester::on_read_response(uint32_t p, bool last, Ns now) {
  Active* m = find(p);
  if (error_ || !m || work_[m->work].type != MsgType::read) return false;
  const uint32_t first = m->first_psn, end = psn::add(m->first_psn, m->span);
  advance_una(first, now);  // a response implicitly acknowledges the requests before the READ
  m = find(p);
  if (!m) return true;
  const int32_t d = psn::diff(p, m->read_next);
  if (d < 0) return true;  // a duplicate: already placed
  if (d > 0) {             // a hole in the responses
    if (m->retried != m->read_next && !lone_) {
      lone_ = LoneResend{m->read_next, Cause::read_retry};
      blocked_until_ = now + cfg_.nak_turnaround;
      timer_ = now + cfg_.timeout;
    }
    return true;
  }
  m->read_next = psn::add(p, 1);
  if (m->retried == p) m->retried.reset();
  if (last) {
    advance_una(end, now);
  } else if (una_ != sent_end_) {
    timer_ = now + cfg_.timeout;  // data is flowing: that is progress
    retries_ = 0;
  }
  return true;
}

void Requester::on_timer(Ns now) {
  if (error_ || !timer_ || *timer_ != now) return;
  if (una_ == sent_end_) {
    timer_.reset();
    return;
  }
  if (retries_ >= cfg_.retry_cnt) {
    error_ = true;  // retry count exceeded: the QP goes to the error state
    timer_.reset();
    return;
  }
  ++retries_;
  next_ = una_;
  lone_.reset();
  // A READ whose first responses came: re-issued for the rest.
  if (const Active* a = find(una_); a && work_[a->work].type == MsgType::read) next_ = a->read_next;
  retx_cause_ = Cause::timeout;
  blocked_until_ = now;
  timer_ = now + cfg_.timeout;
}

bool Requester::idle() const {
  return error_ || (active_since_ && next_work_ >= work_.size() && active_.empty());
}

}  // namespace roceshark::gen
