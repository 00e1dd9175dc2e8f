// SPDX-License-Identifier: GPL-2.0-or-later
// The sequence-analysis engine for one capture file.
//
// process() is called once per RoCE frame, in frame order. It classifies
// the packet from what came before it only, so one-pass and two-pass
// results are the same. It keeps no result per frame: a front end that
// shows frames again keeps them (StoredAnalysis, epan-ext/analysis/stored_analysis.h),
// a streaming one need not. What it learns later about earlier frames
// (losses between points, pause episodes, clock skews) goes to an EventSink.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "epan-ext/analysis/analysis_facts.h"
#include "epan-ext/analysis/besteffort.h"
#include "epan-ext/analysis/cnp_queueing.h"
#include "epan-ext/common/config.h"
#include "epan-ext/analysis/ecn_compare.h"
#include "epan-ext/analysis/flow_table.h"
#include "epan-ext/analysis/frame_timer.h"
#include "epan-ext/analysis/hop_matcher.h"
#include "epan-ext/analysis/icmp_verdict.h"
#include "epan-ext/decode/packet.h"
#include "epan-ext/analysis/dcbx.h"
#include "epan-ext/analysis/event_sink.h"
#include "epan-ext/analysis/pfc_analyzer.h"
#include "epan-ext/analysis/qos_checker.h"
#include "epan-ext/analysis/pending_acks.h"
#include "epan-ext/analysis/request_sequence.h"
#include "epan-ext/analysis/tap_record.h"
#include "epan-ext/analysis/verdict.h"

namespace roceshark {

class Analyzer : public AnalysisFacts {
 public:
  explicit Analyzer(const Config& cfg = {}, EventSink* events = nullptr) : cfg_(cfg), events_(events) {
    cfg_.path_order.assign(cfg_.path_order_names.size(), UINT32_MAX);
  }
  Analyzer(const Analyzer&) = delete;  // parts of it refer to its own config
  Analyzer& operator=(const Analyzer&) = delete;

  // The verdict stays valid until the next call.
  const Verdict& process(const PacketInfo& p);
  // With the verdict just made: multi-point matching's hop verdict when the
  // packet was seen at an earlier point too (a loss after it is an event:
  // known when a later packet of the flow reaches the next point), and a
  // response's RTT samples, one per request it covered.
  const hop::HopVerdict* last_hop() const { return has_hop_ ? &hop_ : nullptr; }
  std::span<const uint64_t> last_rtt_samples() const { return rtt_samples_; }
  const pfc::PauseVerdict& process(const pfc::PauseFrame& f);
  const pfc::PfcAnalyzer& pfc() const { return pfc_; }
  // An LLDP frame with DCBX TLVs: compared with the policy and the marking
  // seen so far at its point, and its ETS with the first port's.
  qos::DcbxVerdict process(uint32_t frame, uint64_t ts_ns, const qos::DcbxAnnouncement& a);
  const qos::Checker& qos() const { return qos_; }
  // An ICMP "too big" message quoting RoCE (analyzer_icmp.cpp): matched to
  // the flow(s) it quotes and their largest packets so far.
  icmp::Verdict process(const icmp::TooBig& m);
  // A TCP or UDP packet that is not RoCE: matched across the points RoCE
  // was seen at, to compare its queueing with RoCE's (epan-ext/analysis/besteffort.h).
  void process(const CrossPacket& c);
  const hop::HopMatcher& hops() const { return hops_; }
  // Whether responses for `flow`'s requests were ever seen at `point`.
  bool responses_seen(uint32_t flow, uint32_t point) const;
  void name_point(uint32_t point, std::string name);
  // How the views name MACs (mac_name): a front end's resolver, called
  // when a view draws; none names nothing.
  using MacNames = std::function<std::string(const Mac&)>;
  void name_macs(MacNames f) { mac_names_ = std::move(f); }
  // Flow points whose state roce.flow_idle_s freed so far.
  uint64_t expired_flow_points() const { return expired_; }
  bool point_named(uint32_t point) const { return point_names_.contains(point); }
  // The analysis' time of the record just processed (point_clock.h): what
  // its tap record carries, not the stamp when the stamps ran backwards.
  uint64_t latest_ts() const { return timer_.latest_ts(); }

