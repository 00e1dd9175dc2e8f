// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/analysis/pending_acks.h"

#include <algorithm>

#include "epan-ext/decode/psn.h"

namespace roceshark {

void PendingAcks::on_request(uint32_t psn, uint64_t ts_ns, uint32_t frame, bool resent) {
  if (resent) {
    while (size() && psn::at_or_after(waiting_.back().psn, psn)) waiting_.pop_back();
    if (!size()) clear();
    return;
  }
  if (size() >= cap_) pop_front();
  waiting_.push_back({psn, frame, ts_ns});
}

void PendingAcks::pop_front() {
  if (++head_ == waiting_.size()) {
    clear();
  } else if (head_ >= 64 && head_ * 2 >= waiting_.size()) {  // amortised: each entry moves once per halving
    waiting_.erase(waiting_.begin(), waiting_.begin() + static_cast<std::ptrdiff_t>(head_));
    head_ = 0;
  }
}

Covered PendingAcks::on_response(uint32_t psn, bool covers_psn_itself, uint64_t ts_ns,
                                 std::vector<uint64_t>& samples) {
  Covered c;
  while (size()) {
    const Waiting& w = waiting_[head_];
    const int32_t d = psn::diff(psn, w.psn);
    if (d < 0 || (d == 0 && !covers_psn_itself)) break;
    const uint64_t rtt = ts_ns - std::min(ts_ns, w.ts_ns);
    samples.push_back(rtt);
    ++c.count;
    c.newest_frame = w.frame;
    c.newest_rtt_ns = rtt;
    pop_front();
  }
  return c;
}

}  // namespace roceshark
