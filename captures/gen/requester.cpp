// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/requester.h"

#include <algorithm>

#include "epan-ext/psn.h"

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

bool Requester::last_fully_sent() const {
  return active_.empty() || psn::add(active_.back().first_psn, active_.back().span) == sent_end_;
}

bool Requester::ready(Ns now) const {
  if (error_ || !active_since_ || now < blocked_until_) return false;
  if (psn::diff(next_, una_) >= static_cast<int32_t>(cfg_.window)) return false;
  if (psn::diff(next_, sent_end_) < 0 || !last_fully_sent()) return true;
  auto t = post_time();
  return t && *t <= now;
}

std::optional<Ns> Requester::wake_time(Ns now) const {
  if (error_ || !active_since_) return std::nullopt;
  if (blocked_until_ > now) return blocked_until_;
  if (psn::diff(next_, una_) >= static_cast<int32_t>(cfg_.window)) return std::nullopt;
  if (psn::diff(next_, sent_end_) < 0 || !last_fully_sent()) return now;
  if (auto t = post_time()) return std::max(*t, now);
  return std::nullopt;
}

RequestPacket Requester::take(Ns now) {
  const bool resend = psn::diff(next_, sent_end_) < 0;
  if (!resend && last_fully_sent()) {
    const WorkRequest& w = work_[next_work_];
    active_.push_back({next_work_, next_copy_, sent_end_, psn_span(w.type, w.length, cfg_.mtu)});
    if (++next_copy_ == w.repeat) ++next_work_, next_copy_ = 0;
  }
  const Active& m = *find(next_);
  const WorkRequest& w = work_[m.work];
  const auto index = static_cast<uint32_t>(psn::diff(next_, m.first_psn));

  RequestPacket p;
  p.psn = next_;
  p.seg = request_segment(w.type, w.imm, w.length, cfg_.mtu, index);
  p.ackreq = p.seg.last || (cfg_.ackreq_every != 0 && (index + 1) % cfg_.ackreq_every == 0);
  p.cause = resend ? retx_cause_ : Cause::original;
  p.span = w.type == MsgType::read ? m.span : 1;
  p.message = w.message;
  p.copy = m.copy;
  p.length = w.length;
  p.first_psn = m.first_psn;

  next_ = psn::add(next_, p.span);
  if (psn::diff(next_, sent_end_) > 0) sent_end_ = next_;
  if (!timer_) timer_ = now + cfg_.timeout;
  return p;
}

void Requester::advance_una(uint32_t to, Ns now) {
  if (psn::diff(to, una_) <= 0 || psn::diff(to, sent_end_) > 0) return;
  una_ = to;
  while (!active_.empty() && psn::diff(una_, psn::add(active_.front().first_psn, active_.front().span)) >= 0)
    active_.pop_front();
  if (psn::diff(next_, una_) < 0) next_ = una_;  // an ACK overtook the resend: skip what is acknowledged
  retries_ = 0;
  if (una_ == sent_end_) timer_.reset();
  else timer_ = now + cfg_.timeout;
}

bool Requester::on_ack(uint32_t p, Ns now) {
  uint32_t before = una_;
  advance_una(psn::add(p, 1), now);
  return una_ != before;
}

bool Requester::on_nak_seq(uint32_t p, Ns now) {
  if (error_ || psn::diff(p, una_) < 0 || psn::diff(p, sent_end_) >= 0) return false;
  advance_una(p, now);  // a NAK at p also acknowledges everything before p
  next_ = p;
  retx_cause_ = Cause::gbn;
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

bool Requester::on_read_response(uint32_t p, bool last, Ns now) {
  const Active* m = find(p);
  if (error_ || !m || work_[m->work].type != MsgType::read) return false;
  const uint32_t first = m->first_psn, end = psn::add(m->first_psn, m->span);
  advance_una(first, now);  // a response implicitly acknowledges the requests before the READ
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
  retx_cause_ = Cause::timeout;
  blocked_until_ = now;
  timer_ = now + cfg_.timeout;
}

bool Requester::idle() const {
  return error_ || (active_since_ && next_work_ >= work_.size() && active_.empty());
}

}  // namespace roceshark::gen
