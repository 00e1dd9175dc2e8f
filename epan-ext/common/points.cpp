// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/common/points.h"

#include <cstring>

#include "epan-ext/common/printable.h"

namespace roceshark::points {

uint32_t frame_point(Key key, uint32_t interface, std::optional<uint16_t> erspan_session,
                     std::optional<uint16_t> outer_vlan) {
  if (key == Key::erspan && erspan_session) return kErspan | *erspan_session;
  if (key == Key::vlan && outer_vlan) return kVlan | *outer_vlan;
  return interface;
}

namespace {

std::string raw_name(const Naming& n, uint32_t point, const char* interface_name) {
  std::string key, fallback;
  if (is_interface(point)) {
    key = std::to_string(point);
    const bool named = interface_name && *interface_name && std::strcmp(interface_name, "unknown") != 0;
    fallback = named ? interface_name : "if" + key;
    for (const auto& [k, name] : n.names)
      if (named && k == interface_name) return name;
  } else if (point & kErspan) {
    key = std::to_string(point & 0xFFFFFF);
    fallback = "erspan-" + key;
  } else {
    key = std::to_string(point & 0xFFFFFF);
    fallback = "vlan-" + key;
  }
  for (const auto& [k, name] : n.names)
    if (k == key) return name;
  return fallback;
}

}  // namespace

// A name reaches terminals, text reports and SVGs: an interface name with a
// newline or an escape sequence must not forge a line or drive the terminal.
std::string name(const Naming& n, uint32_t point, const char* interface_name) {
  return printable(raw_name(n, point, interface_name));
}

}  // namespace roceshark::points
