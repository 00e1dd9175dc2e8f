// SPDX-License-Identifier: GPL-2.0-or-later
// The receive side of one RC QP (IBA vol. 1 9.7.5): the expected PSN, the
// MSN, and what to answer.
//
//   PSN == ePSN  accept; ACK when AckReq is set (coalesced, see below);
//                a READ is answered by its response instead.
//   PSN >  ePSN  one NAK "PSN sequence error" (PSN = ePSN) per hole; drop
//                everything until ePSN arrives.
//   PSN <  ePSN  duplicate: re-execute a READ; answer an ATOMIC again from
//                its saved ATOMIC ACKNOWLEDGE, without executing it again
//                (9.7.5.1.3); otherwise ACK with ePSN-1 on the first
//                duplicate of a run and on every duplicate that has AckReq.
//
// An ATOMIC is executed once, on the 8-byte target of this end (it starts at
// 0), and answered by an ATOMIC ACKNOWLEDGE carrying the original value.
//
// Out-of-order placement (`ooo=`, as NICs built for adaptive routing do):
//   PSN >  ePSN  placed and remembered, no NAK; when ePSN arrives it advances
//                past everything placed behind it, and one ACK goes out for
//                the newest (a placed READ is answered then). A hole still
//                open `ooo_nak` after it opened (or after ePSN last moved)
//                gets one sequence-error NAK; without `ooo_nak` only the
//                requester's timer recovers a loss.
//
// Coalescing: with an interval > 0 an ACK is held that long; AckReq packets
// arriving meanwhile replace it, so one ACK goes out for the newest.
// A forced RNR NAK or error NAK replaces acceptance of the first packet of
// the chosen message, once.
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <vector>

#include "captures/gen/atomic.h"
#include "captures/gen/frame.h"
#include "captures/gen/scenario.h"
#include "captures/gen/units.h"

namespace roceshark::gen {

struct Incoming {
  uint32_t psn = 0;
  bool ackreq = false;
  bool first = false;  // first packet of its message
  bool last = false;   // last packet: completes the message
  bool read = false;
  uint32_t span = 1;   // PSNs consumed
  uint64_t read_length = 0;
  size_t message = kNoMessage;  // scenario message index
  std::optional<bool> atomic;   // an ATOMIC: whether a CmpSwap (else a FetchAdd)
  AtomicArgs atomic_args;
};

struct Reply {
  enum class Kind : uint8_t { ack, nak, read_response, atomic_ack };
  Kind kind = Kind::ack;
  uint32_t psn = 0;
  uint8_t syndrome = 0;
  uint32_t msn = 0;
  bool fatal = false;       // a NAK that puts the QP in the error state
  uint32_t read_span = 0;   // READ: response packets, starting at psn
  uint64_t read_length = 0;
  uint64_t original = 0;    // ATOMIC ACKNOWLEDGE: the target's value before the ATOMIC
};

class Responder {
 public:
  Responder(uint32_t start_psn, Ns coalesce);

  void force(const ForcedReply& r) { forced_[r.message] = r; }
  // Turns on out-of-order placement, NAKing a hole `nak_after` after it opened.
  void place_out_of_order(std::optional<Ns> nak_after) { ooo_ = true, ooo_nak_ = nak_after; }

  std::vector<Reply> on_request(const Incoming& in, Ns now);
  std::optional<Ns> flush_deadline() const;
  std::optional<Reply> on_flush(Ns now);
  // Out-of-order placement: when a hole still open is NAKed.
  std::optional<Ns> nak_deadline() const { return nak_at_; }
  std::optional<Reply> on_nak_timer(Ns now);

  uint32_t epsn() const { return epsn_; }
  uint32_t msn() const { return msn_; }
  bool errored() const { return error_; }
  bool busy() const { return pending_.has_value() || nak_at_.has_value(); }
  // The QP went to the error state from the other side's error.
  void fail() { error_ = true, pending_.reset(), nak_at_.reset(); }
  // Forced replies that never found their message.
  std::vector<int> unused_forced() const;

 private:
  void ack_due(uint32_t psn, Ns now, std::vector<Reply>& out);
  // Executes an in-order request; `ack` tells whether an ACK is owed for it.
  void accept(const Incoming& in, Ns now, std::vector<Reply>& out, bool& ack);
  void drain_placed(Ns now, std::vector<Reply>& out, bool& ack);

  struct Pending {
    uint32_t psn, msn;
    Ns deadline;
  };

  uint32_t epsn_;
  uint32_t msn_ = 0;
  Ns coalesce_;
  bool nak_sent_ = false;   // a NAK (sequence or RNR) is out for the current hole
  bool in_dup_run_ = false;
  bool error_ = false;
  std::optional<Pending> pending_;
  std::map<size_t, ForcedReply> forced_;
  bool ooo_ = false;
  std::optional<Ns> ooo_nak_;
  std::vector<Incoming> placed_;  // beyond the hole, in arrival order
  std::optional<Ns> nak_at_;      // when the open hole is NAKed
  uint64_t target_ = 0;           // what ATOMICs work on
  std::deque<Reply> atomic_saved_;  // the latest ATOMIC ACKNOWLEDGEs, to answer duplicates
};

}  // namespace roceshark::gen
