// SPDX-License-Identifier: GPL-2.0-or-later
// A parsed scenario: the network, the QPs, the traffic and the faults.
// Indices refer into the vectors of Scenario; captures/README.md documents
// the text form that scenario_parser.cpp reads.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "captures/gen/addresses.h"
#include "captures/gen/atomic.h"
#include "captures/gen/besteffort.h"
#include "captures/gen/packet_builder.h"
#include "captures/gen/queue_burst.h"
#include "captures/gen/segmentation.h"
#include "captures/gen/units.h"

namespace roceshark::gen {

struct Host {
  std::string name;
  Ipv4 ip4{};
  std::optional<Ipv6> ip6;
  Mac mac{};
  // The NIC's IPv4 ID: `ipid=zero` sends 0 in every packet (with DF, as
  // many RDMA NICs do); `resend_ipid=same` gives a resent request the IP ID
  // of its first transmission, so the resend is byte-identical.
  bool ipid_zero = false;
  bool resend_ipid_same = false;
};

// `erspan`: a point's frames leave as ERSPAN copies of one mirror session,
// recorded at the point's own interface or at a collector's.
struct ErspanSession {
  uint16_t session = 0;  // 10 bits: what tells the points of one collector apart
  int type = 2;          // 2 or 3
  Ipv4 src{}, dst{};     // mirror source and collector addresses
  std::optional<size_t> collector;  // a Point with `collector`; else the point's own interface
  Ns latency = 0;        // from the point to the collector
  int line = 0;
};

// A capture point: a tap on one link, where the traffic is recorded; or a
// collector, an interface on no path that records ERSPAN copies of others.
// Each one is a pcapng interface unless its frames go to a collector.
// `ecn_red`: the switch feeding a point's link marks ECN-capable frames CE by
// the queueing they met there (a `queue` burst), like RED/WRED: none below
// kmin, a share rising linearly to pmax at kmax, every one from kmax on.
struct EcnRed {
  Ns kmin = 0, kmax = 0;
  double pmax = 1;
};

struct Point {
  std::string name;
  std::optional<EcnRed> ecn_red;
  std::optional<uint32_t> snaplen;                  // else the scenario's
  std::optional<Ns> mirror_dup;                     // SPAN: each frame again, this much later
  bool mirror_rewrite = false;  // `rewrite=on`: the copy is the switch's other side (TTL, MACs of that link)
  std::optional<std::array<size_t, 2>> only_dir;    // record only host [0] -> host [1]
  std::optional<double> gbps;                       // `speed`: the tapped link paces its frames
  Ns clock = 0;          // `clock`: how far its clock is ahead of true time (negative: behind)
  bool collector = false;
  std::optional<ErspanSession> erspan;
};

// A routed hop between capture points: a switch (or router) with one MAC,
// which it uses on all its ports. It forwards RoCEv2 with its own MAC as
// the source and decrements the TTL; it bridges RoCEv1.
struct Switch {
  std::string name;
  Mac mac{};
  std::optional<Mac> port_mac;  // `port_mac=`: what its ports send PFC from, when not the router MAC
  bool implicit = false;  // made by `path` for two adjacent points with no switch named between them
  int line = 0;
};

// An end of a link a point taps: a host or a switch. PFC and LLDP come from
// one; an egress is a point's direction towards one.
struct NodeRef {
  enum class Kind : uint8_t { host, sw };
  Kind kind = Kind::host;
  size_t index = 0;
  bool operator==(const NodeRef&) const = default;
};

// hosts[0] - latency[0] - points[0] - latency[1] - ... - hosts[1].
// Packets from hosts[1] walk it backwards. Segment k (latency[k]) leads to
// points[k] (the last one to hosts[1]) and crosses switches[k], in
// hosts[0] -> hosts[1] order; its latency includes them.
struct Path {
  std::array<size_t, 2> hosts{};
  std::vector<size_t> points;
  std::vector<Ns> latency;                  // points.size() + 1 segments
  std::vector<std::vector<size_t>> switches;  // per segment: indices into Scenario::switches
  int line = 0;

