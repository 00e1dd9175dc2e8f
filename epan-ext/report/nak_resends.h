// SPDX-License-Identifier: GPL-2.0-or-later
// The resends each sequence NAK forced, as a statistic counted them (loss
// signs), kept so that a NAK taken back later (EventSink::nak_reordered: a
// late original overtaken by its own resend) takes its resends back too.
#pragma once
#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <map>
#include <vector>

#include "epan-ext/analysis/verdict.h"
#include "epan-ext/common/limits.h"

namespace roceshark {

class NakResends {
 public:
  struct Resend {
    uint32_t frame, flow, point, stream;
    uint8_t priority;
    uint64_t ts_ns;
  };
  // Beyond this many resends kept, the oldest NAK's are let go: a take-back
  // comes within the match window, long before.
  static constexpr size_t kMaxKept = cap_info(Cap::nak_resends).value;

  // A loss-sign resend that names its NAK, at `ts_ns`.
  void add(const Verdict& v, uint64_t ts_ns) {
    if (!v.nak_frame || !is_retransmission(v.seq) || !is_loss_sign(v)) return;
    by_nak_[v.nak_frame].push_back({v.frame, v.row_flow, v.point, v.stream, v.pfc.priority, ts_ns});
    for (++kept_; kept_ > kMaxKept && !by_nak_.empty(); by_nak_.erase(by_nak_.begin())) {
      kept_ -= by_nak_.begin()->second.size();
      let_go_upto_ = std::max(let_go_upto_, by_nak_.begin()->first);
    }
  }
  // NAKs taken back after their resends were let go (Cap::nak_resends):
  // those resends still count as loss signs.
  uint64_t missed() const { return missed_; }
  // The resends that named `nak_frame`, handed over once.
  std::vector<Resend> take(uint32_t nak_frame) {
    const auto it = by_nak_.find(nak_frame);
    if (it == by_nak_.end()) {
      // Its resends may have been let go at the cap: they stay loss signs.
      if (nak_frame <= let_go_upto_) ++missed_;
      return {};
    }
    std::vector<Resend> out = std::move(it->second);
    kept_ -= out.size();
    by_nak_.erase(it);
    return out;
  }

 private:
  std::map<uint32_t, std::vector<Resend>> by_nak_;  // NAK frame -> its resends
  size_t kept_ = 0;
  uint32_t let_go_upto_ = 0;  // the latest NAK whose resends were let go
  uint64_t missed_ = 0;
};

}  // namespace roceshark
