// SPDX-License-Identifier: GPL-2.0-or-later
// Capture points: which key tells them apart (pcapng interface, ERSPAN
// session, outer VLAN: roce.point_key), their ids and their names
// (roce.point_names). Any front end keys and names them the same way.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace roceshark::points {

enum class Key : uint8_t { interface, erspan, vlan };

struct Naming {
  Key key = Key::interface;
  std::vector<std::pair<std::string, std::string>> names;  // key text -> name
};

// Point ids: the interface id; kErspan | session for ERSPAN; kVlan | VLAN id.
inline constexpr uint32_t kErspan = 0x01000000, kVlan = 0x02000000;

// Whether a point is an interface (whose name the capture file gives).
inline bool is_interface(uint32_t point) { return !(point & (kErspan | kVlan)); }

// The point of a decoded frame, by the key chosen; the interface's when the
// frame has no ERSPAN header or no VLAN tag.
uint32_t frame_point(Key key, uint32_t interface, std::optional<uint16_t> erspan_session,
                     std::optional<uint16_t> outer_vlan);

// The name a point gets: from the naming's names (by interface name or id,
// session or VLAN id), else its interface name, "if<id>" when the file
// names none (null or "unknown"), "erspan-N" or "vlan-N".
std::string name(const Naming& n, uint32_t point, const char* interface_name);

}  // namespace roceshark::points
