// SPDX-License-Identifier: GPL-2.0-or-later
// The send side of one RC QP: PSN assignment, the outstanding window, and
// recovery (IBA vol. 1 9.7.3-9.7.6): go-back-N after a PSN sequence error
// NAK, resend from the oldest unacknowledged PSN when the transport timer
// expires, and wait-then-resend after an RNR NAK. An ATOMIC completes only on
// its ATOMIC ACKNOWLEDGE: a later ACK does not.
//
// It only decides; the simulation owns time and calls in. PSNs are 24-bit
// and compared modulo 2^24.
#pragma once
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "captures/gen/atomic.h"
#include "captures/gen/frame.h"
#include "captures/gen/segmentation.h"
#include "captures/gen/units.h"

namespace roceshark::gen {

struct RequesterConfig {
  uint32_t start_psn = 0;
  uint32_t mtu = 1024;
  uint32_t window = 128;
  uint32_t ackreq_every = 0;
  Ns timeout = 4'000'000;
  uint32_t retry_cnt = 7;
  Ns nak_turnaround = 500;
  // Selective repeat: a sequence-error NAK at x resends x alone, then the
  // requester goes on where it was (the responder placed what followed x).
  bool selective = false;
};

// A work request as the scenario describes it; `repeat` copies are posted
// `every` apart, starting `at` after the QP becomes active.
struct WorkRequest {
  size_t message = 0;  // scenario message index
  MsgType type = MsgType::send;
  uint64_t length = 0;
  bool imm = false;
  Ns at = 0;
  uint64_t repeat = 1;
  Ns every = 0;
  AtomicArgs atomic;  // CmpSwap, FetchAdd
};

struct RequestPacket {
  uint32_t psn = 0;
  Segment seg;
  bool ackreq = false;
  Cause cause = Cause::original;
  uint32_t span = 1;          // PSNs consumed (READ: response packets)
  size_t message = 0;         // scenario message index
  uint64_t copy = 0;          // which repeat of it
  uint64_t length = 0;        // message length (the RETH DMA length)
  uint32_t first_psn = 0;     // first PSN of the message
  // A READ re-issued for its remaining responses: the response packets
  // skipped (the RETH VA advances by that many MTUs and the DMA length
  // shrinks by as many bytes); `span` is what is left.
  uint32_t read_skip = 0;
  AtomicArgs atomic;  // CmpSwap, FetchAdd
};

class Requester {
 public:
  explicit Requester(const RequesterConfig& cfg);

  void add_work(const WorkRequest& w) { work_.push_back(w); }
  void activate(Ns now);

  // Whether a packet may go now, and which. take() must follow ready().
  bool ready(Ns now) const;
  RequestPacket take(Ns now);
  // The next time ready() may change by itself (a post time, the end of a
  // NAK turnaround or RNR wait); nothing if only an ACK can unblock it.
  std::optional<Ns> wake_time(Ns now) const;

  // Responses. All return true when they changed anything. `atomic_ack`:
  // an ATOMIC ACKNOWLEDGE, the only ACK that completes the ATOMIC at `psn`.
  bool on_ack(uint32_t psn, Ns now, bool atomic_ack = false);
  bool on_nak_seq(uint32_t psn, Ns now);
  bool on_rnr(uint32_t psn, Ns wait, Ns now);
  bool on_read_response(uint32_t psn, bool last, Ns now);
  void on_fatal() { error_ = true, timer_.reset(); }

  // The transport timer; on_timer() is a no-op unless `now` is its deadline.
  std::optional<Ns> timer_deadline() const { return timer_; }
  void on_timer(Ns now);

  bool errored() const { return error_; }
  // Everything posted, sent and acknowledged (or the QP is in error).
  bool idle() const;
  uint32_t una() const { return una_; }
  uint32_t next_psn() const { return next_; }
  uint32_t sent_end() const { return sent_end_; }

 private:
  struct Active {
    size_t work = 0;    // index into work_
    uint64_t copy = 0;
    uint32_t first_psn = 0;
    uint32_t span = 0;  // PSNs
    uint32_t read_next = 0;  // READ: the next response PSN expected
    std::optional<uint32_t> retried;  // READ: re-issued from this PSN, its responses not in yet
  };
  struct LoneResend {
    uint32_t psn;
    Cause cause;
  };

  std::optional<Ns> post_time() const;  // of the next work request not yet started
  const Active* find(uint32_t psn) const;
  Active* find(uint32_t psn);
  RequestPacket build(const Active& m, uint32_t psn, Cause cause) const;
  bool last_fully_sent() const;
  void advance_una(uint32_t to, Ns now);

  RequesterConfig cfg_;
  std::vector<WorkRequest> work_;
  size_t next_work_ = 0;
  uint64_t next_copy_ = 0;
  std::optional<Ns> active_since_;
  std::deque<Active> active_;
  uint32_t next_, sent_end_, una_;
  Cause retx_cause_ = Cause::gbn;
  std::optional<LoneResend> lone_;  // one PSN to resend before going on (selective repeat, READ retry)
  Ns blocked_until_ = 0;
  std::optional<Ns> timer_;
  uint32_t retries_ = 0;
  bool error_ = false;
};

}  // namespace roceshark::gen