  // What the report side may ask (epan-ext/analysis/analysis_facts.h).
  const Config& config() const final { return cfg_; }
  const qos::Policy& policy() const final { return qos_.policy(); }
  qos::Checker::Learned learned() const final { return qos_.learned(); }
  const std::string& point_name(uint32_t point) const final;
  const PointClock& clock() const final { return timer_.clock(); }
  const LimitCounts& beyond() const final { return limit_notes_.counts(); }
  CapCounts caps() const final;
  std::vector<uint32_t> points() const final;
  std::string mac_name(const Mac& m) const final { return mac_names_ ? mac_names_(m) : std::string(); }
  const FlowKey& flow_key(uint32_t flow) const final { return flows_[flow].key; }
  uint32_t flow_stream(uint32_t flow) const final { return flows_[flow].stream; }
  RecoveryMode recovery_mode(uint32_t flow) const final { return flows_[flow].naks.mode; }
  uint32_t path_mtu(uint32_t flow) const final { return flows_[flow].naks.pmtu; }
  uint32_t path_mtu_cm_frame(uint32_t flow) const final { return flows_[flow].pmtu_cm_frame; }
  std::span<const uint32_t> flows_between(const Address& src, const Address& dst) const final {
    return flows_.between(src, dst);
  }
  const icmp::Report& icmp_report(uint32_t id) const final { return icmp_reports_[id]; }
  void finish() const final;

 private:
  struct FlowPoint {
    uint32_t point = 0;
    RequestSequence requests;
    PendingAcks pending;
    bool responses_seen = false;
    bool unchecked_noted = false;
    // A flow's TTL at one point is constant; flipping back and forth means
    // two taps were merged into this point (mergecap without -I none).
    uint8_t ttl = 0, ttl_flips = 0;
    bool merged_noted = false;
    // Responses this flow sent here: the last ACK for duplicate ACKs, the
    // last few for mirrored copies.
    bool has_ack = false;
    uint32_t ack_psn = 0;
    RecentPackets recent_responses;
    // Resent requests of the paired flow that passed here and no response of
    // this flow has answered since: each may draw one response again.
    uint32_t resends_to_answer = 0;
    uint64_t min_rtt_ns = 0;   // of its requests here, 0 until sampled
    bool in_read = false;      // READ responses this flow sends here: the next PSN due
    uint32_t read_next = 0;
    bool live = false;         // a packet came here since it was made or freed
    uint64_t last_ns = 0;      // its latest packet here (either direction)
    uint32_t stretch = 0;      // the point's clock stretch it was last seen in (point_clock.h)
  };

  const Verdict& analyse(const PacketInfo& p);
  pfc::PauseVerdict& analyse(const pfc::PauseFrame& f);
  void analyse(const CrossPacket& c);

  FlowPoint fresh_flow_point(uint32_t point) const;
  // The flow's state at the point, fresh when it was quiet past roce.flow_idle_s.
  FlowPoint& flow_point(uint32_t flow, uint32_t point);
  bool idle(const FlowPoint& fp, uint64_t now) const {
    return cfg_.flow_idle_ns && fp.live && now > fp.last_ns && now - fp.last_ns > cfg_.flow_idle_ns;
  }
  // Frees the state of every flow point quiet past roce.flow_idle_s, when
  // the timer says a sweep is due.
  void expire_idle(uint64_t now);
  void forget(FlowPoint& fp);
  void assign_stream(uint32_t flow, const PacketInfo& p, Verdict& v);
  // An ambiguous response: the requests it may answer are credited to none.
  void drop_ambiguous_answer(const PacketInfo& p, bool covers_itself);
  void on_cm(const PacketInfo& p, Verdict& v);
  void on_request(const PacketInfo& p, Verdict& v);
  void on_response(const PacketInfo& p, Verdict& v);
  void check_read_responses(FlowPoint& here, const PacketInfo& p, Verdict& v);
  void learn_pmtu(uint32_t flow, const PacketInfo& p);
  // Why this packet is not analysed (LimitKind::none: it is); `flow` is
  // kNoId until the flow is known.
  LimitKind past_limit(const PacketInfo& p, uint32_t flow);

