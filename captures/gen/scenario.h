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
#include "captures/gen/packet_builder.h"
#include "captures/gen/segmentation.h"
#include "captures/gen/units.h"

namespace roceshark::gen {

struct Host {
  std::string name;
  Ipv4 ip4{};
  std::optional<Ipv6> ip6;
  Mac mac{};
};

// A capture point: a tap or a switch port where the traffic is recorded.
// Later per-point features (DSCP remarking, ERSPAN, clock offset) go here.
struct Point {
  std::string name;
  std::optional<uint32_t> snaplen;                  // else the scenario's
  std::optional<Ns> mirror_dup;                     // SPAN: each frame again, this much later
  std::optional<std::array<size_t, 2>> only_dir;    // record only host [0] -> host [1]
};

// hosts[0] - latency[0] - points[0] - latency[1] - ... - hosts[1].
// Packets from hosts[1] walk it backwards.
struct Path {
  std::array<size_t, 2> hosts{};
  std::vector<size_t> points;
  std::vector<Ns> latency;  // points.size() + 1 segments
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

enum class NakCode : uint8_t { inv_req = 1, rem_access = 2, rem_op = 3 };

struct ForcedReply {
  size_t message = 0;
  bool rnr = false;  // else a NAK with `code`
  uint8_t rnr_timer = 14;
  NakCode code = NakCode::inv_req;
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
  std::vector<Path> paths;
  std::vector<Qp> qps;
  std::vector<Message> messages;
  std::vector<Drop> drops;
  std::vector<Corrupt> corrupts;
  std::vector<EcnMark> marks;
  std::vector<ForcedReply> replies;
  std::map<std::string, std::string> expect;  // read by the tests, not the generator

  uint32_t snaplen_of(size_t point) const { return points[point].snaplen.value_or(snaplen); }
};

}  // namespace roceshark::gen
