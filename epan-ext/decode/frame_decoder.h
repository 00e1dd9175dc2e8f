// SPDX-License-Identifier: GPL-2.0-or-later
// The frame decoder: one captured frame's bytes in, what the engine takes
// out: a RoCE packet, a PFC/PAUSE frame, an LLDP frame with DCBX, or "not
// ours" and why; also an ICMP "too big" message quoting RoCE. Any front end feeds it (the Wireshark postdissector, a
// libwiretap reader); it knows no Wireshark types.
//
//   Ethernet | 802.1Q/802.1ad tags ...
//     | 0x0800 IPv4 / 0x86DD IPv6
//         | ICMP 3/4, ICMPv6 2: the quoted IP | UDP 4791 | BTH (as far as quoted)
//         | TCP, UDP other than below: cross traffic (addresses, ports, IPv4 ID, TCP sequence)
//         | UDP dst 4791: BTH [XRCETH] [AETH | RETH | AtomicETH | DETH + CM MAD] ... ICRC
//         | UDP dst 4789: VXLAN | Ethernet ...
//         | GRE: ERSPAN I/II (0x88BE) / III (0x22EB) / 0x6558 | Ethernet ...
//     | 0x8915 RoCEv1: GRH | BTH ...
//     | 0x8808 MAC control: PAUSE / PFC
//     | 0x88CC LLDP (DCBX TLVs)
#pragma once
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "epan-ext/decode/cross_packet.h"
#include "epan-ext/decode/dcbx_announcement.h"
#include "epan-ext/decode/icmp.h"
#include "epan-ext/decode/packet.h"
#include "epan-ext/decode/pfc_frame.h"

namespace roceshark::decode {

enum class LinkType : uint8_t { ethernet, other };

// An ERF record (Endace DAG taps) holds Ethernet when its type, without the
// extension-header bit, is ETH, COLOR_ETH, DSM_COLOR_ETH or COLOR_HASH_ETH;
// libwiretap has already cut the 2-byte offset and pad in front of it.
constexpr LinkType erf_link(uint8_t erf_type) {
  switch (erf_type & 0x7f) {
    case 2: case 16: case 19: case 22: return LinkType::ethernet;
    default: return LinkType::other;
  }
}

struct FrameIn {
  std::span<const uint8_t> bytes;  // as captured
  uint32_t wire_len = 0;           // the frame's length on the wire
  LinkType link = LinkType::ethernet;
  uint32_t frame = 0;              // frame number, copied into the record
  uint32_t point = 0;              // capture point id
  uint64_t ts_ns = 0;
  bool check_icrc = true;          // the roce.icrc preference
};

// `cross`: TCP or UDP that is not RoCE (cross traffic), weighed against
// RoCE's queueing across points; front ends show nothing for it.
enum class Kind : uint8_t { roce, pause, dcbx, icmp, cross, not_ours };

// Why a frame is not ours, or why a RoCE packet is truncated.
enum class Reason : uint8_t {
  none,
  link_type,  // not Ethernet
  not_roce,   // Ethernet, but not RoCE, PFC/PAUSE, LLDP with DCBX or ICMP too-big about RoCE
  truncated,  // the capture's snaplen cut it at `where`
  malformed,  // a length field disagrees with the frame
};

struct Decoded {
  Kind kind = Kind::not_ours;
  Reason reason = Reason::none;
  const char* where = "";  // the layer or field the reason is about
  PacketInfo packet;       // kind roce; packet.truncated when the BTH was seen but cut
  pfc::PauseFrame pause;   // kind pause
  qos::DcbxAnnouncement dcbx;  // kind dcbx
  icmp::TooBig icmp;           // kind icmp
  CrossPacket cross;           // kind cross
  // For front ends that key capture points by them (roce.point_key):
  std::optional<uint16_t> erspan_session;  // of the outermost ERSPAN II/III header
  std::optional<uint16_t> outer_vlan;      // VLAN id of the frame's first 802.1Q/802.1ad tag
  bool outer_vlan_nearest = false;         // ... and it is the RoCE packet's only tag

  std::string reason_text() const;  // "truncated at UDP header", "malformed IPv4 total length", ...
  // Re-keys whichever record `kind` holds; a VLAN point takes its tag away
  // from the packet (the traffic's own tag is any inner one).
  void set_point(uint32_t point);
};

Decoded decode_frame(const FrameIn& in);

}  // namespace roceshark::decode
