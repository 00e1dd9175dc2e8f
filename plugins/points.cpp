// SPDX-License-Identifier: GPL-2.0-or-later
#include "plugins/points.h"

#include <epan/epan.h>
#include <wiretap/wtap.h>

#include <cstring>

#include "plugins/ws_compat.h"

namespace roceshark::glue {
namespace {
PointNaming naming;
}

std::optional<PointKey> parse_point_key(const std::string& text) {
  if (text == "interface") return PointKey::interface;
  if (text == "erspan") return PointKey::erspan;
  if (text == "vlan") return PointKey::vlan;
  return std::nullopt;
}

void set_point_naming(const PointNaming& n) { naming = n; }
PointKey point_key() { return naming.key; }

uint32_t interface_point(const packet_info* pinfo) {
  return pinfo->rec && (pinfo->rec->presence_flags & WTAP_HAS_INTERFACE_ID)
             ? pinfo->rec->rec_header.packet_header.interface_id
             : 0;
}

uint32_t frame_point(const packet_info* pinfo, std::optional<uint16_t> erspan_session, std::optional<uint16_t> outer_vlan) {
  switch (point_key()) {
    case PointKey::interface: break;
    case PointKey::erspan:
      if (erspan_session) return kErspanPoint | *erspan_session;
      break;
    case PointKey::vlan:
      if (outer_vlan) return kVlanPoint | *outer_vlan;
      break;
  }
  return interface_point(pinfo);
}

std::string point_name(const packet_info* pinfo, uint32_t point) {
  std::string key, fallback;
  if (point & kErspanPoint) {
    key = std::to_string(point & 0xFFFFFF);
    fallback = "erspan-" + key;
  } else if (point & kVlanPoint) {
    key = std::to_string(point & 0xFFFFFF);
    fallback = "vlan-" + key;
  } else {
    key = std::to_string(point);
    // Files without interface names (pcap) report "unknown": name the point by its id.
    const char* name = ws::interface_name(pinfo, point);
    const bool named = name && *name && std::strcmp(name, "unknown") != 0;
    fallback = named ? name : "if" + key;
    for (const auto& [k, n] : naming.names)
      if (named && k == name) return n;
  }
  for (const auto& [k, n] : naming.names)
    if (k == key) return n;
  return fallback;
}

}  // namespace roceshark::glue
