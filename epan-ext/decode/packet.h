// SPDX-License-Identifier: GPL-2.0-or-later
// One RoCE packet as the decoder hands it to the engine: plain values only.
#pragma once
#include <array>
#include <cstdint>

#include "epan-ext/decode/address.h"

namespace roceshark {

enum class Encap : uint8_t { rocev2_ipv4, rocev2_ipv6, rocev1 };

enum class IcrcState : uint8_t {
  unchecked,     // checking disabled, or the packet is not one we check
  good,
  bad,
  not_captured,  // the snaplen cut the packet before the ICRC
};

// A CM MAD on QP1 (IBA vol. 1 12.6): what pairs a QP's two directions and
// gives the starting PSNs.
struct CmMessage {
  enum class Kind : uint8_t { none, req, rep, rtu, other } kind = Kind::none;
  uint32_t local_comm_id = 0;
  uint32_t remote_comm_id = 0;  // REP only
  uint32_t local_qpn = 0;
  uint32_t start_psn = 0;
  uint32_t path_mtu = 0;  // REQ only (a REP has none): its Path Packet Payload MTU in bytes, 0 for no valid code
};

struct PacketInfo {
  bool truncated = false;  // RoCE seen, but the snaplen cut the BTH (or the AETH it implies): only frame, ts, point are valid
  uint32_t frame = 0;
  uint64_t ts_ns = 0;
  uint32_t point = 0;  // capture point id (pcapng interface by default)
  Encap encap = Encap::rocev2_ipv4;
  Address src, dst;

  // BTH
  uint8_t opcode = 0;
  uint32_t dest_qp = 0;
  uint32_t psn = 0;
  bool ack_req = false;
  bool fecn = false;
  bool becn = false;

  // AETH, when the opcode carries one
  bool has_aeth = false;
  uint8_t syndrome = 0;
  uint32_t msn = 0;

  // RETH DMA length (READ REQUEST: how many response packets follow)
  bool has_reth = false;
  uint32_t dma_len = 0;

  // AtomicETH (CmpSwap, FetchAdd)
  bool has_atomic_eth = false;
  uint64_t atomic_va = 0;
  uint32_t atomic_rkey = 0;
  uint64_t atomic_swap_add = 0;  // swap (CmpSwap) or add (FetchAdd) data
  uint64_t atomic_compare = 0;

  uint32_t payload_len = 0;  // IB payload bytes, without pad and ICRC
  uint32_t frame_len = 0;    // bytes on the wire
  uint32_t ip_len = 0;       // the IP (or GRH) packet's length, as its header says: what an MTU limits
  uint8_t ecn = 0;           // IP ECN / GRH traffic class low bits
  uint8_t dscp = 0;          // IP DSCP / GRH traffic class high bits
  int8_t pcp = -1;           // VLAN PCP of the tag nearest the RoCE packet, -1 untagged
  uint16_t vlan_id = 0;      // VLAN id of that tag, 0 untagged
  std::array<uint8_t, 6> dst_mac{};  // the Ethernet header nearest the RoCE packet
  std::array<uint8_t, 6> src_mac{};
  uint8_t ttl = 0;           // IPv4 TTL, IPv6 or GRH hop limit
  bool has_ip_id = false;    // IPv4 only
  uint16_t ip_id = 0;        // a mirror copy keeps it; a new packet from the NIC usually doesn't

  IcrcState icrc = IcrcState::unchecked;
  uint32_t icrc_value = 0;     // as carried, when captured
  uint32_t icrc_expected = 0;  // as computed, when checked

  CmMessage cm;
};

}  // namespace roceshark
