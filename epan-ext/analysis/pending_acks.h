// SPDX-License-Identifier: GPL-2.0-or-later
// Requests waiting for their first ACK/NAK at one point, for ACK RTT.
// Karn's rule: a resent PSN gives no sample, so a resend drops the waiting
// entries at and after it and is not queued itself.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "epan-ext/decode/aeth.h"

namespace roceshark {

struct Covered {
  uint32_t count = 0;
  uint32_t newest_frame = 0;
  uint64_t newest_rtt_ns = 0;
};

class PendingAcks {
 public:
  explicit PendingAcks(uint32_t cap = 4096) : cap_(cap) {}
  void on_request(uint32_t psn, uint64_t ts_ns, uint32_t frame, bool resent);
  // A response with PSN `psn` covers the waiting requests at or before it
  // (before it for a PSN sequence error NAK, which names the missing PSN).
  // Appends one RTT per covered request to `samples`.
  Covered on_response(uint32_t psn, bool covers_psn_itself, uint64_t ts_ns, std::vector<uint64_t>& samples);
  void clear() { waiting_.clear(), head_ = 0; }
  size_t size() const { return waiting_.size() - head_; }

 private:
  struct Waiting {
    uint32_t psn;
    uint32_t frame;
    uint64_t ts_ns;
  };
  void pop_front();
  // In PSN order from head_: a vector, not a deque, because a deque takes
  // half a kilobyte at once and there is one of these per flow and point.
  std::vector<Waiting> waiting_;
  size_t head_ = 0;
  uint32_t cap_;
};

}  // namespace roceshark