  // The ends of the link points[i] taps: towards hosts[0] and towards hosts[1].
  NodeRef before(size_t i) const {
    for (size_t k = i + 1; k-- > 0;)
      if (!switches[k].empty()) return {NodeRef::Kind::sw, switches[k].back()};
    return {NodeRef::Kind::host, hosts[0]};
  }
  NodeRef after(size_t i) const {
    for (size_t k = i + 1; k < switches.size(); ++k)
      if (!switches[k].empty()) return {NodeRef::Kind::sw, switches[k].front()};
    return {NodeRef::Kind::host, hosts[1]};
  }
};

struct CmExchange {
  std::array<uint32_t, 2> comm_id{};
  uint64_t service_id = 0;
  Ns delay = 0;  // processing time at each end before answering
};

struct QpSide {
  size_t host = 0;
  uint32_t qpn = 0;
  uint32_t start_psn = 0;  // first PSN of this side's send queue
};

struct Qp {
  std::string name;
  std::array<QpSide, 2> side{};  // side[0] is the CM active side
  size_t path = 0;
  bool reversed = false;          // side[0] is the path's hosts[1]
  uint32_t mtu = 1024;
  Transport transport = Transport::v2_ipv4;
  std::optional<uint16_t> vlan;
  uint8_t pcp = 0;
  uint8_t dscp = 26;
  uint8_t ecn = 2;  // ECT(0)
  std::optional<uint8_t> cnp_dscp, cnp_pcp;  // else the scenario's
  // `np=off:HOST`: that end's DCQCN notification point is disabled, so it
  // answers no CE mark with a CNP (per side, as side[]).
  std::array<bool, 2> np_off{};
  // `ooo=HOST`: that end's responder places packets beyond a hole (PSN >
  // ePSN) instead of NAKing them; it NAKs the hole `ooo_nak` after it opened
  // if it is still open (never when ooo_nak is unset: `ooo_nak=off`).
  std::array<bool, 2> ooo{};
  std::optional<Ns> ooo_nak = 8'000;
  // `recovery=selective:HOST`: that end's requester answers a sequence-error
  // NAK at x by resending x alone (needs `ooo` on the other end).
  std::array<bool, 2> selective{};
  uint16_t pkey = 0xFFFF;
  uint32_t ackreq_every = 0;  // also set AckReq on every Nth packet of a message
  uint32_t window = 128;      // outstanding PSNs per send queue
  uint32_t retry_cnt = 7;     // transport retries before the QP errors out
  Ns start = 0;
  std::optional<size_t> after;  // start only when this QP is idle
  Ns after_gap = 0;
  std::optional<CmExchange> cm;
  int line = 0;
};

struct Message {
  size_t qp = 0;
  int side = 0;  // the requester: side index within the QP
  MsgType type = MsgType::send;
  uint64_t length = 0;
  bool imm = false;
  std::string id;
  Ns at = 0;  // after the QP may start sending
  uint64_t repeat = 1;
  Ns every = 0;
  AtomicArgs atomic;  // `atomic`: add=, or compare= and swap=
  int line = 0;
};

// A place on a path, in the direction the packet travels.
struct Where {
  enum class Kind : uint8_t { sender, receiver, before, after, between };
  Kind kind = Kind::receiver;
  size_t point = 0, point2 = 0;
  size_t segment = 0;  // resolved by the parser: 0 leaves the sender, points.size() reaches the receiver
};

enum class Traffic : uint8_t { req, ack, readresp };

// Packets of one QP direction, by PSN offset from the requester's start PSN.
// ACKs and read responses use the PSNs of the requests they answer.
struct PacketSelect {
  size_t qp = 0;
  int side = 0;  // the requester
  Traffic traffic = Traffic::req;
  uint32_t first = 0, last = 0;  // offsets, inclusive
  uint32_t times = 1;            // transmissions affected per PSN; 0 = all
};

struct Drop {
  PacketSelect sel;
  Where where;
  int line = 0;
};

// `reorder`: adaptive routing sends the chosen transmission a longer way
// across one segment: it arrives `delay` later there, and the packets behind
// it overtake it (the segment's FIFO does not hold them).
struct Reorder {
  PacketSelect sel;
  Where where;
  Ns delay = 0;
  int line = 0;
};

struct Corrupt {
  PacketSelect sel;
  Where where;
  uint32_t byte = 0;  // payload offset to flip
  int line = 0;
};

struct EcnMark {
  PacketSelect sel;
  size_t point = 0;
  size_t hop = 0;  // resolved: index of the point in the travel direction
  int line = 0;
};

// `tapmiss`: the tap at a point does not record the chosen transmission (a
// SPAN port dropping mirror copies under load); the packet goes on.
struct TapMiss {
  PacketSelect sel;
  size_t point = 0;
  size_t hop = 0;  // resolved: index of the point in the travel direction
  int line = 0;
};

enum class NakCode : uint8_t { inv_req = 1, rem_access = 2, rem_op = 3 };

struct ForcedReply {
  size_t message = 0;
  bool rnr = false;  // else a NAK with `code`
  uint8_t rnr_timer = 14;
  NakCode code = NakCode::inv_req;
  int line = 0;
};

// The marking a QP end puts on what it sends from `at` on (`marking`).
// Unset fields keep their value.
struct MarkingChange {
  size_t qp = 0;
  int side = 0;
  Ns at = 0;
  std::optional<uint8_t> dscp, ecn, pcp;
  int line = 0;
};

// A device past a point rewriting the marking of RoCE packets (`rewrite`):
// the point records the new value, and it stays downstream.
struct Rewrite {
  size_t point = 0;
  std::optional<uint8_t> dscp_from, dscp;  // *_from: only packets with that value
  std::optional<uint8_t> pcp_from, pcp;
  // `vlan=strip`: the tag is removed; `vlan=[OLD:]NEW`: its VLAN id is changed.
  bool vlan_strip = false;
  std::optional<uint16_t> vlan_from, vlan;
  std::optional<std::array<size_t, 2>> dir;  // only host [0] -> host [1]
  Ns at = 0;  // only packets passing the point from then on
  int line = 0;
};

// `mtu`: the port before a point (or a switch's egress) forwards IP
// packets of at most `bytes`; a longer RoCE packet is lost there, so the
// point never sees it. With `icmp=` / `icmp6=` that router tells the sender
// so (ICMP fragmentation needed / packet too big), from that address.
struct Mtu {
  size_t point = 0;
  std::optional<size_t> sw;  // a switch instead of a point
  uint32_t bytes = 0;
  std::optional<std::array<size_t, 2>> dir;  // only host [0] -> host [1]
  std::optional<Ipv4> icmp4;
  std::optional<Ipv6> icmp6;
  int line = 0;
};

// The device on one end of a tapped link that sends PFC or LLDP: a host's
// NIC or a switch port, with that node's MAC. PFC pauses what the point
// passes towards it.
struct LinkPort {
  NodeRef node;
  std::string name;  // the node's
  Mac mac{};
};

// Times a link-local frame is sent: at, at + every, ... (count of them).
struct Schedule {
  Ns at = 0;
  uint64_t count = 1;
  Ns every = 0;
  Ns time(uint64_t k) const { return at + static_cast<Ns>(k) * every; }
};

// `pfc` / `xon`: IEEE 802.1Qbb PFC frames recorded at a point.
struct PfcDirective {
  size_t point = 0;
  LinkPort from;
  uint8_t enable = 0;                  // class-enable vector, low byte
  std::array<uint16_t, 8> quanta{};    // per class; 0 where not enabled
  Schedule when;
  bool storm = false;                  // for the truth file's note
  uint8_t reserved = 0;                // upper byte of the vector (must be 0)
  std::optional<uint32_t> truncate;    // the frame is cut to this many bytes
  std::optional<Mac> dst;              // else 01:80:C2:00:00:01
  int line = 0;
  // A receiver acts only on a well-formed frame to the PFC address (it
  // ignores reserved bits, as 802.1Qbb says).
  bool effective() const { return !truncate && !dst; }
};

struct AppEntry {
  uint16_t dscp = 0;
  uint8_t priority = 0;
};

// `lldp`: an LLDPDU with the IEEE 802.1Qaz DCBX TLVs, recorded at a point.
struct LldpDirective {
  size_t point = 0;
  LinkPort from;
  std::string port;                   // Port ID TLV: `port=`, else the device's name
  std::optional<uint8_t> pfc_enable;  // PFC Configuration TLV, when given
  bool willing = false, mbc = false;
  uint8_t pfc_cap = 8;
  std::vector<AppEntry> app;          // Application Priority TLV, when not empty
  uint16_t max_frame = 0;             // 802.3 Maximum Frame Size TLV, when not 0
  bool ets = false;                   // ETS Configuration TLV, with the three tables:
  std::array<uint8_t, 8> ets_tc{};    //   by priority: traffic class
  std::array<uint8_t, 8> ets_bw{};    //   by class: bandwidth %
  uint8_t ets_strict = 0;             //   bit c: class c strict priority, else ETS
  uint16_t ttl = 120;
  Schedule when;
  int line = 0;
};

struct Timing {
  double link_gbps = 100;
  Ns jitter = 0;
  Ns timeout = 4'000'000;
  Ns ack_coalesce = 0;
  Ns ack_delay = 0;
  Ns read_delay = 0;
  Ns nak_turnaround = 500;
  Ns cnp_interval = 50'000;
  uint8_t cnp_dscp = 48;
  uint8_t cnp_ecn = 0;
  uint8_t cnp_pcp = 6;  // a tagged QP's CNPs carry its VLAN with this priority
  Ns max_time = 10'000'000'000;  // a safety net against scenarios that never settle
};

struct Scenario {
  std::string file;
  uint64_t seed = 1;
  int64_t epoch_s = 1'700'000'000;
  uint32_t snaplen = 65535;
  Timing timing;
  std::vector<Host> hosts;
  std::vector<Point> points;
  std::vector<Switch> switches;
  bool bridged = false;  // `bridged`: an L2 fabric, RoCEv2 keeps the hosts' MACs and its TTL end to end
  std::vector<Path> paths;
  std::vector<Qp> qps;
  std::vector<Message> messages;
  std::vector<Drop> drops;
  std::vector<Reorder> reorders;
  std::vector<Corrupt> corrupts;
  std::vector<EcnMark> marks;
  std::vector<TapMiss> tap_misses;
  std::vector<ForcedReply> replies;
  std::vector<MarkingChange> markings;  // sorted by (qp, side, at)
  std::vector<Rewrite> rewrites;
  std::vector<Mtu> mtus;
  std::vector<PfcDirective> pfcs;
  std::vector<LldpDirective> lldps;
  std::vector<QueueBurst> queues;
  std::vector<BestEffort> besteffort;
  std::map<std::string, std::string> expect;  // read by the tests, not the generator

