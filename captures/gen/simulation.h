// SPDX-License-Identifier: GPL-2.0-or-later
// The discrete-event model of the scenario: hosts with one egress link
// each, RC requesters and responders, and packets walking the path past
// the capture points. Every frame a point records goes to the FrameSink as
// it happens, in timestamp order, so nothing accumulates in memory.
#pragma once
#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <optional>
#include <stdexcept>
#include <vector>

#include "captures/gen/event_queue.h"
#include "captures/gen/faults.h"
#include "captures/gen/frame.h"
#include "captures/gen/packet_factory.h"
#include "captures/gen/pause.h"
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
    std::array<std::optional<Ns>, 2> timer_at, wake_at, flush_at, nak_at, last_cnp;
    std::array<bool, 2> side_active{};
    std::array<bool, 2> np_silent{};  // an `np=off` end met a CE mark it did not answer
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
  // One traffic class of an egress: frames held by a pause, FIFO.
  struct ClassQueue {
    std::deque<PacketPtr> held;
    Ns drain_free = 0;             // the last held frame released has left by then
    uint64_t opener = 0;           // the XOFF that began the current busy period (see pause_period)
    std::optional<Ns> release_at;  // the live egress_release event
  };
  // One direction of the link a point taps: what the point passes towards
  // the link's end `towards` (a host or a switch). Only a paced (`speed`)
  // or PFC-paused egress does anything; the others pass frames as they
  // arrive, as before.
  struct Egress {
    size_t point = 0;
    NodeRef towards;
    int64_t mbps = 0;
    bool paced = false;  // frames end at least their serialization time apart
    bool pfc = false;    // some PFC frame pauses this transmitter
    Ns link_free = 0;    // paced: when the last frame has left
    PauseWindows windows;
    std::array<ClassQueue, 8> cls;
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
  // Hands one recorded frame to the sink: as it is, or as an ERSPAN copy,
  // cut at its interface's snaplen. `f` has everything but the bytes.
  void emit(Frame& f, std::span<const uint8_t> frame);
  // A SPAN copy of the switch's other side of the tapped link (`rewrite=on`).
  void mirror_other_side(const InFlight& p, std::vector<uint8_t>& bytes) const;
  Ns serialization(size_t bytes) const { return serialization(bytes, rate_mbps_); }
  static Ns serialization(size_t bytes, int64_t mbps);
  static double serialization_exact(size_t bytes, int64_t mbps);  // not rounded

  // Capture points: marking rewrites, pacing and PFC pauses.
  uint32_t egress_of(const Route& r, size_t hop) const;
  std::array<Mac, 2> link_macs(const Route& r, size_t hop) const;  // {src, dst} at that point, in travel order
  uint32_t egress_index(size_t point, NodeRef towards);
  void apply_rewrites(size_t point, InFlight& p);
  void drop_over_mtu(InFlight& p);
  // `mtu ... icmp=`: the router that drops `p` on `segment` (it left the
  // node before at `t`) sends an ICMP too-big back past the points before it.
  void send_icmp(const InFlight& p, Ns t, size_t segment);
  Ns queue_wait(size_t point, uint32_t egress, const InFlight& p);
  void red_mark(size_t point, InFlight& p) const;
  void enter_egress(uint32_t egress, const PacketPtr& p);
  void pass_point(uint32_t egress, const PacketPtr& p);
  void leave_point(const PacketPtr& p);
  uint64_t pause_period(Egress& e, uint8_t prio);
  void schedule_release(uint32_t egress, uint8_t prio, Ns t);
  void release(uint32_t egress, uint8_t prio);
  void pause_end(uint32_t egress, uint8_t prio);
  void send_pfc(size_t directive, uint64_t k);
  void send_lldp(size_t directive, uint64_t k);
  void record_link_local(size_t point, const FrameInfo& info, const std::vector<uint8_t>& bytes, uint64_t ctrl_id);

  // `besteffort`: TCP cross traffic recorded at the point before the
  // directive's, then queued with RoCE and recorded at it.
  void send_besteffort(size_t directive, uint64_t k);
  void besteffort_arrive(size_t directive, const PacketPtr& p);
  // The TTL and MACs a routed packet has at `hop`, having had them at `p.hop` (or fresh from the sender).
  void route_headers(InFlight& p, std::optional<size_t> from_hop, size_t hop) const;
  // RoCE's wait in the best-effort schedulers at this point, on top of `wait`.
  Ns besteffort_wait(size_t point, uint32_t egress, const InFlight& p, Ns wait);

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
  std::vector<Egress> egress_;
  std::vector<std::vector<std::array<uint32_t, 2>>> route_egress_;  // [path][position][forward]
  std::vector<std::vector<std::array<Mac, 2>>> link_macs_;          // [path][position]: before, after
  std::vector<std::vector<size_t>> rewrites_at_;                     // [point]: indices into sc_.rewrites
  std::vector<bool> rewrite_used_, mtu_used_;                                   // [rewrite]: it changed some packet
  std::vector<uint32_t> pfc_egress_;                                 // [pfc directive]
  std::vector<std::vector<uint8_t>> pfc_bytes_, lldp_bytes_;         // each directive sends one frame, repeatedly
  std::vector<FrameInfo> pfc_info_, lldp_info_;
  uint64_t next_ctrl_id_ = 0;
  uint64_t next_packet_id_ = 0;
  std::vector<std::vector<size_t>> queues_at_;           // [point]: indices into sc_.queues
  std::map<std::pair<size_t, uint32_t>, Ns> queue_last_;  // (burst, egress): when its last queued frame left
  std::vector<bool> queue_used_;                          // [burst]: it delayed some packet
  std::vector<std::vector<size_t>> besteffort_at_;        // [point]: indices into sc_.besteffort
  std::vector<BestEffortQueue> be_queues_;                // [besteffort]: its scheduler
  std::vector<FrameInfo> be_info_;                        // [besteffort]
  std::vector<Ns> be_spacing_;                            // [besteffort]: between its packets
  std::vector<uint64_t> be_count_;                        // [besteffort]: how many it sends
  std::vector<uint32_t> erspan_seq_;                      // [point]: next GRE sequence number of its session
  std::vector<uint8_t> erspan_bytes_;                     // the copy being recorded
  Stats stats_;
};

}  // namespace roceshark::gen
