// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/pending_acks.h"

#include <algorithm>

#include "epan-ext/psn.h"

namespace roceshark {

void PendingAcks::on_request(uint32_t psn, uint64_t ts_ns, uint32_t frame, bool resent) {
  if (resent) {
    while (!waiting_.empty() && psn::at_or_after(waiting_.back().psn, psn)) waiting_.pop_back();
    return;
  }
  if (waiting_.size() >= cap_) waiting_.pop_front();
  waiting_.push_back({psn, frame, ts_ns});
}

Covered PendingAcks::on_response(uint32_t psn, bool covers_psn_itself, uint64_t ts_ns,
                                 std::vector<uint64_t>& samples) {
  Covered c;
  while (!waiting_.empty()) {
    const int32_t d = psn::diff(psn, waiting_.front().psn);
    if (d < 0 || (d == 0 && !covers_psn_itself)) break;
    const Waiting& w = waiting_.front();
    const uint64_t rtt = ts_ns - std::min(ts_ns, w.ts_ns);
    samples.push_back(rtt);
    ++c.count;
    c.newest_frame = w.frame;
    c.newest_rtt_ns = rtt;
    waiting_.pop_front();
  }
  return c;
}

}  // namespace roceshark