  // The point whose pcapng interface records `point`: itself, or its collector.
  size_t interface_of(size_t point) const {
    const auto& e = points[point].erspan;
    return e && e->collector ? *e->collector : point;
  }
  bool has_interface(size_t point) const { return interface_of(point) == point; }
  uint32_t snaplen_of(size_t point) const { return points[interface_of(point)].snaplen.value_or(snaplen); }
  // How much later than true time the file shows a frame of `point`: the
  // clock of its interface plus the way to a collector.
  Ns shift_of(size_t point) const {
    const auto& e = points[point].erspan;
    return points[interface_of(point)].clock + (e ? e->latency : 0);
  }
  double gbps_of(size_t point) const { return points[point].gbps.value_or(timing.link_gbps); }
  uint8_t cnp_dscp_of(const Qp& q) const { return q.cnp_dscp.value_or(timing.cnp_dscp); }
  uint8_t cnp_pcp_of(const Qp& q) const { return q.cnp_pcp.value_or(timing.cnp_pcp); }
  const std::string& node_name(NodeRef n) const {
    return n.kind == NodeRef::Kind::host ? hosts[n.index].name : switches[n.index].name;
  }
  const Mac& node_mac(NodeRef n) const {
    return n.kind == NodeRef::Kind::host ? hosts[n.index].mac : switches[n.index].mac;
  }
};

}  // namespace roceshark::gen
