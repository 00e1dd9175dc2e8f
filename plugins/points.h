// SPDX-License-Identifier: GPL-2.0-or-later
// Capture points in Wireshark: the interface a frame came from, keyed and
// named by the engine's rules (epan-ext/common/points.h) with roce.point_key and
// roce.point_names.
#pragma once
#include <epan/packet.h>

#include <optional>
#include <string>

#include "epan-ext/common/points.h"

namespace roceshark::glue {

void set_point_naming(const points::Naming& n);
uint32_t interface_point(const packet_info* pinfo);
// The point of a decoded frame (points::frame_point with the naming's key).
uint32_t frame_point(const packet_info* pinfo, std::optional<uint16_t> erspan_session, std::optional<uint16_t> outer_vlan);
std::string point_name(const packet_info* pinfo, uint32_t point);

}  // namespace roceshark::glue
