// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/simulation.h"

#include <algorithm>
#include <cmath>
#include <string>

#include "captures/gen/aeth.h"
#include "captures/gen/byte_writer.h"
#include "captures/gen/cm_mad.h"
#include "captures/gen/erspan_frame.h"
#include "captures/gen/icmp_frame.h"
#include "captures/gen/lldp_frame.h"
#include "captures/gen/opcodes.h"
#include "captures/gen/pfc_frame.h"
#include "captures/gen/rnr_timer.h"
#include "captures/gen/psn.h"

namespace roceshark::gen {
namespace {

// Preamble, start delimiter, FCS and the inter-frame gap: link time a
// frame takes beyond its captured bytes.
constexpr size_t kWireOverhead = 8 + 4 + 12;
constexpr uint8_t kEcnCe = 3;

std::string lines_text(const std::vector<int>& lines) {
  std::string s;
  for (int l : lines) s += (s.empty() ? "" : ", ") + std::to_string(l);
  return s;
}

}  // namespace

Simulation::Simulation(const Scenario& sc)
    : sc_(sc), factory_(sc), faults_(sc), jitter_(hash_combine(sc.seed, 0x317)) {
  rate_mbps_ = rate_mbps(sc.timing.link_gbps);
  ports_.resize(sc.hosts.size());
  fifo_.resize(sc.paths.size());
  for (size_t p = 0; p < sc.paths.size(); ++p) fifo_[p].assign(sc.paths[p].latency.size(), {0, 0});

  // Both directions of every tapped link; paths through a point share its
  // link (the parser checks), so they share the egress, as they share the wire.
  route_egress_.resize(sc.paths.size());
  link_macs_.resize(sc.paths.size());
  for (size_t p = 0; p < sc.paths.size(); ++p) {
    const Path& path = sc.paths[p];
    for (size_t i = 0; i < path.points.size(); ++i) {
      route_egress_[p].push_back(
          {egress_index(path.points[i], path.before(i)), egress_index(path.points[i], path.after(i))});
      link_macs_[p].push_back({sc.node_mac(path.before(i)), sc.node_mac(path.after(i))});
    }
  }
  queues_at_.resize(sc.points.size());
  queue_used_.assign(sc.queues.size(), false);
  for (size_t i = 0; i < sc.queues.size(); ++i) queues_at_[sc.queues[i].point].push_back(i);
  besteffort_at_.resize(sc.points.size());
  for (size_t i = 0; i < sc.besteffort.size(); ++i) {
    const BestEffort& d = sc.besteffort[i];
    const Route r{&sc.paths[d.path], d.forward};
    const Ns spacing = serialization(d.frame_size(), rate_mbps(d.gbps));
    const uint64_t count = static_cast<uint64_t>((d.length + spacing - 1) / spacing);
    const Ns first = d.at + r.latency(d.hop);  // at the queue
    const Ns last = first + static_cast<Ns>(count - 1) * spacing;
    be_queues_.emplace_back(d, sc.gbps_of(d.point), first, last,
                            serialization_exact(d.frame_size(), rate_mbps(sc.gbps_of(d.point))));
    be_spacing_.push_back(spacing);
    be_count_.push_back(count);
    FrameInfo info;
    info.kind = FrameKind::besteffort;
    info.src_host = d.dir[0];
    info.dst_host = d.dir[1];
    be_info_.push_back(info);
    besteffort_at_[d.point].push_back(i);
  }
  erspan_seq_.assign(sc.points.size(), 0);
  rewrites_at_.resize(sc.points.size());
  rewrite_used_.assign(sc.rewrites.size(), false);
  mtu_used_.assign(sc.mtus.size(), false);
  for (size_t i = 0; i < sc.rewrites.size(); ++i) rewrites_at_[sc.rewrites[i].point].push_back(i);
  for (const PfcDirective& d : sc.pfcs) {
    const uint32_t e = egress_index(d.point, d.from.node);
    pfc_egress_.push_back(e);
    if (d.effective()) egress_[e].pfc = true;
    pfc_bytes_.push_back(
        build_pfc({d.from.mac, d.dst.value_or(kPfcDestination), d.enable, d.reserved, d.quanta, d.truncate}));
    FrameInfo info;
    info.kind = FrameKind::pfc;
    info.pfc = &d;
    pfc_info_.push_back(info);
  }
  for (const LldpDirective& d : sc.lldps) {
    LldpFields f;
    f.src = d.from.mac;
    f.port = d.port;
    f.ttl = d.ttl;
    f.pfc_enable = d.pfc_enable;
    f.willing = d.willing;
    f.mbc = d.mbc;
    f.pfc_cap = d.pfc_cap;
    for (const AppEntry& a : d.app) f.app.push_back({a.priority, kAppSelectorDscp, a.dscp});
    f.max_frame = d.max_frame;
    if (d.ets) {
      LldpFields::Ets e{d.ets_tc, d.ets_bw, {}};
      for (size_t c = 0; c < 8; ++c) e.tsa[c] = d.ets_strict >> c & 1 ? 0 : 2;
      f.ets = e;
    }
    lldp_bytes_.push_back(build_lldp(f));
    FrameInfo info;
    info.kind = FrameKind::lldp;
    info.lldp = &d;
    lldp_info_.push_back(info);
  }

  std::vector<std::array<RequesterConfig, 2>> rcfg(sc.qps.size());
  qps_.resize(sc.qps.size());
  for (size_t i = 0; i < sc.qps.size(); ++i) {
    const Qp& q = sc.qps[i];
    for (int s = 0; s < 2; ++s) {
      RequesterConfig c;
      c.start_psn = q.side[s].start_psn;
      c.mtu = q.mtu;
      c.window = q.window;
      c.ackreq_every = q.ackreq_every;
      c.timeout = sc.timing.timeout;
      c.retry_cnt = q.retry_cnt;
      c.nak_turnaround = sc.timing.nak_turnaround;
      c.selective = q.selective[s];
      qps_[i].req.emplace_back(c);
      qps_[i].resp.emplace_back(q.side[1 - s].start_psn, sc.timing.ack_coalesce);
      if (q.ooo[s]) qps_[i].resp.back().place_out_of_order(q.ooo_nak);
      ports_[q.side[s].host].flows.push_back({i, s, false});
      ports_[q.side[s].host].flows.push_back({i, s, true});
    }
  }
  for (size_t m = 0; m < sc.messages.size(); ++m) {
    const Message& msg = sc.messages[m];
    qps_[msg.qp].req[msg.side].add_work({m, msg.type, msg.length, msg.imm, msg.at, msg.repeat, msg.every, msg.atomic});
  }
  for (const ForcedReply& r : sc.replies) {
    const Message& msg = sc.messages[r.message];
    qps_[msg.qp].resp[1 - msg.side].force(r);
  }
}

void Simulation::push(EventKind k, Ns t, uint32_t a, uint32_t b, PacketPtr p) {
  Event e;
  e.t = t;
  e.kind = k;
  e.a = a;
  e.b = b;
  e.pkt = std::move(p);
  events_.push(std::move(e));
}

void Simulation::run(FrameSink& sink) {
  sink_ = &sink;
  for (size_t i = 0; i < sc_.qps.size(); ++i)
    if (!sc_.qps[i].after) push(EventKind::activate, sc_.qps[i].start, static_cast<uint32_t>(i));
  for (size_t d = 0; d < sc_.pfcs.size(); ++d)
    push(EventKind::pfc_frame, sc_.pfcs[d].when.at, static_cast<uint32_t>(d));
  for (size_t d = 0; d < sc_.lldps.size(); ++d)
    push(EventKind::lldp_frame, sc_.lldps[d].when.at, static_cast<uint32_t>(d));
  for (size_t d = 0; d < sc_.besteffort.size(); ++d)
    push(EventKind::besteffort_frame, sc_.besteffort[d].at, static_cast<uint32_t>(d));
  while (!events_.empty()) {
    Event e = events_.pop();
    if (e.t > sc_.timing.max_time) {
      // Only stale timers may outlive the traffic; anything else is a run that never settles.
      if (std::all_of(qps_.begin(), qps_.end(), [](const QpState& q) { return q.done; })) break;
      throw SimulationError(sc_.file + ": still busy at max_time " + std::to_string(sc_.timing.max_time) +
                            " ns; raise max_time or fix the scenario");
    }
    now_ = e.t;
    ++stats_.events;
    handle(e);
  }
  std::vector<int> unused = faults_.unused();
  for (size_t i = 0; i < rewrite_used_.size(); ++i)
    if (!rewrite_used_[i]) unused.push_back(sc_.rewrites[i].line);
  for (size_t i = 0; i < mtu_used_.size(); ++i)
    if (!mtu_used_[i]) unused.push_back(sc_.mtus[i].line);
  for (size_t i = 0; i < queue_used_.size(); ++i)
    if (!queue_used_[i]) unused.push_back(sc_.queues[i].line);
  // A best-effort flow that no RoCE frame met at its queue while it ran
  // shows nothing of what it is there for, whatever it sent.
  for (size_t i = 0; i < be_queues_.size(); ++i)
    if (!be_queues_[i].met_roce()) unused.push_back(sc_.besteffort[i].line);
  for (int line : factory_.unused_markings()) unused.push_back(line);
  std::sort(unused.begin(), unused.end());
  if (!unused.empty())
    throw SimulationError(sc_.file + ": directive(s) on line " + lines_text(unused) + " never matched a packet");
  for (size_t i = 0; i < qps_.size(); ++i)
    for (int side = 0; side < 2; ++side)
      if (sc_.qps[i].np_off[side] && !qps_[i].np_silent[side])
        throw SimulationError(sc_.file + ": np=off on line " + std::to_string(sc_.qps[i].line) + ": " +
                              sc_.hosts[sc_.qps[i].side[side].host].name + " never received a CE mark on qp '" +
                              sc_.qps[i].name + "'");
  for (const QpState& st : qps_)
    for (const Responder& r : st.resp)
      if (auto lines = r.unused_forced(); !lines.empty())
        throw SimulationError(sc_.file + ": forced reply on line " + lines_text(lines) +
                              " never met its message (was the QP already in error?)");
}

void Simulation::handle(Event& e) {
  const size_t qp = e.a;
  const int side = static_cast<int>(e.b);
  switch (e.kind) {
    case EventKind::host_tx: host_tx(e.a, e.t); break;
    case EventKind::host_kick: kick(e.a); break;
    case EventKind::arrive: arrive(e.pkt); break;
    case EventKind::icmp_frame: {
      Frame f;
      f.point = e.copy->point;
      f.info = &e.copy->info;
      emit(f, e.copy->bytes);
      break;
    }
    case EventKind::mirror_copy: {
      const MirrorCopy& c = *e.copy;
      Frame f;
      f.point = c.point;
      f.info = &c.info;
      f.mirror = true;
      f.ce = c.ce;
      f.icrc_bad = c.icrc_bad;
      f.lost_before = c.lost_before;
      f.paused = c.paused;
      f.pause_id = c.pause_id;
      f.packet_id = c.packet_id;
      f.lost_after = c.lost_after;
      f.queued = c.queued;
      emit(f, c.bytes);
      break;
    }
    case EventKind::req_timer: {
      QpState& st = qps_[qp];
      if (st.timer_at[side] == now_) st.timer_at[side].reset();
      st.req[side].on_timer(now_);
      sync_requester(qp, side);
      check_done(qp);
      break;
    }
    case EventKind::req_wake: {
      QpState& st = qps_[qp];
      if (st.wake_at[side] == now_) st.wake_at[side].reset();
      sync_requester(qp, side);
      break;
    }
    case EventKind::resp_flush: {
      QpState& st = qps_[qp];
      if (st.flush_at[side] == now_) st.flush_at[side].reset();
      if (st.nak_at[side] == now_) st.nak_at[side].reset();
      if (st.resp[side].flush_deadline() == now_)
        if (auto r = st.resp[side].on_flush(now_)) push_response(qp, side, *r);
      if (auto r = st.resp[side].on_nak_timer(now_)) push_response(qp, side, *r);
      sync_flush(qp, side);
      check_done(qp);
      break;
    }
    case EventKind::activate: activate(qp); break;
    case EventKind::activate_side: activate_side(qp, side); break;
    case EventKind::point_tx: leave_point(e.pkt); break;
    case EventKind::egress_release: release(e.a, static_cast<uint8_t>(e.b)); break;
    case EventKind::pause_end: pause_end(e.a, static_cast<uint8_t>(e.b)); break;
    case EventKind::queue_exit: enter_egress(e.a, e.pkt); break;
    case EventKind::pfc_frame: send_pfc(e.a, e.b); break;
    case EventKind::lldp_frame: send_lldp(e.a, e.b); break;
    case EventKind::besteffort_frame: send_besteffort(e.a, e.b); break;
    case EventKind::besteffort_arrive: besteffort_arrive(e.a, e.pkt); break;
    case EventKind::besteffort_leave: record(e.pkt->route.point(e.pkt->hop), *e.pkt); break;
  }
}

// ---- hosts and links ------------------------------------------------------

void Simulation::kick(size_t host) {
  Port& p = ports_[host];
  if (p.tx_event) return;  // it will look at everything that is ready then
  p.tx_event = std::max(now_, p.busy_until);
  push(EventKind::host_tx, *p.tx_event, static_cast<uint32_t>(host));
}

void Simulation::kick_at(size_t host, Ns t) {
  if (t <= now_) kick(host);
  else push(EventKind::host_kick, t, static_cast<uint32_t>(host));
}

void Simulation::host_tx(size_t host, Ns t) {
  Port& port = ports_[host];
  if (port.tx_event != t) return;  // superseded
  if (now_ < port.busy_until) {
    port.tx_event.reset();
    return kick(host);
  }
  // tx_event stays set while picking, so flows that kick meanwhile add no event.
  if (PacketPtr p = pick(host)) transmit(host, std::move(p));
  else port.tx_event.reset();
}

PacketPtr Simulation::pick(size_t host) {
  Port& port = ports_[host];
  for (auto it = port.control.begin(); it != port.control.end(); ++it)
    if (it->ready <= now_) {
      PacketPtr p = std::move(it->pkt);
      port.control.erase(it);
      return p;
    }
  const size_t n = port.flows.size();
  for (size_t i = 0; i < n; ++i) {
    const FlowRef f = port.flows[(port.rr + i) % n];
    if (!flow_ready(f)) continue;
    port.rr = (port.rr + i + 1) % n;
    return flow_take(f);
  }
  return nullptr;
}

bool Simulation::flow_ready(const FlowRef& f) const {
  const QpState& st = qps_[f.qp];
  if (f.responses) return !st.responses[f.side].empty() && st.responses[f.side].front().ready <= now_;
  return st.req[f.side].ready(now_);
}

PacketPtr Simulation::flow_take(const FlowRef& f) {
  QpState& st = qps_[f.qp];
  if (!f.responses) {
    RequestPacket r = st.req[f.side].take(now_);
    PacketPtr p = factory_.request(f.qp, f.side, r, now_);
    p->msg_length = r.length - std::min<uint64_t>(r.length, uint64_t{r.read_skip} * sc_.qps[f.qp].mtu);
    sync_requester(f.qp, f.side);
    return p;
  }
  auto& queue = st.responses[f.side];
  ResponseItem& item = queue.front();
  PacketPtr p;
  if (item.reply.kind != Reply::Kind::read_response) {
    p = factory_.reply(f.qp, f.side, item.reply, now_);
    queue.pop_front();
  } else {
    p = factory_.read_response(f.qp, f.side, item.reply, item.next, now_);
    if (++item.next == item.reply.read_span) queue.pop_front();
  }
  if (!queue.empty()) kick_at(host_of(f.qp, f.side), queue.front().ready);
  check_done(f.qp);
  return p;
}

Ns Simulation::serialization(size_t bytes, int64_t mbps) {
  const int64_t bits = static_cast<int64_t>(bytes + kWireOverhead) * 8;
  return (bits * 1000 + mbps - 1) / mbps;
}

double Simulation::serialization_exact(size_t bytes, int64_t mbps) {
  return static_cast<double>((bytes + kWireOverhead) * 8) * 1000.0 / static_cast<double>(mbps);
}

void Simulation::transmit(size_t host, PacketPtr p) {
  const FrameInfo& in = p->info;
  std::optional<Traffic> traffic;
  if (in.kind == FrameKind::req) traffic = Traffic::req;
  else if (in.kind == FrameKind::ack || in.kind == FrameKind::nak) traffic = Traffic::ack;
  else if (in.kind == FrameKind::readresp) traffic = Traffic::readresp;
  if (traffic) {
    const uint32_t start = sc_.qps[in.qp].side[in.req_side].start_psn;
    p->fates = faults_.decide(in.qp, in.req_side, *traffic, (in.psn - start) & psn::kMask);
  }
  if (is_roce(in.kind)) drop_over_mtu(*p);
  p->id = ++next_packet_id_;
  Port& port = ports_[host];
  const Ns done = now_ + serialization(p->frame.bytes.size());
  port.busy_until = done;
  ++stats_.sent;
  port.tx_event = done;
  push(EventKind::host_tx, done, static_cast<uint32_t>(host));
  depart(p, done, 0);
}

// `mtu`: lost on the segment into the point (or the one the switch is
// on), the first such on its way.
void Simulation::drop_over_mtu(InFlight& p) {
  const uint32_t ip_len = p.frame.at.l3_end - p.frame.at.l3;
  const Route& r = p.route;
  for (size_t i = 0; i < sc_.mtus.size(); ++i) {
    const Mtu& m = sc_.mtus[i];
    if (ip_len <= m.bytes || (m.dir && ((*m.dir)[0] != p.info.src_host || (*m.dir)[1] != p.info.dst_host))) continue;
    for (size_t hop = 0; hop <= r.points(); ++hop) {
      const auto& sws = r.path->switches[r.forward ? hop : r.points() - hop];
      const bool here = m.sw ? std::find(sws.begin(), sws.end(), *m.sw) != sws.end()
                             : hop < r.points() && r.point(hop) == m.point;
      if (!here) continue;
      mtu_used_[i] = true;
      if (hop < p.fates.drop_segment.value_or(SIZE_MAX)) p.fates.drop_segment = hop, p.mtu_drop = i;
    }
  }
}

void Simulation::send_icmp(const InFlight& p, Ns t, size_t segment) {
  const Mtu& m = sc_.mtus[*p.mtu_drop];
  const bool v6 = p.transport == Transport::v2_ipv6;
  if (p.transport == Transport::v1 || !(v6 ? m.icmp6.has_value() : m.icmp4.has_value())) return;  // RoCEv1 is bridged
  const Route& r = p.route;
  std::vector<size_t> sws = r.path->switches[r.forward ? segment : r.points() - segment];
  if (!r.forward) std::reverse(sws.begin(), sws.end());  // in travel order
  // The router: the named switch, or the one whose port feeds the point.
  if (sws.empty())
    throw SimulationError(sc_.file + ": mtu on line " + std::to_string(m.line) +
                          ": icmp needs a switch before the point to send it");
  const size_t pos = m.sw ? static_cast<size_t>(std::find(sws.begin(), sws.end(), *m.sw) - sws.begin()) : sws.size() - 1;
  const Switch& router = sc_.switches[sws[pos]];
  // The quote: the packet as the router received it.
  std::vector<uint8_t> got = p.frame.bytes;
  if (!sc_.bridged)
    for (size_t k = 0; k < pos; ++k) decrement_ttl(got, p.frame.at, p.transport);
  const Host& sender = sc_.hosts[p.info.src_host];
  IcmpFields f;
  f.v6 = v6;
  if (v6) f.router6 = *m.icmp6, f.to6 = *sender.ip6;
  else f.router4 = *m.icmp4, f.to4 = sender.ip4;
  f.mtu = m.bytes;
  f.packet = std::span<const uint8_t>(got).subspan(p.frame.at.l3, p.frame.at.l3_end - p.frame.at.l3);
  FrameInfo info = p.info;
  info.kind = FrameKind::icmp;
  info.cause = Cause::none;
  info.message = kNoMessage;
  info.mtu = &m;
  info.router = router.name;
  // The router answers at once; the way back takes as long as the packet's
  // segment and those before it (as if the router sat at the segment's far end).
  Ns at = t + 2 * r.latency(segment);
  size_t crossed = pos;  // routed hops behind the router on the way back
  for (size_t hop = segment; hop-- > 0;) {
    const size_t point = r.point(hop);
    const auto ends = link_macs(r, hop);  // {src, dst} as the packet went
    f.src = sc_.bridged ? router.mac : ends[1];
    f.dst = sc_.bridged ? sender.mac : ends[0];
    f.ttl = static_cast<uint8_t>(sc_.bridged ? 64 : 64 - crossed);
    const Point& pt = sc_.points[point];
    if (!pt.only_dir || (*pt.only_dir)[1] == p.info.src_host) {
      auto c = std::make_shared<MirrorCopy>();
      c->info = info;
      c->bytes = build_icmp_too_big(f);
      c->point = point;
      Event e;
      e.t = at;
      e.kind = EventKind::icmp_frame;
      e.copy = std::move(c);
      events_.push(std::move(e));
    }
    at += r.latency(hop);
    crossed += r.switches(hop);
  }
}

void Simulation::depart(const PacketPtr& p, Ns t, size_t segment) {
  if (p->fates.drop_segment == segment) {  // lost on this segment
    if (p->mtu_drop) send_icmp(*p, t, segment);
    return;
  }
  Ns arrival = t + p->route.latency(segment) + static_cast<Ns>(jitter_.upto(static_cast<uint64_t>(sc_.timing.jitter)));
  // Links do not reorder: jitter may delay a packet, never pass the one ahead.
  const size_t path = static_cast<size_t>(p->route.path - sc_.paths.data());
  const size_t seg_index = p->route.forward ? segment : p->route.points() - segment;
  Ns& last = fifo_[path][seg_index][p->route.forward ? 1 : 0];
  arrival = std::max(arrival, last);
  if (p->fates.reorder_segment == segment) {
    // Adaptive routing took it a longer way: it arrives later, and what
    // follows it on this segment does not wait for it.
    arrival += p->fates.reorder_delay;
  } else {
    last = arrival;
  }
  p->hop = segment;
  push(EventKind::arrive, arrival, 0, 0, p);
}

void Simulation::arrive(const PacketPtr& pp) {
  InFlight& p = *pp;
  const size_t hop = p.hop;
  if (p.fates.corrupt_segment == hop) {
    if (p.fates.corrupt_byte >= p.frame.at.payload_len)
      throw SimulationError(sc_.file + ": corrupt byte=" + std::to_string(p.fates.corrupt_byte) + " but PSN " +
                            std::to_string(p.info.psn) + " carries " + std::to_string(p.frame.at.payload_len) +
                            " payload bytes");
    p.frame.bytes[p.frame.at.payload + p.fates.corrupt_byte] ^= 0xFF;
    p.corrupt = true;
  }
  if (hop == p.route.points()) return deliver(pp);
  std::span<uint8_t> bytes(p.frame.bytes);
  // Routed hops: each switch on the way here took one off the TTL, and the
  // frame carries the MACs of the link this point taps. RoCEv1 is bridged,
  // and so is everything in a `bridged` fabric.
  if (p.transport != Transport::v1 && !sc_.bridged) {
    for (size_t k = 0; k < p.route.switches(hop); ++k) decrement_ttl(bytes, p.frame.at, p.transport);
    const auto ends = link_macs(p.route, hop);
    set_link_macs(bytes, ends[0], ends[1]);
  }
  // A switch marks only ECN-capable packets; a Not-ECT one (after a `marking`) passes as it is.
  if (p.fates.mark_hop == hop && !p.ce && get_ecn(bytes, p.frame.at, p.transport) != 0) {
    set_ecn(bytes, p.frame.at, p.transport, kEcnCe);
    p.ce = true;
  }
  const size_t point = p.route.point(hop);
  if (!rewrites_at_[point].empty()) apply_rewrites(point, p);
  const uint32_t e = egress_of(p.route, hop);
  Ns wait = queues_at_[point].empty() ? 0 : queue_wait(point, e, p);
  if (!besteffort_at_[point].empty()) wait = besteffort_wait(point, e, p, wait);
  if (wait > 0) {
    p.queued = wait;
    red_mark(point, p);
    return push(EventKind::queue_exit, now_ + wait, e, 0, pp);
  }
  enter_egress(e, pp);
}

void Simulation::enter_egress(uint32_t e, const PacketPtr& pp) {
  if (!egress_[e].paced && !egress_[e].pfc) return leave_point(pp);
  pass_point(e, pp);
}

void Simulation::record(size_t point, const InFlight& p) {
  const Point& pt = sc_.points[point];
  if (pt.only_dir && ((*pt.only_dir)[0] != p.info.src_host || (*pt.only_dir)[1] != p.info.dst_host)) return;
  if (p.fates.miss_hop == p.hop) return;  // the tap missed it; the packet goes on
  std::string_view lost;
  if (p.fates.drop_segment && *p.fates.drop_segment > p.hop) {
    const size_t node = *p.fates.drop_segment;
    lost = node < p.route.points() ? sc_.points[p.route.point(node)].name : sc_.hosts[p.route.receiver()].name;
  }
  Frame f;
  f.point = point;
  f.info = &p.info;
  f.ce = p.ce;
  f.icrc_bad = p.corrupt;
  f.lost_before = lost;
  f.paused = p.held;
  f.pause_id = p.pause_id;
  f.packet_id = p.id;
  // Lost on the next segment, and a later point was to see it (not the receiving host).
  f.lost_after = p.fates.drop_segment == p.hop + 1 && p.hop + 1 < p.route.points();
  f.queued = p.queued;
  emit(f, p.frame.bytes);
  if (pt.mirror_dup) {
    auto c = std::make_shared<MirrorCopy>();
    c->info = p.info;
    c->bytes = p.frame.bytes;
    // A bridging switch forwards the frame unchanged: its other side's copy is byte-identical.
    if (pt.mirror_rewrite && p.transport != Transport::v1 && !sc_.bridged) mirror_other_side(p, c->bytes);
    c->point = point;
    c->ce = p.ce;
    c->icrc_bad = p.corrupt;
    c->lost_before = std::string(lost);
    c->paused = p.held;
    c->pause_id = p.pause_id;
    c->packet_id = p.id;
    c->lost_after = f.lost_after;
    c->queued = p.queued;
    Event e;
    e.t = now_ + *pt.mirror_dup;
    e.kind = EventKind::mirror_copy;
    e.copy = std::move(c);
    events_.push(std::move(e));
  }
}

// `mirror ... rewrite=on`: a SPAN session on the switch at one end of the
// tapped link records both the switch's ingress and its egress. The point
// has one of them; the copy is the other: a frame going into the switch
// is copied as it leaves it (TTL one less, the MACs of its next link), a
// frame coming out of it as it entered (TTL one more, the previous link's).
void Simulation::mirror_other_side(const InFlight& p, std::vector<uint8_t>& bytes) const {
  const Path& path = *p.route.path;
  std::vector<NodeRef> nodes{{NodeRef::Kind::host, path.hosts[0]}};  // the path's nodes in hosts[0] -> hosts[1] order
  for (const auto& seg : path.switches)
    for (size_t w : seg) nodes.push_back({NodeRef::Kind::sw, w});
  nodes.push_back({NodeRef::Kind::host, path.hosts[1]});
  if (!p.route.forward) std::reverse(nodes.begin(), nodes.end());
  const size_t i = p.route.forward ? p.hop : p.route.points() - 1 - p.hop;  // the point's index on the path
  const NodeRef up = p.route.forward ? path.before(i) : path.after(i);
  const NodeRef down = p.route.forward ? path.after(i) : path.before(i);
  std::span<uint8_t> b(bytes);
  if (down.kind == NodeRef::Kind::sw) {
    const size_t at = static_cast<size_t>(std::find(nodes.begin(), nodes.end(), down) - nodes.begin());
    decrement_ttl(b, p.frame.at, p.transport);
    set_link_macs(b, sc_.node_mac(down), sc_.node_mac(nodes[at + 1]));
  } else {
    const size_t at = static_cast<size_t>(std::find(nodes.begin(), nodes.end(), up) - nodes.begin());
    increment_ttl(b, p.frame.at, p.transport);
    set_link_macs(b, sc_.node_mac(nodes[at - 1]), sc_.node_mac(up));
  }
}

void Simulation::emit(Frame& f, std::span<const uint8_t> frame) {
  const Point& pt = sc_.points[f.point];
  if (const auto& s = pt.erspan) {
    ErspanFields e;
    e.type = s->type;
    e.session = s->session;
    e.src_mac = erspan_source_mac(s->session);
    e.dst_mac = kErspanCollectorMac;
    e.src = s->src;
    e.dst = s->dst;
    e.seq = erspan_seq_[f.point]++;
    if (auto pcp = get_pcp(frame)) {
      e.tagged = true;
      e.cos = *pcp;
      e.vlan = static_cast<uint16_t>(get_u16(frame.data() + 14) & 0x0FFF);
    }
    // The mirroring device stamps the copy with its own clock, in 100 ns.
    const Ns device = sc_.epoch_s * 1'000'000'000 + now_ + pt.clock;
    e.timestamp = static_cast<uint32_t>(static_cast<uint64_t>(device / 100));
    build_erspan(e, frame, erspan_bytes_);
    frame = erspan_bytes_;
  }
  const uint32_t len = static_cast<uint32_t>(frame.size());
  f.time = now_;
  f.data = frame.first(std::min(len, sc_.snaplen_of(f.point)));
  f.wire_len = len;
  ++stats_.recorded;
  stats_.end = now_;
  sink_->frame(f);
}

// ---- capture points: rewrites, queueing, pacing, PFC -----------------------

// The wait in the queue bursts at this point and direction: the burst's
// backlog, or longer while the frame before it is still queued (FIFO at the
// point's rate).
Ns Simulation::queue_wait(size_t point, uint32_t ei, const InFlight& p) {
  Ns exit = now_;
  for (size_t i : queues_at_[point]) {
    const QueueBurst& q = sc_.queues[i];
    if (q.dir && ((*q.dir)[0] != p.info.src_host || (*q.dir)[1] != p.info.dst_host)) continue;
    if (q.cnp_strict && p.info.kind == FrameKind::cnp) continue;
    Ns& last = queue_last_[{i, ei}];
    Ns t = now_ + q.backlog(now_);
    if (last > now_) t = std::max(t, last + serialization(p.frame.bytes.size(), egress_[ei].mbps));
    if (t <= now_) continue;
    last = t;
    queue_used_[i] = true;
    exit = std::max(exit, t);
  }
  return exit - now_;
}

// A RoCE frame of a best-effort flow's direction waits in the queue that
// flow shares with it (besteffort.h); a `queue` burst's wait, if any, is
// the least it waits.
Ns Simulation::besteffort_wait(size_t point, uint32_t ei, const InFlight& p, Ns wait) {
  for (size_t i : besteffort_at_[point]) {
    const BestEffort& d = sc_.besteffort[i];
    if (d.dir[0] != p.info.src_host || d.dir[1] != p.info.dst_host) continue;
    wait = be_queues_[i].roce(now_, serialization_exact(p.frame.bytes.size(), egress_[ei].mbps), wait);
  }
  return wait;
}

// ---- best-effort cross traffic --------------------------------------------

void Simulation::route_headers(InFlight& p, std::optional<size_t> from_hop, size_t hop) const {
  if (sc_.bridged) return;  // an L2 fabric: the hosts' MACs and TTL 64 all the way
  std::span<uint8_t> bytes(p.frame.bytes);
  for (size_t seg = from_hop ? *from_hop + 1 : 0; seg <= hop; ++seg)
    for (size_t k = 0; k < p.route.switches(seg); ++k) decrement_ttl(bytes, p.frame.at, p.transport);
  const auto ends = link_macs(p.route, hop);
  set_link_macs(bytes, ends[0], ends[1]);
}

// Packet k of the flow passes the point before the directive's, routed
// there as a RoCE frame of its direction would be, and heads for the queue.
void Simulation::send_besteffort(size_t d, uint64_t k) {
  const BestEffort& b = sc_.besteffort[d];
  const Host &src = sc_.hosts[b.dir[0]], &dst = sc_.hosts[b.dir[1]];
  TcpFrameFields f;
  f.src = src.mac;
  f.dst = dst.mac;
  f.vlan = b.vlan;
  f.pcp = b.pcp.value_or(0);
  f.v6 = b.ipv6;
  f.src4 = src.ip4, f.dst4 = dst.ip4;
  if (b.ipv6) f.src6 = *src.ip6, f.dst6 = *dst.ip6;
  f.dscp = b.dscp;
  f.ip_id = static_cast<uint16_t>(kBestEffortIpId + k);
  f.sport = static_cast<uint16_t>(kBestEffortSport + d);
  f.dport = kBestEffortDport;
  f.seq = static_cast<uint32_t>(kBestEffortSeq + k * tcp_payload_len(b));
  f.ack = kBestEffortAck;
  f.size = b.frame_size();
  auto p = std::make_shared<InFlight>();
  p->info = be_info_[d];
  p->frame = build_tcp_frame(f);
  p->transport = b.ipv6 ? Transport::v2_ipv6 : Transport::v2_ipv4;
  p->route = Route{&sc_.paths[b.path], b.forward};
  p->id = ++next_packet_id_;
  p->hop = b.hop - 1;
  route_headers(*p, std::nullopt, p->hop);
  record(p->route.point(p->hop), *p);
  push(EventKind::besteffort_arrive, now_ + p->route.latency(b.hop), static_cast<uint32_t>(d), 0, p);
  if (k + 1 < be_count_[d])
    push(EventKind::besteffort_frame, b.at + static_cast<Ns>(k + 1) * be_spacing_[d], static_cast<uint32_t>(d),
         static_cast<uint32_t>(k + 1));
}

void Simulation::besteffort_arrive(size_t d, const PacketPtr& pp) {
  InFlight& p = *pp;
  const size_t from = p.hop;
  p.hop = sc_.besteffort[d].hop;
  route_headers(p, from, p.hop);
  const int64_t mbps = rate_mbps(sc_.gbps_of(sc_.besteffort[d].point));
  const size_t len = p.frame.bytes.size();
  const Ns exit = be_queues_[d].besteffort(now_, serialization_exact(len, mbps));
  p.queued = std::max<Ns>(0, exit - now_ - serialization(len, mbps));
  push(EventKind::besteffort_leave, exit, 0, 0, pp);
}

// `ecn_red`: the mark depends on the queueing and on a draw from the seed
// and the transmission, so the same scenario marks the same frames.
void Simulation::red_mark(size_t point, InFlight& p) const {
  const std::optional<EcnRed>& red = sc_.points[point].ecn_red;
  std::span<uint8_t> bytes(p.frame.bytes);
  if (!red || p.ce || p.queued < red->kmin || get_ecn(bytes, p.frame.at, p.transport) == 0) return;
  const double share = p.queued >= red->kmax ? 1
                       : red->pmax * static_cast<double>(p.queued - red->kmin) / static_cast<double>(red->kmax - red->kmin);
  const double draw = static_cast<double>(hash_combine(hash_combine(sc_.seed, p.id), point) >> 11) * 0x1.0p-53;
  if (draw >= share) return;
  set_ecn(bytes, p.frame.at, p.transport, kEcnCe);
  p.ce = true;
}

uint32_t Simulation::egress_index(size_t point, NodeRef towards) {
  for (uint32_t i = 0; i < egress_.size(); ++i)
    if (egress_[i].point == point && egress_[i].towards == towards) return i;
  Egress e;
  e.point = point;
  e.towards = towards;
  e.mbps = rate_mbps(sc_.gbps_of(point));
  e.paced = sc_.points[point].gbps.has_value();
  egress_.push_back(std::move(e));
  return static_cast<uint32_t>(egress_.size() - 1);
}

uint32_t Simulation::egress_of(const Route& r, size_t hop) const {
  const size_t path = static_cast<size_t>(r.path - sc_.paths.data());
  const size_t pos = r.forward ? hop : r.points() - 1 - hop;
  return route_egress_[path][pos][r.forward ? 1 : 0];
}

std::array<Mac, 2> Simulation::link_macs(const Route& r, size_t hop) const {
  const size_t path = static_cast<size_t>(r.path - sc_.paths.data());
  const auto& ends = link_macs_[path][r.forward ? hop : r.points() - 1 - hop];
  return r.forward ? ends : std::array<Mac, 2>{ends[1], ends[0]};
}

void Simulation::apply_rewrites(size_t point, InFlight& p) {
  std::span<uint8_t> bytes(p.frame.bytes);
  for (size_t i : rewrites_at_[point]) {
    const Rewrite& r = sc_.rewrites[i];
    if (r.dir && ((*r.dir)[0] != p.info.src_host || (*r.dir)[1] != p.info.dst_host)) continue;
    if (now_ < r.at) continue;
    // RoCEv1 is bridged: nothing past the Ethernet header is touched.
    if (r.dscp && p.transport != Transport::v1 &&
        (!r.dscp_from || get_dscp(bytes, p.frame.at, p.transport) == *r.dscp_from)) {
      set_dscp(bytes, p.frame.at, p.transport, *r.dscp);
      rewrite_used_[i] = true;
    }
    if (auto pcp = get_pcp(bytes); r.pcp && pcp && (!r.pcp_from || *pcp == *r.pcp_from)) {
      set_pcp(bytes, *r.pcp);
      rewrite_used_[i] = true;
    }
    if (auto vid = get_vlan(bytes); r.vlan && vid && (!r.vlan_from || *vid == *r.vlan_from)) {
      set_vlan(bytes, *r.vlan);
      rewrite_used_[i] = true;
    }
    if (r.vlan_strip && get_vlan(p.frame.bytes)) {
      strip_vlan(p.frame);
      bytes = p.frame.bytes;
      rewrite_used_[i] = true;
    }
  }
}

// Each frame ends on the tapped link at max(arrival, previous end + its own
// serialization) when the point is paced, at its arrival otherwise. A
// frame of a paused class is held (FIFO behind those already held) until
// the window ends; a paced frame still waiting for the link when a pause
// begins is held too.
void Simulation::pass_point(uint32_t ei, const PacketPtr& pp) {
  Egress& e = egress_[ei];
  InFlight& p = *pp;
  const Ns s = serialization(p.frame.bytes.size(), e.mbps);
  if (e.pfc) {
    const uint8_t prio = frame_priority(p.frame.bytes, p.frame.at, p.transport);
    ClassQueue& c = e.cls[prio];
    const bool paused = e.windows.paused(prio, now_);
    if (paused || (!c.held.empty() && c.held.back()->held) || now_ < c.drain_free) {
      p.held = true;
      p.pause_id = pause_period(e, prio);
      c.held.push_back(pp);
      if (!paused) schedule_release(ei, prio, std::max(now_, c.drain_free));
      return;
    }
    if (!c.held.empty()) return c.held.push_back(pp);  // behind its class, waiting for the link
    if (e.paced && e.link_free > now_) {  // it would start later: a pause may still catch it
      c.held.push_back(pp);
      return schedule_release(ei, prio, e.link_free);
    }
    // Paced: one that must wait for the last frame of the backlog still
    // queues behind it, in the busy period the pause began.
    if (e.paced && c.opener && e.link_free == c.drain_free && e.link_free + s > now_) {
      p.held = true;
      p.pause_id = c.opener;
      c.drain_free = e.link_free + s;
    }
  }
  Ns t = now_;
  if (e.paced) {
    t = std::max(now_, e.link_free + s);
    e.link_free = t;
  }
  if (t == now_) return leave_point(pp);
  push(EventKind::point_tx, t, 0, 0, pp);
}

void Simulation::leave_point(const PacketPtr& pp) {
  InFlight& p = *pp;
  record(p.route.point(p.hop), p);
  p.held = false;  // a pause holds it at one point only
  p.pause_id = 0;
  p.queued = 0;
  depart(pp, now_, p.hop + 1);
}

// A class is in a busy period a pause began while what the pause held is
// still queued or draining. Frames that wait in it count as paused, all
// naming the XOFF that opened that pause; a pause that catches a class idle
// or waiting only for pacing begins a new one.
uint64_t Simulation::pause_period(Egress& e, uint8_t prio) {
  ClassQueue& c = e.cls[prio];
  const bool ongoing =
      now_ < c.drain_free || std::any_of(c.held.begin(), c.held.end(), [](const PacketPtr& q) { return q->held; });
  if (!ongoing) c.opener = e.windows.opener(prio);
  return c.opener;
}

void Simulation::schedule_release(uint32_t ei, uint8_t prio, Ns t) {
  ClassQueue& c = egress_[ei].cls[prio];
  if (c.release_at && *c.release_at <= t) return;
  c.release_at = t;
  push(EventKind::egress_release, t, ei, prio);
}

// The head of a class queue starts when the pause is over and the link is
// free: held frames leave back to back at the link's rate, each recorded
// as it ends.
void Simulation::release(uint32_t ei, uint8_t prio) {
  Egress& e = egress_[ei];
  ClassQueue& c = e.cls[prio];
  if (c.release_at != now_) return;  // superseded
  c.release_at.reset();
  if (c.held.empty()) return;
  if (e.windows.paused(prio, now_)) {  // its pause_end resumes the queue
    const uint64_t id = pause_period(e, prio);
    for (PacketPtr& q : c.held)
      if (!q->held) q->held = true, q->pause_id = id;  // paced frames the pause caught waiting
    return;
  }
  Ns start = std::max(now_, c.drain_free);
  if (e.paced) start = std::max(start, e.link_free);
  if (start > now_) return schedule_release(ei, prio, start);
  PacketPtr p = std::move(c.held.front());
  c.held.pop_front();
  const Ns end = now_ + serialization(p->frame.bytes.size(), e.mbps);
  if (p->held) c.drain_free = end;  // what the pause held drains back to back
  if (e.paced) e.link_free = end;
  push(EventKind::point_tx, end, 0, 0, std::move(p));
  if (!c.held.empty()) schedule_release(ei, prio, end);
}

void Simulation::pause_end(uint32_t ei, uint8_t prio) {
  Egress& e = egress_[ei];
  if (e.windows.until(prio) != now_) return;  // refreshed or ended by XON meanwhile
  schedule_release(ei, prio, std::max(now_, e.cls[prio].drain_free));
}

void Simulation::record_link_local(size_t point, const FrameInfo& info, const std::vector<uint8_t>& bytes,
                                   uint64_t ctrl_id) {
  const uint32_t len = static_cast<uint32_t>(bytes.size());
  Frame f;
  f.point = point;
  f.time = now_;
  f.data = std::span<const uint8_t>(bytes).first(std::min(len, sc_.snaplen_of(point)));  // never ERSPAN (parser)
  f.wire_len = len;
  f.info = &info;
  f.ctrl_id = ctrl_id;
  ++stats_.recorded;
  stats_.end = now_;
  sink_->frame(f);  // a SPAN port does not copy link-local frames: no mirror
}

void Simulation::send_pfc(size_t d, uint64_t k) {
  const PfcDirective& dir = sc_.pfcs[d];
  const uint64_t id = ++next_ctrl_id_;
  record_link_local(dir.point, pfc_info_[d], pfc_bytes_[d], id);
  if (dir.effective()) {
    const uint32_t ei = pfc_egress_[d];
    Egress& e = egress_[ei];
    e.windows.apply(dir.enable, dir.quanta, now_, e.mbps, id);
    for (uint8_t c = 0; c < 8; ++c) {
      if (!(dir.enable >> c & 1)) continue;
      if (dir.quanta[c] == 0) schedule_release(ei, c, std::max(now_, e.cls[c].drain_free));  // XON
      else push(EventKind::pause_end, *e.windows.until(c), ei, c);
    }
  }
  if (k + 1 < dir.when.count)
    push(EventKind::pfc_frame, dir.when.time(k + 1), static_cast<uint32_t>(d), static_cast<uint32_t>(k + 1));
}

void Simulation::send_lldp(size_t d, uint64_t k) {
  const LldpDirective& dir = sc_.lldps[d];
  record_link_local(dir.point, lldp_info_[d], lldp_bytes_[d], 0);
  if (k + 1 < dir.when.count)
    push(EventKind::lldp_frame, dir.when.time(k + 1), static_cast<uint32_t>(d), static_cast<uint32_t>(k + 1));
}

// ---- endpoints ------------------------------------------------------------

void Simulation::deliver(const PacketPtr& p) {
  switch (p->info.kind) {
    case FrameKind::req: deliver_request(*p); break;
    case FrameKind::ack:
    case FrameKind::nak: deliver_reply(*p); break;
    case FrameKind::readresp: deliver_read_response(*p); break;
    case FrameKind::cm: deliver_cm(*p); break;
    case FrameKind::cnp: break;  // the reaction point's rate control is not modelled
    case FrameKind::pfc:
    case FrameKind::lldp: break;  // link-local: recorded at their point, never forwarded
    case FrameKind::icmp: break;  // recorded where it passes, never routed itself
    case FrameKind::besteffort: break;  // recorded at two points, never delivered
  }
  check_done(p->info.qp);
}

void Simulation::deliver_request(const InFlight& p) {
  const size_t qp = p.info.qp;
  const int r = 1 - p.info.req_side;
  QpState& st = qps_[qp];
  if (p.corrupt) return;  // bad ICRC: the NIC drops it silently
  if (p.ce) maybe_cnp(qp, r);
  if (st.error) return;
  Incoming in;
  in.psn = p.info.psn;
  in.ackreq = p.info.ackreq;
  in.first = op::starts_message(p.info.opcode);
  in.last = op::ends_message(p.info.opcode);
  in.read = p.info.opcode == op::kReadRequest;
  in.span = p.info.psn_span;
  in.read_length = p.msg_length;
  in.message = p.info.message;
  if (op::is_atomic_request(p.info.opcode)) {
    in.atomic = p.info.opcode == op::kCmpSwap;
    in.atomic_args = p.atomic;
  }
  for (const Reply& reply : st.resp[r].on_request(in, now_)) push_response(qp, r, reply);
  sync_flush(qp, r);
}

void Simulation::deliver_reply(const InFlight& p) {
  const size_t qp = p.info.qp;
  const int s = p.info.req_side;
  QpState& st = qps_[qp];
  if (st.error) return;
  Requester& rq = st.req[s];
  const uint8_t syn = p.info.syndrome;
  if (aeth::is_ack(syn)) rq.on_ack(p.info.psn, now_, p.info.opcode == op::kAtomicAck);
  else if (aeth::is_rnr(syn)) rq.on_rnr(p.info.psn, rnr_timer_ns(syn & 0x1F), now_);
  else if (syn == aeth::kNakPsnSeqError) rq.on_nak_seq(p.info.psn, now_);
  else return fail_qp(qp);  // invalid request, remote access or operational error
  sync_requester(qp, s);
}

void Simulation::deliver_read_response(const InFlight& p) {
  const size_t qp = p.info.qp;
  const int s = p.info.req_side;
  QpState& st = qps_[qp];
  if (p.ce) maybe_cnp(qp, s);
  if (st.error) return;
  st.req[s].on_read_response(p.info.psn, op::ends_message(p.info.opcode), now_);
  sync_requester(qp, s);
}

void Simulation::deliver_cm(const InFlight& p) {
  const size_t qp = p.info.qp;
  const Qp& q = sc_.qps[qp];
  const Ns delay = q.cm->delay;
  switch (p.info.cm_attr) {
    case cm::kAttrReq: push_control(q.side[1].host, factory_.cm(qp, cm::kAttrRep, now_), now_ + delay); break;
    case cm::kAttrRep:
      push_control(q.side[0].host, factory_.cm(qp, cm::kAttrRtu, now_), now_ + delay);
      push(EventKind::activate_side, now_ + delay, static_cast<uint32_t>(qp), 0);  // after RTU is queued
      break;
    case cm::kAttrRtu: activate_side(qp, 1); break;
    default: break;
  }
}

void Simulation::push_response(size_t qp, int side, const Reply& r) {
  const Ns delay = r.kind == Reply::Kind::read_response ? sc_.timing.read_delay : sc_.timing.ack_delay;
  qps_[qp].responses[side].push_back({now_ + delay, r, 0});
  kick_at(host_of(qp, side), now_ + delay);
}

void Simulation::push_control(size_t host, PacketPtr p, Ns ready) {
  ports_[host].control.push_back({ready, std::move(p)});
  kick_at(host, ready);
}

void Simulation::maybe_cnp(size_t qp, int np_side) {
  if (sc_.qps[qp].np_off[np_side]) {  // `np=off`: the CE mark goes unanswered
    qps_[qp].np_silent[np_side] = true;
    return;
  }
  auto& last = qps_[qp].last_cnp[np_side];
  if (last && now_ - *last < sc_.timing.cnp_interval) return;  // at most one per interval per QP
  last = now_;
  push_control(host_of(qp, np_side), factory_.cnp(qp, np_side), now_);
}

void Simulation::activate(size_t qp) {
  QpState& st = qps_[qp];
  st.activated = true;
  if (sc_.qps[qp].cm) {
    push_control(host_of(qp, 0), factory_.cm(qp, cm::kAttrReq, now_), now_);
  } else {
    activate_side(qp, 0);
    activate_side(qp, 1);
  }
  check_done(qp);
}

void Simulation::activate_side(size_t qp, int side) {
  qps_[qp].side_active[side] = true;
  qps_[qp].req[side].activate(now_);
  sync_requester(qp, side);
  check_done(qp);
}

void Simulation::sync_requester(size_t qp, int side) {
  QpState& st = qps_[qp];
  const Requester& r = st.req[side];
  if (auto d = r.timer_deadline(); d && d != st.timer_at[side]) {
    st.timer_at[side] = d;
    push(EventKind::req_timer, *d, static_cast<uint32_t>(qp), static_cast<uint32_t>(side));
  }
  if (auto w = r.wake_time(now_)) {
    if (*w <= now_) {
      kick(host_of(qp, side));
    } else if (!st.wake_at[side] || *w < *st.wake_at[side]) {
      st.wake_at[side] = w;
      push(EventKind::req_wake, *w, static_cast<uint32_t>(qp), static_cast<uint32_t>(side));
    }
  }
}

void Simulation::sync_flush(size_t qp, int side) {
  QpState& st = qps_[qp];
  const Responder& r = st.resp[side];
  if (auto d = r.flush_deadline(); d && d != st.flush_at[side]) {
    st.flush_at[side] = d;
    push(EventKind::resp_flush, *d, static_cast<uint32_t>(qp), static_cast<uint32_t>(side));
  }
  if (auto d = r.nak_deadline(); d && d != st.nak_at[side]) {  // out-of-order placement: NAK a hole still open
    st.nak_at[side] = d;
    push(EventKind::resp_flush, *d, static_cast<uint32_t>(qp), static_cast<uint32_t>(side));
  }
}

void Simulation::fail_qp(size_t qp) {
  QpState& st = qps_[qp];
  st.error = true;
  for (int s = 0; s < 2; ++s) {
    st.req[s].on_fatal();
    st.resp[s].fail();
    st.responses[s].clear();
  }
  check_done(qp);
}

void Simulation::check_done(size_t qp) {
  QpState& st = qps_[qp];
  if (st.done || !st.activated) return;
  bool done = st.error;
  if (!done) {
    done = true;
    for (int s = 0; s < 2; ++s)
      done = done && st.side_active[s] && st.req[s].idle() && st.responses[s].empty() && !st.resp[s].busy();
  }
  if (!done) return;
  st.done = true;
  for (size_t j = 0; j < sc_.qps.size(); ++j)
    if (sc_.qps[j].after == qp)
      push(EventKind::activate, std::max(now_ + sc_.qps[j].after_gap, sc_.qps[j].start), static_cast<uint32_t>(j));
}

}  // namespace roceshark::gen
