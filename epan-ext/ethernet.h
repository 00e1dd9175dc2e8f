// SPDX-License-Identifier: GPL-2.0-or-later
// The Ethernet header and VLAN tags in front of a packet's L3 header.
//
//   dst MAC (6) | src MAC (6) | [TPID 0x8100/0x88A8/0x9100 | TCI (PCP:3 DEI:1 VID:12)]... | EtherType
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

namespace roceshark {

using Mac = std::array<uint8_t, 6>;
std::string mac_to_string(const Mac& m);

struct L2Header {
  Mac dst{}, src{};
  int8_t pcp = -1;     // of the tag nearest the payload; -1 untagged
  uint16_t vid = 0;
  uint16_t ethertype = 0;
};

// Parses forward from the start of an Ethernet frame and succeeds only if
// the EtherType after the tags ends exactly at `payload_offset`: whatever
// tunnels the frame (ERSPAN, VXLAN), the header found is the one in front
// of that payload, or none.
std::optional<L2Header> parse_l2(std::span<const uint8_t> frame, size_t payload_offset);

}  // namespace roceshark
