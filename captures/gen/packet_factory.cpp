// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/packet_factory.h"

#include <algorithm>

#include "captures/gen/aeth.h"
#include "captures/gen/cm_mad.h"
#include "captures/gen/opcodes.h"
#include "captures/gen/prng.h"
#include "captures/gen/psn.h"

namespace roceshark::gen {
namespace {

constexpr uint32_t kGsiQp = 1;

Ipv6 gid_of(const Host& h, Transport t) {
  if (t == Transport::v2_ipv4) return ipv4_mapped(h.ip4);
  if (h.ip6) return *h.ip6;
  return link_local_gid(h.mac);
}

// cma_ip_addr: an IPv4 address is three zero words and the address.
Ipv6 ip4_in_last_word(const Ipv4& ip) {
  Ipv6 a{};
  for (size_t i = 0; i < 4; ++i) a[12 + i] = ip[i];
  return a;
}

uint64_t ca_guid(const Mac& mac) {
  Ipv6 g = link_local_gid(mac);
  uint64_t v = 0;
  for (size_t i = 8; i < 16; ++i) v = v << 8 | g[i];
  return v;
}

}  // namespace

PacketFactory::PacketFactory(const Scenario& sc)
    : sc_(sc),
      changes_(sc.qps.size()),
      marking_used_(sc.markings.size(), false),
      ip_id_(sc.hosts.size(), 0),
      mad_psn_(sc.hosts.size(), 0) {
  for (size_t i = 0; i < sc.markings.size(); ++i) changes_[sc.markings[i].qp][sc.markings[i].side].push_back(i);
  for (size_t h = 0; h < sc.hosts.size(); ++h) {
    ip_id_[h] = static_cast<uint16_t>(hash_combine(sc.seed, 0x1D00 + h));
    mad_psn_[h] = static_cast<uint32_t>(hash_combine(sc.seed, 0x3AD0 + h)) & psn::kMask;
  }
}

uint64_t PacketFactory::key(size_t qp, int side, uint64_t a, uint64_t b, uint64_t c) const {
  uint64_t h = hash_combine(sc_.seed, qp);
  h = hash_combine(h, static_cast<uint64_t>(side));
  return hash_combine(hash_combine(hash_combine(h, a), b), c);
}

Marking PacketFactory::marking_now(size_t qp, int side, Ns now) {
  const auto& list = changes_[qp][side];
  for (auto it = list.rbegin(); it != list.rend(); ++it)
    if (sc_.markings[*it].at <= now) {
      marking_used_[*it] = true;  // only the newest shows; one never newest while packets were built is unused
      break;
    }
  return marking(qp, side, now);
}

Marking PacketFactory::marking(size_t qp, int side, Ns now) const {
  const Qp& q = sc_.qps[qp];
  Marking m{q.vlan, q.pcp, q.dscp, q.ecn};
  for (size_t i : changes_[qp][side]) {  // in time order
    const MarkingChange& c = sc_.markings[i];
    if (c.at > now) break;
    if (c.dscp) m.dscp = *c.dscp;
    if (c.ecn) m.ecn = *c.ecn;
    if (c.pcp) m.pcp = *c.pcp;
  }
  return m;
}

std::vector<int> PacketFactory::unused_markings() const {
  std::vector<int> lines;
  for (size_t i = 0; i < marking_used_.size(); ++i)
    if (!marking_used_[i]) lines.push_back(sc_.markings[i].line);
  return lines;
}

PacketPtr PacketFactory::make(size_t qp, int from, const Bth& bth, const Extensions& ext,
                              std::span<const uint8_t> payload, const Marking& m, std::optional<uint16_t> ip_id) {
  const Qp& q = sc_.qps[qp];
  const size_t src = q.side[from].host, dst = q.side[1 - from].host;
  const Host& hs = sc_.hosts[src];
  const Host& hd = sc_.hosts[dst];
  LinkHeader l2{hs.mac, hd.mac, m.vlan, m.pcp};
  NetHeader l3;
  l3.transport = q.transport;
  l3.src4 = hs.ip4;
  l3.dst4 = hd.ip4;
  l3.src6 = gid_of(hs, q.transport);
  l3.dst6 = gid_of(hd, q.transport);
  l3.dscp = m.dscp;
  l3.ecn = m.ecn;
  // `ipid=zero` NICs send 0 (with DF); the others count per host, except
  // that a byte-identical resend (`resend_ipid=same`) keeps its original's.
  l3.ip_id = hs.ipid_zero ? 0 : ip_id ? *ip_id : ip_id_[src]++;
  last_ip_id_ = l3.ip_id;
  // MADs travel between the QP1s, so they hash differently from the data QPs.
  const bool gsi = bth.dest_qp == kGsiQp;
  l3.flow_label = gsi ? roce_flow_label(kGsiQp, kGsiQp) : roce_flow_label(q.side[0].qpn, q.side[1].qpn);
  l3.udp_sport = roce_udp_sport(l3.flow_label);

  auto p = std::make_shared<InFlight>();
  p->frame = build_frame(l2, l3, bth, ext, payload);
  p->transport = q.transport;
  p->route = route_from(sc_, q, src);
  p->info.qp = qp;
  p->info.src_host = src;
  p->info.dst_host = dst;
  p->info.dest_qpn = bth.dest_qp;
  p->info.psn = bth.psn;
  p->info.opcode = bth.opcode;
  p->info.ackreq = bth.ackreq;
  p->ce = m.ecn == 3;  // a sender may mark CE itself; the receiver reacts the same
  return p;
}

PacketPtr PacketFactory::request(size_t qp, int side, const RequestPacket& r, Ns now) {
  const Qp& q = sc_.qps[qp];
  Bth bth;
  bth.opcode = r.seg.opcode;
  bth.pad = r.seg.pad;
  bth.pkey = q.pkey;
  bth.dest_qp = q.side[1 - side].qpn;
  bth.ackreq = r.ackreq;
  bth.psn = r.psn;
  Extensions ext;
  if (r.seg.reth) {
    const uint64_t k = key(qp, side, r.message, r.copy, 0x7E7);
    // A re-issued READ asks for the rest: VA and DMA length move past the responses already placed.
    const uint64_t skipped = std::min<uint64_t>(r.length, uint64_t{r.read_skip} * q.mtu);
    ext.reth = Reth{0x7F0000000000ull + (k & 0xFFFFFFF000ull) + skipped,
                    static_cast<uint32_t>(key(qp, side, 0, 0, 0x4B)), static_cast<uint32_t>(r.length - skipped)};
  }
  if (r.seg.atomic_eth) {  // every ATOMIC of a requester works on the same 8-byte target
    const uint64_t k = key(qp, side, 0, 0, 0xA70);
    ext.atomic = AtomicEth{0x7E0000000000ull + (k & 0xFFFFFFFF8ull), static_cast<uint32_t>(key(qp, side, 0, 0, 0xA7B)),
                           r.atomic.swap_add, r.atomic.compare};
  }
  if (r.seg.imm) ext.imm = static_cast<uint32_t>(key(qp, side, r.message, r.copy, 0x1AA));
  scratch_.resize(r.seg.payload);
  fill_bytes(key(qp, side, r.message, r.copy, r.seg.index), scratch_);
  std::optional<uint16_t> id;
  const bool same = sc_.hosts[q.side[side].host].resend_ipid_same;
  if (same && r.cause != Cause::original)
    if (auto it = first_ip_id_.find({qp, side, r.psn}); it != first_ip_id_.end()) id = it->second;
  auto p = make(qp, side, bth, ext, scratch_, marking_now(qp, side, now), id);
  if (same && !id) first_ip_id_[{qp, side, r.psn}] = last_ip_id_;
  p->info.kind = FrameKind::req;
  p->info.req_side = side;
  p->info.psn_span = r.span;
  p->info.cause = r.cause;
  p->info.message = r.message;
  p->atomic = r.atomic;
  return p;
}

PacketPtr PacketFactory::reply(size_t qp, int resp_side, const Reply& r, Ns now) {
  const Qp& q = sc_.qps[qp];
  const bool atomic = r.kind == Reply::Kind::atomic_ack;
  Bth bth;
  bth.opcode = atomic ? op::kAtomicAck : op::kAck;
  bth.pkey = q.pkey;
  bth.dest_qp = q.side[1 - resp_side].qpn;
  bth.psn = r.psn;
  Extensions ext;
  ext.aeth = Aeth{r.syndrome, r.msn};
  if (atomic) ext.atomic_ack = r.original;
  auto p = make(qp, resp_side, bth, ext, {}, marking_now(qp, resp_side, now));
  p->info.kind = aeth::is_ack(r.syndrome) ? FrameKind::ack : FrameKind::nak;
  p->info.req_side = 1 - resp_side;
  p->info.syndrome = r.syndrome;
  return p;
}

PacketPtr PacketFactory::read_response(size_t qp, int resp_side, const Reply& read, uint32_t index, Ns now) {
  const Qp& q = sc_.qps[qp];
  const Segment seg = read_response_segment(read.read_length, q.mtu, index);
  Bth bth;
  bth.opcode = seg.opcode;
  bth.pad = seg.pad;
  bth.pkey = q.pkey;
  bth.dest_qp = q.side[1 - resp_side].qpn;
  bth.psn = psn::add(read.psn, index);
  Extensions ext;
  if (seg.aeth) ext.aeth = Aeth{aeth::kAckInvalidCredit, read.msn};
  scratch_.resize(seg.payload);
  fill_bytes(key(qp, resp_side, read.psn, index, 0x5244), scratch_);
  auto p = make(qp, resp_side, bth, ext, scratch_, marking_now(qp, resp_side, now));
  p->info.kind = FrameKind::readresp;
  p->info.req_side = 1 - resp_side;
  return p;
}

PacketPtr PacketFactory::cnp(size_t qp, int np_side) {
  const Qp& q = sc_.qps[qp];
  Bth bth;
  bth.opcode = op::kCnp;
  bth.pkey = q.pkey;
  bth.becn = true;
  bth.dest_qp = q.side[1 - np_side].qpn;
  bth.psn = 0;
  static constexpr uint8_t kReserved[16] = {};
  const Marking m{q.vlan, sc_.cnp_pcp_of(q), sc_.cnp_dscp_of(q), sc_.timing.cnp_ecn};
  auto p = make(qp, np_side, bth, {}, kReserved, m);
  p->info.kind = FrameKind::cnp;
  p->info.req_side = 1 - np_side;
  return p;
}

PacketPtr PacketFactory::cm(size_t qp, uint16_t attr, Ns now) {
  const Qp& q = sc_.qps[qp];
  const CmExchange& x = *q.cm;
  const int from = attr == cm::kAttrRep ? 1 : 0;
  const Host& active = sc_.hosts[q.side[0].host];
  const Host& passive = sc_.hosts[q.side[1].host];
  const uint64_t tid = key(qp, 0, 0xC0, 0, 0x71D);  // one transaction per connection
  cm::Mad mad;
  if (attr == cm::kAttrReq) {
    cm::Req r;
    r.local_comm_id = x.comm_id[0];
    r.service_id = x.service_id;
    r.local_ca_guid = ca_guid(active.mac);
    r.local_qpn = q.side[0].qpn;
    r.start_psn = q.side[0].start_psn;
    r.pkey = q.pkey;
    r.path_mtu_code = cm::mtu_code(q.mtu);
    r.local_gid = gid_of(active, q.transport);
    r.remote_gid = gid_of(passive, q.transport);
    r.traffic_class = static_cast<uint8_t>(q.dscp << 2);
    // rdma_cm's IP CM header; RoCEv1 connections are not set up by IP address.
    r.ip_cm = q.transport != Transport::v1 && (x.service_id & cm::kIpCmServiceMask) == cm::kIpCmServicePrefix;
    r.ip_cm_v6 = q.transport == Transport::v2_ipv6;
    r.ip_cm_sport = static_cast<uint16_t>(0xC000 | (key(qp, 0, 0, 0, 0x5B) & 0x3FFF));
    r.ip_cm_src = r.ip_cm_v6 ? gid_of(active, q.transport) : ip4_in_last_word(active.ip4);
    r.ip_cm_dst = r.ip_cm_v6 ? gid_of(passive, q.transport) : ip4_in_last_word(passive.ip4);
    mad = cm::build_req(tid, r);
  } else if (attr == cm::kAttrRep) {
    mad = cm::build_rep(tid, {x.comm_id[1], x.comm_id[0], q.side[1].qpn, q.side[1].start_psn, ca_guid(passive.mac)});
  } else {
    mad = cm::build_rtu(tid, {x.comm_id[0], x.comm_id[1]});
  }
  const size_t host = q.side[from].host;
  Bth bth;
  bth.opcode = op::kUdSendOnly;
  bth.pkey = q.pkey;
  bth.dest_qp = kGsiQp;
  bth.psn = mad_psn_[host];
  mad_psn_[host] = psn::add(mad_psn_[host], 1);
  Extensions ext;
  ext.deth = Deth{cm::kQp1Qkey, kGsiQp};
  auto p = make(qp, from, bth, ext, mad, marking_now(qp, from, now));
  p->info.kind = FrameKind::cm;
  p->info.req_side = from;
  p->info.cm_attr = attr;
  return p;
}

}  // namespace roceshark::gen
