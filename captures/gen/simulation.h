// SPDX-License-Identifier: GPL-2.0-or-later
// The discrete-event model of the scenario: hosts with one egress link
// each, RC requesters and responders, and packets walking the path past
// the capture points. Every frame a point records goes to the FrameSink as
// it happens, in timestamp order, so nothing accumulates in memory.
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <optional>
#include <stdexcept>
#include <vector>

#include "captures/gen/event_queue.h"
#include "captures/gen/faults.h"
#include "captures/gen/frame.h"
#include "captures/gen/packet_factory.h"
#include "captures/gen/prng.h"
#include "captures/gen/requester.h"
#include "captures/gen/responder.h"
#include "captures/gen/scenario.h"

namespace roceshark::gen {

// The scenario is consistent on paper but not in the run (a fault that hit
// nothing, a corrupt byte past the payload, a run that never settles).
class SimulationError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

class Simulation {
 public:
  explicit Simulation(const Scenario& sc);
  void run(FrameSink& sink);

  struct Stats {
    uint64_t sent = 0;      // packets put on a link by a host
    uint64_t recorded = 0;  // frames handed to the sink
    uint64_t events = 0;
    Ns end = 0;             // time of the last recorded frame
  };
  const Stats& stats() const { return stats_; }

 private:
  struct ResponseItem {
    Ns ready = 0;
    Reply reply;
    uint32_t next = 0;  // READ: next response packet
  };
  struct QpState {
    std::vector<Requester> req;   // by side
    std::vector<Responder> resp;  // by side: answers the other side's requests
    std::array<std::deque<ResponseItem>, 2> responses;  // queued at side s
    std::array<std::optional<Ns>, 2> timer_at, wake_at, flush_at, last_cnp;
    std::array<bool, 2> side_active{};
    bool activated = false, done = false, error = false;
  };
  struct ControlItem {
    Ns ready = 0;
    PacketPtr pkt;
  };
  struct FlowRef {
    size_t qp;
    int side;
    bool responses;  // else the requester
  };
  struct Port {
    Ns busy_until = 0;
    std::optional<Ns> tx_event;  // the one live host_tx event; others are stale
    std::deque<ControlItem> control;  // CNPs and CM MADs go first
    std::vector<FlowRef> flows;       // then round-robin
    size_t rr = 0;
  };

  void handle(Event& e);
  void push(EventKind k, Ns t, uint32_t a = 0, uint32_t b = 0, PacketPtr p = nullptr);

  // Hosts and links.
  void kick(size_t host);
  void kick_at(size_t host, Ns t);
  void host_tx(size_t host, Ns t);
  PacketPtr pick(size_t host);
  bool flow_ready(const FlowRef& f) const;
  PacketPtr flow_take(const FlowRef& f);
  void transmit(size_t host, PacketPtr p);
  void depart(const PacketPtr& p, Ns t, size_t segment);
  void arrive(const PacketPtr& p);
  void record(size_t point, const InFlight& p);
  Ns serialization(size_t bytes) const;

  // Endpoints.
  void deliver(const PacketPtr& p);
  void deliver_request(const InFlight& p);
  void deliver_reply(const InFlight& p);
  void deliver_read_response(const InFlight& p);
  void deliver_cm(const InFlight& p);
  void push_response(size_t qp, int side, const Reply& r);
  void push_control(size_t host, PacketPtr p, Ns ready);
  void maybe_cnp(size_t qp, int np_side);
  void activate(size_t qp);
  void activate_side(size_t qp, int side);
  void sync_requester(size_t qp, int side);
  void sync_flush(size_t qp, int side);
  void fail_qp(size_t qp);
  void check_done(size_t qp);
  size_t host_of(size_t qp, int side) const { return sc_.qps[qp].side[side].host; }

  const Scenario& sc_;
  PacketFactory factory_;
  FaultBook faults_;
  EventQueue events_;
  Prng jitter_;
  FrameSink* sink_ = nullptr;
  Ns now_ = 0;
  int64_t rate_mbps_ = 100'000;
  std::vector<QpState> qps_;
  std::vector<Port> ports_;
  std::vector<std::vector<std::array<Ns, 2>>> fifo_;  // [path][segment][forward]: last arrival
  Stats stats_;
};

}  // namespace roceshark::gen
