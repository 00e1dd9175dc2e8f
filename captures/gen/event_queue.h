// SPDX-License-Identifier: GPL-2.0-or-later
// The simulation's clock: events in time order, ties in the order they were
// scheduled, so a run is fully deterministic.
#pragma once
#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "captures/gen/in_flight.h"

namespace roceshark::gen {

// A recorded frame that a SPAN port records a second time (or an ICMP
// message a router sent, at one point it passes).
// It keeps the whole frame: an ERSPAN session encapsulates the copy anew.
struct MirrorCopy {
  FrameInfo info;
  std::vector<uint8_t> bytes;
  size_t point = 0;
  bool ce = false, icrc_bad = false;
  std::string lost_before;
  bool paused = false;
  uint64_t pause_id = 0;
  uint64_t packet_id = 0;
  bool lost_after = false;
  Ns queued = 0;
};

enum class EventKind : uint8_t {
  host_tx,        // a = host: the egress link is free
  host_kick,      // a = host: something became ready to send
  arrive,         // pkt reaches node pkt->hop of its route
  mirror_copy,    // copy is recorded again
  req_timer,      // a = qp, b = side: transport timer deadline
  req_wake,       // a = qp, b = side: requester may be ready
  resp_flush,     // a = qp, b = side: coalesced ACK deadline
  activate,       // a = qp: its traffic may start (CM first, if any)
  activate_side,  // a = qp, b = side: that side's send queue starts
  point_tx,       // pkt leaves the point pkt->hop (after pacing or a pause)
  egress_release, // a = egress, b = class: the next held frame may go
  pause_end,      // a = egress, b = class: a pause window may have ended
  queue_exit,     // a = egress: pkt has waited out a `queue` burst at the point pkt->hop
  pfc_frame,      // a = pfc directive, b = which of its frames
  lldp_frame,     // a = lldp directive, b = which of its frames
  icmp_frame,     // copy: an ICMP too-big message passing its point
  besteffort_frame,   // a = besteffort directive, b = which of its packets: recorded at the upstream point
  besteffort_arrive,  // a = besteffort directive: pkt reaches the queue feeding its point
  besteffort_leave,   // pkt has left that queue: recorded at the point, and goes no further
};

struct Event {
  Ns t = 0;
  uint64_t seq = 0;
  EventKind kind = EventKind::host_tx;
  uint32_t a = 0, b = 0;
  PacketPtr pkt;
  std::shared_ptr<MirrorCopy> copy;
};

class EventQueue {
 public:
  void push(Event e) {
    e.seq = seq_++;
    heap_.push_back(std::move(e));
    std::push_heap(heap_.begin(), heap_.end(), later);
  }
  Event pop() {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    Event e = std::move(heap_.back());
    heap_.pop_back();
    return e;
  }
  bool empty() const { return heap_.empty(); }

 private:
  static bool later(const Event& x, const Event& y) { return x.t != y.t ? x.t > y.t : x.seq > y.seq; }
  std::vector<Event> heap_;
  uint64_t seq_ = 0;
};

}  // namespace roceshark::gen
