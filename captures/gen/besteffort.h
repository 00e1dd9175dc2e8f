// SPDX-License-Identifier: GPL-2.0-or-later
// Best-effort cross traffic modelled packet by packet (`besteffort`): an
// iperf-like TCP bulk transfer between two hosts, in the direction of the
// RoCE traffic it competes with, that shares one egress queue with RoCE:
//
//   upstream point ---- segment latency ----> [queue: sched] ----> POINT
//     BE recorded at at + k*spacing             RoCE and BE          BE recorded when it
//     (it comes from upstream of it)            of that direction    has left; goes no further
//
// The queue is the one of the device feeding POINT's link. While the flow
// is active (from its first packet's arrival there until its last one has
// left) it is scheduled as `sched` says, with f = rate / link rate:
//
//   strict   best-effort above RoCE: RoCE's class gets a fluid share 1 - f
//            (0.02 when f = 1); a best-effort frame never queues.
//   ets:PCT  RoCE's class gets max(PCT/100, 1 - f); best-effort gets
//            1 - PCT/100 while RoCE is backlogged, the whole link otherwise.
//
// A RoCE frame of the flow's direction leaves the queue when its class has
// served its serialization time since the frame before it left, at the
// class's share while the flow is active and at the full rate after it
// (what is still queued then drains at line rate), and never before it
// arrived: exit = max(arrival, finish(previous exit, ser)). So RoCE's order
// is kept. A best-effort frame is stored and forwarded: it leaves at
// max(arrival + ser, previous best-effort exit + ser / its share), and its
// wait (queue_ns) is that less arrival + ser.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>

#include "captures/gen/addresses.h"
#include "captures/gen/packet_builder.h"
#include "captures/gen/units.h"

namespace roceshark::gen {

struct BestEffort {
  enum class Sched : uint8_t { strict, ets };
  size_t point = 0;
  double gbps = 0;  // the flow's rate
  Ns at = 0;        // its first packet at the upstream point
  Ns length = 0;    // `for=`: packets are sent at at + k * spacing < at + length
  std::array<size_t, 2> dir{};  // host [0] -> host [1]
  Sched sched = Sched::strict;
  uint8_t ets_pct = 0;  // `ets:PCT`: RoCE's class's share of the link, percent
  std::optional<uint32_t> size;  // the whole Ethernet frame; else a 1500-byte IP packet
  uint8_t dscp = 0;
  std::optional<uint8_t> pcp;  // tagged traffic only; 0 when not given
  int line = 0;
  // Resolved by the parser once the paths and QPs are known.
  size_t path = 0;
  bool forward = true;  // dir[0] is the path's hosts[0]
  size_t hop = 0;       // POINT's position in travel order (at least 1: hop - 1 is the upstream point)
  std::optional<uint16_t> vlan;  // of the RoCE traffic between the two hosts, when it is tagged
  bool ipv6 = false;             // every QP between the hosts is RoCEv2 over IPv6

  uint32_t frame_size() const { return size.value_or(vlan ? 1518 : 1514); }
};

// The TCP segment every best-effort packet is: iperf3's port, ACK|PSH, a
// fixed initial sequence number and IPv4 ID, counting up per packet.
inline constexpr uint16_t kBestEffortSport = 40000;  // the n-th `besteffort` directive uses 40000 + n
inline constexpr uint16_t kBestEffortDport = 5201;
inline constexpr uint32_t kBestEffortSeq = 1'000'000;
inline constexpr uint16_t kBestEffortIpId = 0x4000;
inline constexpr uint32_t kBestEffortAck = 1;

struct TcpFrameFields {
  Mac src{}, dst{};
  std::optional<uint16_t> vlan;
  uint8_t pcp = 0;
  bool v6 = false;
  Ipv4 src4{}, dst4{};
  Ipv6 src6{}, dst6{};
  uint8_t dscp = 0;  // ECN is Not-ECT
  uint8_t ttl = 64;
  uint16_t ip_id = 0;  // IPv4
  uint16_t sport = 0, dport = 0;
  uint32_t seq = 0, ack = 0;
  uint32_t size = 0;  // the whole frame, at least the headers and 60
};

// Ethernet [802.1Q] | IPv4 (DF) or IPv6 | TCP (20 bytes, ACK|PSH, window
// 512) | zero payload up to `size`, with the IPv4 header and TCP checksums.
// Layout::l3 is the IP header, payload the TCP payload; the TTL and MAC
// edits of packet_builder.h apply (Transport v2_ipv4 / v2_ipv6).
BuiltFrame build_tcp_frame(const TcpFrameFields& f);
// The TCP payload of the flow's packets: how far the sequence number moves per packet.
uint32_t tcp_payload_len(const BestEffort& d);

// The scheduler at the flow's point, for its direction (see the top).
class BestEffortQueue {
 public:
  // `first`, `last`: when the flow's first and last packets reach the
  // queue; `be_ser`: a best-effort frame's serialization time at the link
  // rate, unrounded.
  BestEffortQueue(const BestEffort& d, double link_gbps, Ns first, Ns last, double be_ser);

  // A RoCE frame of the flow's direction reaches the queue at `now`,
  // needing `ser` ns at the link rate (unrounded); a `queue` burst holds it
  // `wait` already. Returns its whole wait.
  Ns roce(Ns now, double ser, Ns wait = 0);
  // A best-effort frame reaches it at `now`: when it has left.
  Ns besteffort(Ns now, double ser);

  // Some RoCE frame reached the queue while the flow was active.
  bool met_roce() const { return met_roce_; }
  // When the flow's last packet has left: exact for `strict`, where
  // best-effort never queues; for `ets`, as far as its packets so far show.
  Ns end() const;
  double roce_share() const { return roce_share_; }
  double be_share() const { return be_share_; }

 private:
  // When RoCE's class, serving from `from`, has given `work` ns of
  // line-rate service: at its share until end(), at the full rate after.
  Ns finish(Ns from, double work) const;

  BestEffort::Sched sched_;
  double roce_share_ = 1, be_share_ = 1;
  Ns first_ = 0, last_ = 0;
  double be_ser_ = 0;
  std::optional<Ns> roce_last_, be_last_;  // when the latest frame of each class left
  bool met_roce_ = false;
};

}  // namespace roceshark::gen
