// SPDX-License-Identifier: GPL-2.0-or-later
// Capture points: which key tells them apart (pcapng interface, ERSPAN
// session, outer VLAN) and what they are called.
#pragma once
#include <epan/packet.h>

#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace roceshark::glue {

enum class PointKey : uint8_t { interface, erspan, vlan };
std::optional<PointKey> parse_point_key(const std::string& text);

struct PointNaming {
  PointKey key = PointKey::interface;
  std::vector<std::pair<std::string, std::string>> names;  // key text -> name
};
void set_point_naming(const PointNaming& n);
PointKey point_key();

// Point ids: the interface id; 0x01000000 | session for ERSPAN; 0x02000000 | VLAN id.
inline constexpr uint32_t kErspanPoint = 0x01000000, kVlanPoint = 0x02000000;
uint32_t interface_point(const packet_info* pinfo);
// The point of a decoded frame, by the key roce.point_key chooses; the
// interface's when the frame has no ERSPAN header or no VLAN tag.
uint32_t frame_point(const packet_info* pinfo, std::optional<uint16_t> erspan_session, std::optional<uint16_t> outer_vlan);
// The name a point gets: from roce.point_names, else its interface name,
// "erspan-N" or "vlan-N".
std::string point_name(const packet_info* pinfo, uint32_t point);

}  // namespace roceshark::glue
