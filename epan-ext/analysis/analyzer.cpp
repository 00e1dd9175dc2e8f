// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/analysis/analyzer.h"

#include <algorithm>

#include "epan-ext/common/printable.h"
#include "epan-ext/decode/aeth.h"
#include "epan-ext/decode/opcode.h"
#include "epan-ext/decode/psn.h"

namespace roceshark {
namespace {

constexpr size_t kMaxCmRequests = 1u << 16;  // outstanding REQs; hostile captures can't grow it further

}  // namespace

qos::DcbxVerdict Analyzer::process(uint32_t frame, uint64_t ts_ns, const qos::DcbxAnnouncement& a) {
  timer_.at(a.point, frame, ts_ns);  // the tap's time; the announcement itself is not timed
  qos::DcbxVerdict v{frame, a, qos::compare(a, qos_.policy(), qos_.seen(a.point), ets_reference_ ? &*ets_reference_ : nullptr)};
  if (a.ets && !ets_reference_) ets_reference_ = qos::EtsReference{frame, a.mac, *a.ets};
  return v;
}

const AnalysisFacts& no_facts() {
  static const Analyzer nothing;
  return nothing;
}

std::string mac_label(const AnalysisFacts& a, const Mac& m) {
  const std::string name = a.mac_name(m);
  return name.empty() ? mac_to_string(m) : printable(name) + " (" + mac_to_string(m) + ")";
}

std::string mac_device(const AnalysisFacts& a, const Mac& m) {
  const std::string name = a.mac_name(m);
  return name.empty() ? "with MAC " + mac_to_string(m) : printable(name) + " (MAC " + mac_to_string(m) + ")";
}

CapCounts Analyzer::caps() const {
  CapCounts c{};
  c[size_t(Cap::pause_windows)] = pfc_.live_dropped();
  c[size_t(Cap::copies)] = hops_.copies_unmatched();
  c[size_t(Cap::suspects)] = hops_.suspects_dropped();
  return c;
}

void Analyzer::finish() const {
  if (events_) events_->at_end(pfc_.open_episodes(), hops_.clocks().estimates());
}

bool Analyzer::responses_seen(uint32_t flow, uint32_t point) const {
  auto it = flow_point_index_.find(uint64_t{flow} << 32 | point);
  return it != flow_point_index_.end() && flow_points_[it->second].responses_seen;
}

LimitKind Analyzer::past_limit(const PacketInfo& p, uint32_t flow) {
  if (flow == kNoId) return timer_.admit_point(p.point) ? LimitKind::none : LimitKind::points;
  const Flow& f = flows_[flow];
  const bool known = (f.has_recent_point && f.recent_point == p.point) ||
                     flow_point_index_.contains(uint64_t{flow} << 32 | p.point);
  return known || flow_points_.size() < cfg_.max_flow_points ? LimitKind::none : LimitKind::flow_points;
}

const pfc::PauseVerdict& Analyzer::process(const pfc::PauseFrame& f) {
  pfc::PauseFrame copy;
  pfc::PauseVerdict& v = analyse(timer_.timed(f, copy));
  v.clock_back = timer_.clock().stepped();
  return v;
}

pfc::PauseVerdict& Analyzer::analyse(const pfc::PauseFrame& f) {
  LimitKind beyond = LimitKind::none;
  if (!timer_.admit_point(f.point)) beyond = LimitKind::points;
  else if (!pfc_.admit_port(f.point, f.src)) beyond = LimitKind::pfc_ports;
  return pfc_.process(f, beyond, beyond != LimitKind::none && limit_notes_.first(beyond));
}

void Analyzer::name_point(uint32_t point, std::string name) {
  // One set of points: a named point is an admitted one, so past
  // roce.max_points a point is neither analysed nor named.
  if (!timer_.admit_point(point)) return;
  for (const auto& [n, gbps] : cfg_.point_gbps_by_name)
    if (n == name) cfg_.point_gbps.emplace_back(point, gbps);
  for (size_t i = 0; i < cfg_.path_order_names.size(); ++i)
    if (cfg_.path_order_names[i] == name) cfg_.path_order[i] = point;
  point_names_[point] = std::move(name);
}

std::vector<uint32_t> Analyzer::points() const {
  std::vector<uint32_t> out;
  for (const auto& [p, n] : point_names_) out.push_back(p);
  std::sort(out.begin(), out.end());
  return out;
}

const std::string& Analyzer::point_name(uint32_t point) const {
  static const std::string kUnnamed = "-";
  auto it = point_names_.find(point);
  return it == point_names_.end() ? kUnnamed : it->second;
}

Analyzer::FlowPoint Analyzer::fresh_flow_point(uint32_t point) const {
  FlowPoint fp;
  fp.point = point;
  fp.pending = PendingAcks(cfg_.max_pending_acks);
  return fp;
}

Analyzer::FlowPoint& Analyzer::flow_point(uint32_t flow, uint32_t point) {
  if (recent_fp_.packet == packets_ && recent_fp_.flow == flow && recent_fp_.point == point &&
      flow_points_[recent_fp_.state].live)
    return flow_points_[recent_fp_.state];
  Flow& f = flows_[flow];
  if (!f.has_recent_point || f.recent_point != point) {
    auto [it, added] = flow_point_index_.try_emplace(uint64_t{flow} << 32 | point,
                                                     static_cast<uint32_t>(flow_points_.size()));
    if (added) {
      flow_points_.push_back(fresh_flow_point(point));
      f.points.push_back(it->second);
      flow_points_.back().requests.restart(f.cm_start_psn);
    }
    f.has_recent_point = true, f.recent_point = point, f.recent_state = it->second;
  }
  FlowPoint& fp = flow_points_[f.recent_state];
  // Checked here too, so expiry does not depend on when the last sweep ran.
  if (idle(fp, now_ns_)) forget(fp);
  // The point's clock stepped back since: a new recording (files appended,
  // a clock stepped), whose PSNs are not resends of the last one's.
  if (point == timer_.clock().point() && fp.stretch != timer_.clock().stretch()) {
    if (fp.live) forget(fp);
    fp.stretch = timer_.clock().stretch();
  }
  fp.last_ns = fp.live ? std::max(fp.last_ns, now_ns_) : now_ns_;
  fp.live = true;
  recent_fp_ = {packets_, flow, point, f.recent_state};
  return fp;
}

// What the flow did at the point is kept (responses seen, its TTL, the
// notes already raised, its best round trip); what its next packets would
// be judged against starts afresh.
void Analyzer::forget(FlowPoint& fp) {
  FlowPoint fresh = fresh_flow_point(fp.point);
  fresh.stretch = fp.stretch;
  fresh.responses_seen = fp.responses_seen;
  fresh.unchecked_noted = fp.unchecked_noted;
  fresh.ttl = fp.ttl, fresh.ttl_flips = fp.ttl_flips;
  fresh.merged_noted = fp.merged_noted;
  fresh.min_rtt_ns = fp.min_rtt_ns;
  fp = std::move(fresh);
  fp.requests.restart(std::nullopt);
  ++expired_;
}

void Analyzer::expire_idle(uint64_t now) {
  for (FlowPoint& fp : flow_points_)
    if (idle(fp, now)) forget(fp);
}

const Verdict& Analyzer::process(const PacketInfo& p) {
  analyse(timer_.timed(p, retimed_));
  verdict_.clock_back = timer_.clock().stepped();
  return verdict_;
}

const Verdict& Analyzer::analyse(const PacketInfo& p) {
  has_hop_ = false;
  ++packets_;
  now_ns_ = p.ts_ns;
  if (timer_.sweep_due(p.ts_ns)) expire_idle(p.ts_ns);
  rtt_samples_.clear();
  Verdict& v = verdict_ = {};
  v.frame = p.frame;
  v.point = p.point;
  if (p.truncated) {
    v.truncated = true;
    return v;
  }
  v.pkt = PacketSummary::of(p);
  v.role = classify_opcode(p.opcode).role;

  const auto past = [&](LimitKind k) -> const Verdict& {
    v.beyond = k;
    v.first_unchecked = limit_notes_.first(k);  // reported once per limit
    return v;
  };
  if (const LimitKind k = past_limit(p, kNoId); k != LimitKind::none) return past(k);
  const uint32_t id = flows_.find_or_add({p.src, p.dst, p.dest_qp}, cfg_.max_flows);
  if (id == kNoId) return past(LimitKind::flows);
  if (const LimitKind k = past_limit(p, id); k != LimitKind::none) return past(k);
  v.flow = v.row_flow = id;
  flows_[id].largest_ip = std::max(flows_[id].largest_ip, p.ip_len);

  if (p.cm.kind != CmMessage::Kind::none) on_cm(p, v);
  if (v.role != Role::datagram && v.role != Role::other) {
    assign_stream(id, p, v);
    v.stream = flows_[id].stream;
    learn_pmtu(id, p);
    if (v.role == Role::request) on_request(p, v);
    if (v.role == Role::response || v.role == Role::cnp) {
      flows_[id].responses_seen = true;
      if (flows_[id].paired != kNoId) {
        // A response belongs to the connection of the requests it answers,
        // even when its own flow was given a stream before they paired.
        v.row_flow = flows_[id].paired;
        v.stream = flows_[v.row_flow].stream;
      }
      if (v.role == Role::response) on_response(p, v);
    }
  }
  if (v.role != Role::other && p.ttl) check_one_place(p, v);
  if (v.role == Role::request || v.role == Role::response || v.role == Role::cnp) watch_notification_point(p, v);
  if (p.icrc == IcrcState::not_captured) {
    FlowPoint& fp = flow_point(id, p.point);
    v.first_unchecked = !fp.unchecked_noted;
    fp.unchecked_noted = true;
  }

  // What every host pair's packets at a port decide (docs/analysis-split.md):
  // after the connection's own verdict, which nothing here changes.
  if (v.role == Role::request || v.role == Role::response || v.role == Role::cnp) {
    sight_for_pfc(p, v);
    if (v.seq != SeqClass::duplicate) {  // a mirror copy says nothing new about marking or hops
      v.qos = qos_.check(v.flow, p.point, {p.dscp, p.ecn, p.pcp, v.role == Role::cnp, v.role == Role::request,
                                           p.encap != Encap::rocev1, p.vlan_id, p.frame_len});
      match_across_points(p, v);
    }
  }
  if (v.role == Role::datagram) match_across_points(p, v);  // UD and CM MADs cross the same hops
  return v;
}

// What no hop changes (IBA's invariant fields, and the IPv4 ID routers keep).
uint64_t Analyzer::identity(const PacketInfo& p) {
  uint64_t id = hash_address(p.dst, hash_address(p.src));
  for (uint64_t x : {uint64_t{p.dest_qp}, uint64_t{p.psn}, uint64_t{p.opcode}, uint64_t{p.payload_len},
                     uint64_t{p.has_ip_id ? 0x10000u | p.ip_id : 0u}})
    id = (id ^ x) * 0x100000001B3ull;
  return id;
}

void Analyzer::match_across_points(const PacketInfo& p, Verdict& v) {
  const uint64_t id = identity(p);
  hop::Copy c;
  c.point = p.point, c.frame = p.frame, c.ts_ns = p.ts_ns, c.dscp = p.dscp, c.pcp = p.pcp, c.ecn = p.ecn, c.ttl = p.ttl;
  c.vlan = p.vlan_id, c.len = hop::capped_len(p.frame_len);
  c.psn = p.psn, c.resend = is_retransmission(v.seq), c.original_request = v.role == Role::request && !c.resend;
  if (auto h = hops_.on_packet(id, v.flow, flows_[v.flow].paired, c)) {
    if (hop::ecn_sample(*h)) {
      const hop::EcnPlace place{h->prev_point, p.point, v.pfc.priority};
      h->ecn_unmarked = ecn_.add(place, h->queue_ns, h->ce_set);
      h->ecn_unmarked_first = h->ecn_unmarked && ecn_noted_.insert(place).second;
    }
    if (v.role == Role::cnp) {
      h->cnp_wait_ns = cnp_queueing_.queued_like_data(p.ts_ns, *h, p.point);
      h->cnp_queued_first = h->cnp_wait_ns && cnp_queued_noted_.insert({h->prev_point, p.point}).second;
    } else if (v.role == Role::request || v.role == Role::response) {
      cnp_queueing_.data(p.ts_ns, *h, p.point);
    }
    weigh_against_besteffort(p, v, *h);
    hop_ = *h;
    v.has_hop = has_hop_ = true;
  }
}

// A packet held by a pause waited for PFC, one overtaken took a longer way:
// neither waited behind best-effort in the hop's queue.
void Analyzer::weigh_against_besteffort(const PacketInfo& p, const Verdict& v, hop::HopVerdict& h) {
  const bool judge = !h.overtaken && !v.pfc.held && h.queue_ns >= cfg_.microburst_ns;
  const hop::Starvation s = besteffort_.roce(h.prev_point, p.point, p.ts_ns, p.frame_len, h.queue_ns, judge,
                                             cfg_.gbps(p.point));
  if (!s.be_share_pct) return;
  h.be_share_pct = s.be_share_pct, h.be_fill_pct = s.fill_pct, h.be_wait_ns = s.be_wait_ns;
  h.be_starved_first = s.enough;
}

void Analyzer::process(const CrossPacket& c) {
  CrossPacket copy;
  analyse(timer_.timed(c, copy));
}

void Analyzer::analyse(const CrossPacket& c) {
  // Only at points RoCE was seen at, once there are two of them.
  if (!hops_.active() || !timer_.admitted(c.point)) return;
  besteffort_.cross(c, static_cast<int64_t>(c.ts_ns) - hops_.clocks().offset(c.point));
}

// Judged from what came before, so one pass knows it (kCnpDeadlineNs). A
// CNP from the receiver matched to no QP (no CM seen) could be the answer,
// so such a receiver is not judged.
void Analyzer::watch_notification_point(const PacketInfo& p, Verdict& v) {
  if (v.seq == SeqClass::duplicate) return;  // a mirror copy says nothing new
  if (v.role == Role::cnp) {
    if (v.row_flow != v.flow) flows_[v.row_flow].cnp_seen = true;
    else cnp_unmatched_senders_.insert(p.src);
    return;
  }
  Flow& f = flows_[v.row_flow];
  if (v.role == Role::request) {
    if (p.ecn == 3 && !f.ce_seen) f.ce_seen = true, f.first_ce_ns = p.ts_ns, f.first_ce_psn = p.psn;
    return;
  }
  if (v.row_flow == v.flow || !f.ce_seen || f.cnp_seen || f.cnp_missing_noted) return;
  // Proof the receiver got the CE packet: an ACK at or past its PSN, a NAK past it.
  const bool nak = v.nak != NakCode::none;
  const int32_t past = psn::diff(p.psn, f.first_ce_psn);
  if (past < 0 || (nak && past == 0)) return;
  if (p.ts_ns < f.first_ce_ns + kCnpDeadlineNs || cnp_unmatched_senders_.contains(p.src)) return;
  v.cnp_missing = f.cnp_missing_noted = true;
}

void Analyzer::check_one_place(const PacketInfo& p, Verdict& v) {
  FlowPoint& fp = flow_point(v.flow, p.point);
  // One change is a route change; a second, back again, is two places.
  if (fp.ttl && p.ttl != fp.ttl && fp.ttl_flips < 2) ++fp.ttl_flips;
  fp.ttl = p.ttl;
  if (fp.ttl_flips == 2 && !fp.merged_noted) v.merged_points = fp.merged_noted = true;
}

uint8_t Analyzer::priority_of(const PacketInfo& p) const {
  return p.pcp >= 0 ? static_cast<uint8_t>(p.pcp) : cfg_.policy.dscp_priority[p.dscp & 0x3F];
}

void Analyzer::sight_for_pfc(const PacketInfo& p, Verdict& v) {
  pfc::RoceSighting r;
  r.point = p.point;
  r.ts_ns = p.ts_ns;
  r.src = p.src_mac;
  r.dst = p.dst_mac;
  r.priority = priority_of(p);
  r.frame_len = p.frame_len;
  r.flow = v.row_flow;
  r.data = v.role != Role::cnp;
  r.congestion = p.ecn == 3 || v.role == Role::cnp;
  r.loss_evidence = is_loss_sign(v);
  v.pfc = pfc_.on_roce(r);
}

void Analyzer::assign_stream(uint32_t id, const PacketInfo& p, Verdict& v) {
  Flow& f = flows_[id];
  if (f.paired == kNoId) {
    if (v.role == Role::request) flows_.pair_by_request(id, p.psn);
    else v.pair_ambiguous = !flows_.pair_by_response(id, v.role == Role::response, p.psn, pair_fits_);
  }
  if (flows_[id].stream != kNoId) return;
  const uint32_t mate = flows_[id].paired;
  flows_[id].stream = mate != kNoId && flows_[mate].stream != kNoId ? flows_[mate].stream : flows_.new_stream();
}

// Which flow's requests it answered is unknown: the waiting requests it
// could cover, in every flow it fits, give no RTT sample, now or later
// (a later response must not credit them with a round trip too long).
void Analyzer::drop_ambiguous_answer(const PacketInfo& p, bool covers_itself) {
  std::vector<uint64_t> dropped;
  for (uint32_t c : pair_fits_)
    if (auto it = flow_point_index_.find(uint64_t{c} << 32 | p.point); it != flow_point_index_.end())
      flow_points_[it->second].pending.on_response(p.psn, covers_itself, p.ts_ns, dropped);
}

void Analyzer::learn_pmtu(uint32_t id, const PacketInfo& p) {
  // FIRST and MIDDLE segments are exactly one path MTU long: a longer one
  // than the CM REQ said proves the path MTU, and is what the QP uses.
  if (!classify_opcode(p.opcode).is_middle_or_first || p.payload_len == 0) return;
  const auto learn = [&](Flow& f) {
    if (p.payload_len <= f.naks.pmtu) return;
    f.naks.pmtu = p.payload_len;
    f.pmtu_cm_frame = kNoFrame;
  };
  Flow& f = flows_[id];
  learn(f);
  if (f.paired != kNoId) learn(flows_[f.paired]);
}

void Analyzer::on_cm(const PacketInfo& p, Verdict& v) {
  const CmMessage& m = p.cm;
  if (m.kind == CmMessage::Kind::req) {
    if (cm_requests_.size() >= kMaxCmRequests) cm_requests_.clear();
    cm_requests_.try_emplace({p.src, p.dst, m.local_comm_id},
                             CmRequest{m.local_qpn, m.start_psn, m.path_mtu, p.frame, false});
    return;
  }
  if (m.kind != CmMessage::Kind::rep) return;
  auto it = cm_requests_.find({p.dst, p.src, m.remote_comm_id});
  if (it == cm_requests_.end() || it->second.answered) return;  // the same REP at a later point
  it->second.answered = true;
  // Active side A sent the REQ; passive side B answers with its own QPN.
  const uint32_t a_to_b = flows_.find_or_add({p.dst, p.src, m.local_qpn}, cfg_.max_flows);
  const uint32_t b_to_a = flows_.find_or_add({p.src, p.dst, it->second.qpn}, cfg_.max_flows);
  if (a_to_b == kNoId || b_to_a == kNoId) return;
  flows_.pair(a_to_b, b_to_a);
  const uint32_t stream = flows_.new_stream();
  for (auto [flow, start] : {std::pair{a_to_b, it->second.start_psn}, std::pair{b_to_a, m.start_psn}}) {
    Flow& f = flows_[flow];
    v.qp_reuse = v.qp_reuse || f.requests_seen || f.responses_seen;
    f.stream = stream;
    f.naks = {};
    // The REQ's path MTU is the connection's, both ways (the REP has none).
    f.naks.pmtu = it->second.path_mtu;
    f.pmtu_cm_frame = it->second.path_mtu ? it->second.frame : kNoFrame;
    f.requests_seen = f.responses_seen = f.psn_responses_seen = false;
    f.cm_start_psn = start;
    for (uint32_t i : f.points) {
      FlowPoint& fp = flow_points_[i];
      fp = fresh_flow_point(fp.point);
      fp.requests.restart(start);
    }
  }
}

void Analyzer::on_request(const PacketInfo& p, Verdict& v) {
  Flow& f = flows_[v.flow];
  if (!f.requests_seen) {
    f.requests_seen = true;
    f.first_psn = f.highest_psn = p.psn;
  } else if (psn::after(p.psn, f.highest_psn)) {
    f.highest_psn = p.psn;
  }
  FlowPoint& fp = flow_point(v.flow, p.point);
  // Looked up only for a packet that may be a late original: most are not.
  const uint64_t elsewhere = fp.requests.may_be_late_original(p.psn) ? hops_.passed_elsewhere_once(identity(p), p.point) : 0;
  const PointView here{fp.responses_seen, mirrored_points_.contains(p.point), fp.min_rtt_ns, elsewhere};
  const SeqResult r = fp.requests.classify(p, f.naks, here, cfg_);
  if (r.mirror_proven) mirrored_points_.insert(p.point);
  if (r.learned != RecoveryMode::unknown) f.naks.mode = r.learned;
  if (is_retransmission(r.seq)) f.last_resend_ts = std::max(f.last_resend_ts, p.ts_ns), hops_.resent(v.flow, p.psn);
  if (r.seq == SeqClass::out_of_order && r.reorder_nak && r.nak_frame == f.naks.seq_nak.frame) take_back_nak(v.flow, p.frame);
  v.seq = r.seq;
  v.ambiguous = r.ambiguous;
  v.reorder_nak = r.reorder_nak;
  v.run_start = r.run_start;
  v.has_expected = r.has_expected;
  v.expected_psn = r.expected_psn;
  v.gap = r.gap;
  v.original_frame = r.original_frame;
  v.nak_frame = r.nak_frame;
  v.quiet_ns = r.quiet_ns;
  v.qp_reuse = v.qp_reuse || r.qp_reuse;
  if (r.qp_reuse) fp.pending.clear(), hops_.forget_suspects(v.flow);
  if (r.seq == SeqClass::duplicate) return;
  const OpcodeInfo op = classify_opcode(p.opcode);
  // READ and ATOMIC requests are always answered, AckReq or not.
  const bool answered = p.ack_req || op.is_read_request || op.is_atomic_request;
  if (is_retransmission(r.seq)) fp.pending.on_request(p.psn, p.ts_ns, p.frame, true);
  // A late original is not what a response names: the PSNs that overtook it
  // went first, and the queue keeps PSN order.
  else if (answered && r.seq != SeqClass::out_of_order) fp.pending.on_request(p.psn, p.ts_ns, p.frame, false);
  if (is_retransmission(r.seq) && f.paired != kNoId) ++flow_point(f.paired, p.point).resends_to_answer;
}

void Analyzer::on_response(const PacketInfo& p, Verdict& v) {
  Flow& self = flows_[v.flow];
  self.last_response_psn = p.psn;
  self.psn_responses_seen = true;
  FlowPoint& here = flow_point(v.flow, p.point);
  const Syndrome s = p.has_aeth ? decode_syndrome(p.syndrome) : Syndrome{AckKind::ack, NakCode::none, 0};
  v.nak = s.nak;
  const bool plain_ack = p.has_aeth && s.kind == AckKind::ack && !classify_opcode(p.opcode).is_read_response;

  const auto entry = RecentPackets::Entry::of(p);
  // The same response again is a mirror copy, unless a request resent
  // since could have drawn it again (a re-issued READ is answered byte for
  // byte, a repeated request gets its ACK again), or a resend that passed
  // here before it is still unanswered (two resends, two identical ACKs);
  // a NAK is sent once. A copy taken after a router is a mirror copy in any
  // case.
  const auto drawn_again = [&](const RecentPackets::Entry& prev) {
    if (s.kind == AckKind::nak || self.paired == kNoId) return false;
    return flows_[self.paired].last_resend_ts >= prev.ts_ns ||
           (here.resends_to_answer > 0 && !mirrored_points_.contains(p.point));
  };
  if (const auto* prev = here.recent_responses.find_same(entry);
      prev && p.ts_ns - std::min(p.ts_ns, prev->ts_ns) <= cfg_.duplicate_window_ns &&
      (entry.rewritten_from(*prev) || !drawn_again(*prev))) {
    v.seq = SeqClass::duplicate;  // the same response recorded twice
    v.original_frame = prev->frame;
    v.pair_ambiguous = false;     // a mirror copy says nothing new
    return;
  }
  const bool covers_itself = !(s.kind == AckKind::nak && s.nak == NakCode::psn_sequence_error);
  here.recent_responses.push(entry);
  if (here.resends_to_answer > 0) --here.resends_to_answer;
  check_read_responses(here, p, v);
  if (plain_ack) {
    // Against the highest ACK: the ATOMIC ACK a duplicate ATOMIC draws
    // again carries its own, older PSN and acknowledges nothing new.
    v.duplicate_ack = here.has_ack && !psn::after(p.psn, here.ack_psn);
    if (!v.duplicate_ack) here.ack_psn = p.psn;
    here.has_ack = true;
  }

  if (self.paired == kNoId) {
    if (v.pair_ambiguous) drop_ambiguous_answer(p, covers_itself);
    return;
  }
  Flow& req = flows_[self.paired];
  FlowPoint& fp = flow_point(self.paired, p.point);
  fp.responses_seen = true;
  if (plain_ack) hops_.acknowledged(self.paired, p.psn, p.frame, p.point);
  if (s.kind == AckKind::nak || s.kind == AckKind::rnr_nak) {
    NakEvent e{true, p.psn, p.ts_ns, p.frame, 0};
    if (s.kind == AckKind::rnr_nak) {
      e.rnr_wait_ns = rnr_timer_us(s.value) * 1000u;
      req.naks.rnr_nak = e;
    } else if (s.nak == NakCode::psn_sequence_error) {
      // Caused by reordering: its PSN arrived here out of order; or it follows
      // such a NAK before any resend, for a PSN that passed here: the
      // receiver discarded it while it waited for the late one.
      const NakEvent& before = req.naks.seq_nak;
      // Or it is a reordering NAK again, at another point: the same
      // transmission, whatever resends passed here before it did.
      e.reorder = fp.requests.arrived_out_of_order(p.psn) ||
                  (before.valid && before.reorder && req.last_resend_ts < before.ts_ns && fp.requests.seen(p.psn)) ||
                  (req.reorder_nak_for(p.psn) && hops_.passed_elsewhere_once(identity(p), p.point));
      if (e.reorder) req.note_reorder_nak(p.psn);
      v.reorder_nak = e.reorder;
      // Another copy of the same NAK, at another point, or a new NAK.
      const bool copy = before.valid && !before.reorder && before.psn == e.psn;
      if (e.reorder || !copy) req.nak_copy_count = 0;
      if (!e.reorder && req.nak_copy_count < req.nak_copies.size())
        req.nak_copies[req.nak_copy_count++] = {p.frame, p.point, v.stream, priority_of(p), p.ts_ns};
      if (!before.valid || before.psn != e.psn) req.naks.prev_seq_nak = before;  // a copy shifts nothing
      req.naks.seq_nak = e;
    }
    req.naks.any_nak = true;
    req.naks.last_nak_ts = p.ts_ns;
  } else {
    req.naks.any_answer = true;
    req.naks.last_answer_ts = p.ts_ns;
    req.naks.last_answer_psn = p.psn;
  }
  const Covered c = fp.pending.on_response(p.psn, covers_itself, p.ts_ns, rtt_samples_);
  v.covered = c.count;
  v.request_frame = c.newest_frame;
  v.rtt_ns = c.newest_rtt_ns;
  for (uint64_t rtt : rtt_samples_)
    if (!fp.min_rtt_ns || rtt < fp.min_rtt_ns) fp.min_rtt_ns = rtt;
}

// The NAK asked for a packet that was only late: it and its copies at other
// points are no loss sign. One pass decided them already, so the front end
// takes them back from the event.
void Analyzer::take_back_nak(uint32_t flow, uint32_t late_frame) {
  Flow& f = flows_[flow];
  f.naks.seq_nak.reorder = true;
  f.note_reorder_nak(f.naks.seq_nak.psn);
  for (uint8_t i = 0; i < f.nak_copy_count; ++i) {
    const Flow::NakCopy& c = f.nak_copies[i];
    if (events_) events_->nak_reordered({c.frame, late_frame, flow, c.point, c.stream, c.priority, c.ts_ns});
    for (uint32_t fp : f.points) flow_points_[fp].requests.nak_taken_back(c.frame);
  }
  f.nak_copy_count = 0;
}

// READ responses of one READ take consecutive PSNs from FIRST to LAST: a
// jump is responses lost on the way to this point.
void Analyzer::check_read_responses(FlowPoint& here, const PacketInfo& p, Verdict& v) {
  const OpcodeInfo op = classify_opcode(p.opcode);
  if (!op.is_read_response || op.transport != Transport::rc) return;
  if (!op.starts_message && here.in_read && psn::after(p.psn, here.read_next)) {
    v.seq = SeqClass::gap;
    v.gap = static_cast<uint32_t>(psn::diff(p.psn, here.read_next));
  }
  here.in_read = !op.ends_message;
  here.read_next = psn::add(p.psn, 1);
}

}  // namespace roceshark
