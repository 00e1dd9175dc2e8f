// SPDX-License-Identifier: GPL-2.0-or-later
// Builds RoCE frames byte by byte:
//
//   Ethernet II [802.1Q] | IPv4 | UDP 4791 | BTH | ext | payload | pad | ICRC   (RoCEv2)
//   Ethernet II [802.1Q] | IPv6 | UDP 4791 | BTH | ext | payload | pad | ICRC   (RoCEv2, IPv6)
//   Ethernet II [802.1Q] 0x8915 | GRH | BTH | ext | payload | pad | ICRC         (RoCEv1)
//
// ext is RETH or AtomicETH, AETH [AtomicAckETH], DETH and ImmDt in that order,
// as the opcode needs.
// No FCS; frames shorter than 60 bytes get Ethernet padding after the ICRC.
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "captures/gen/addresses.h"

namespace roceshark::gen {

enum class Transport : uint8_t { v2_ipv4, v2_ipv6, v1 };

inline constexpr uint16_t kRoceUdpPort = 4791;
inline constexpr uint16_t kEthertypeRoceV1 = 0x8915;

struct LinkHeader {
  Mac src{}, dst{};
  std::optional<uint16_t> vlan;  // untagged when absent
  uint8_t pcp = 0;
};

struct NetHeader {
  Transport transport = Transport::v2_ipv4;
  Ipv4 src4{}, dst4{};
  Ipv6 src6{}, dst6{};  // IPv6 addresses, or the GIDs of a GRH
  uint8_t dscp = 0;
  uint8_t ecn = 0;
  uint16_t ip_id = 0;
  uint8_t ttl = 64;         // IPv4 TTL / IPv6 hop limit / GRH hop limit
  uint32_t flow_label = 0;  // IPv6 and GRH
  uint16_t udp_sport = 0;
};

struct Bth {
  uint8_t opcode = 0;
  bool solicited = false;
  bool migreq = false;
  uint8_t pad = 0;
  uint16_t pkey = 0xFFFF;
  bool fecn = false;
  bool becn = false;
  uint32_t dest_qp = 0;
  bool ackreq = false;
  uint32_t psn = 0;
};

struct Reth {
  uint64_t va = 0;
  uint32_t rkey = 0;
  uint32_t dma_len = 0;
};
struct AtomicEth {  // CmpSwap and FetchAdd: 28 bytes
  uint64_t va = 0;
  uint32_t rkey = 0;
  uint64_t swap_add = 0;
  uint64_t compare = 0;
};
struct Aeth {
  uint8_t syndrome = 0;
  uint32_t msn = 0;
};
struct Deth {
  uint32_t qkey = 0;
  uint32_t src_qp = 0;
};

struct Extensions {
  std::optional<Reth> reth;
  std::optional<AtomicEth> atomic;
  std::optional<Aeth> aeth;
  std::optional<uint64_t> atomic_ack;  // AtomicAckETH: the original remote data
  std::optional<Deth> deth;
  std::optional<uint32_t> imm;
};

// Where things are in a built frame, for the edits made along the path.
struct Layout {
  uint16_t l3 = 0;         // first byte of IPv4 / IPv6 / GRH
  uint16_t payload = 0;    // first payload byte
  uint32_t payload_len = 0;
  uint32_t l3_end = 0;     // one past the ICRC (Ethernet padding follows)
};

struct BuiltFrame {
  std::vector<uint8_t> bytes;
  Layout at;
};

// `payload` follows the extension headers as-is: data, the 16 reserved bytes
// of a CNP, or a MAD. The ICRC is computed over the result.
BuiltFrame build_frame(const LinkHeader& l2, const NetHeader& l3, const Bth& bth, const Extensions& ext,
                       std::span<const uint8_t> payload);

// Edits a router or switch makes in flight. They touch only ICRC-masked
// fields, and keep the IPv4 header checksum right.
void set_ecn(std::span<uint8_t> frame, const Layout& at, Transport t, uint8_t ecn);
uint8_t get_ecn(std::span<const uint8_t> frame, const Layout& at, Transport t);
void decrement_ttl(std::span<uint8_t> frame, const Layout& at, Transport t);
// The frame one routed hop earlier (a SPAN copy of a switch's ingress).
void increment_ttl(std::span<uint8_t> frame, const Layout& at, Transport t);
// A router forwards with its own MAC as the source (not covered by the ICRC).
void set_link_macs(std::span<uint8_t> frame, const Mac& src, const Mac& dst);
// DSCP: the IPv4 DS field, the IPv6 or GRH traffic class, less the ECN bits.
void set_dscp(std::span<uint8_t> frame, const Layout& at, Transport t, uint8_t dscp);
uint8_t get_dscp(std::span<const uint8_t> frame, const Layout& at, Transport t);
// The 802.1Q priority, if the frame is tagged.
std::optional<uint8_t> get_pcp(std::span<const uint8_t> frame);
void set_pcp(std::span<uint8_t> frame, uint8_t pcp);  // tagged frames only
std::optional<uint16_t> get_vlan(std::span<const uint8_t> frame);
void set_vlan(std::span<uint8_t> frame, uint16_t vid);  // tagged frames only
void strip_vlan(BuiltFrame& f);                         // tagged frames only
// The traffic class a switch queues the frame in: its PCP when tagged,
// else its DSCP >> 3 (the default DSCP-to-priority map: 26 -> 3, 48 -> 6).
uint8_t frame_priority(std::span<const uint8_t> frame, const Layout& at, Transport t);

// RoCEv2 UDP source port for a QP pair, as Linux picks it
// (rdma_calc_flow_label + rdma_flow_label_to_udp_sport): same both ways.
uint32_t roce_flow_label(uint32_t qpn_a, uint32_t qpn_b);
uint16_t roce_udp_sport(uint32_t flow_label);

}  // namespace roceshark::gen