  void sight_for_pfc(const PacketInfo& p, Verdict& v);
  uint8_t priority_of(const PacketInfo& p) const;
  static uint64_t identity(const PacketInfo& p);
  // A late original proved the flow's sequence NAK was reordering's doing.
  void take_back_nak(uint32_t flow, uint32_t late_frame);
  void match_across_points(const PacketInfo& p, Verdict& v);
  void weigh_against_besteffort(const PacketInfo& p, const Verdict& v, hop::HopVerdict& h);
  void check_one_place(const PacketInfo& p, Verdict& v);
  void watch_notification_point(const PacketInfo& p, Verdict& v);

  Config cfg_;
  EventSink* events_;
  FrameTimer timer_{cfg_};
  pfc::PfcAnalyzer pfc_{cfg_, events_};
  qos::Checker qos_{cfg_.policy};
  std::optional<qos::EtsReference> ets_reference_;  // the first ETS Configuration seen
  hop::HopMatcher hops_{cfg_, events_};
  hop::EcnWatch ecn_{cfg_.ecn_onset_tolerance_ns};
  std::set<hop::EcnPlace> ecn_noted_;  // hops with an ecn_unmarked expert info
  hop::CnpQueueing cnp_queueing_;
  std::set<std::pair<uint32_t, uint32_t>> cnp_queued_noted_;  // hops with a cnp_queued expert info
  hop::BestEffort besteffort_{cfg_.besteffort_share_pct, cfg_.match_window_ns};
  FlowTable flows_;
  std::deque<FlowPoint> flow_points_;  // a deque: growing never copies them all
  std::unordered_map<uint64_t, uint32_t> flow_point_index_;  // flow << 32 | point
  uint64_t now_ns_ = 0;         // the current packet's time
  // flow_point()'s answer for the current packet: asked again for the same
  // flow and point, it changes nothing while the state is live.
  struct {
    uint64_t packet = 0;
    uint32_t flow = kNoId, point = 0, state = 0;
  } recent_fp_;
  uint64_t packets_ = 0;  // RoCE packets analysed, recent_fp_'s generation
  PacketInfo retimed_;    // timed()'s copy, kept: a PacketInfo is costly to construct per packet
  uint64_t expired_ = 0;         // flow points freed, for tests
  // The latest packet's results (process()).
  Verdict verdict_;
  hop::HopVerdict hop_;
  bool has_hop_ = false;
  std::vector<uint64_t> rtt_samples_;
  std::vector<uint32_t> pair_fits_;  // the request flows the latest ambiguous response fits
  LimitNotes limit_notes_;
  std::unordered_set<uint32_t> mirrored_points_;  // points where a mirror copy was proven
  struct AddressHash {
    size_t operator()(const Address& a) const { return hash_address(a); }
  };
  // Hosts that sent a CNP matched to no request flow (no CM seen): it could
  // answer any of their QPs.
  std::unordered_set<Address, AddressHash> cnp_unmatched_senders_;

  struct CmKey {
    Address active, passive;
    uint32_t comm_id;
    bool operator==(const CmKey&) const = default;
  };
  struct CmKeyHash {
    size_t operator()(const CmKey& k) const { return hash_address(k.passive, hash_address(k.active)) ^ k.comm_id; }
  };
  struct CmRequest {
    uint32_t qpn, start_psn;
    uint32_t path_mtu, frame;
    bool answered;
  };
  std::unordered_map<CmKey, CmRequest, CmKeyHash> cm_requests_;
  std::unordered_map<uint32_t, std::string> point_names_;
  MacNames mac_names_;
  std::vector<icmp::Report> icmp_reports_;
};

// The tap record of the packet just analysed, for a front end that keeps no
// results (valid until the Analyzer's next packet).
inline TapRecord latest_record(const Verdict& v, const Analyzer& a, uint64_t ts_ns, uint32_t frame_len,
                               const EventLog* events) {
  return {&v, &a, ts_ns, frame_len, nullptr, nullptr, events, a.last_hop(), a.last_rtt_samples()};
}

}  // namespace roceshark
