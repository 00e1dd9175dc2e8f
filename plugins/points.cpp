// SPDX-License-Identifier: GPL-2.0-or-later
#include "plugins/points.h"

#include <epan/epan.h>
#include <wiretap/wtap.h>

#include "plugins/compat/ws_compat.h"

namespace roceshark::glue {
namespace {
points::Naming naming;
}

void set_point_naming(const points::Naming& n) { naming = n; }

uint32_t interface_point(const packet_info* pinfo) {
  return pinfo->rec && (pinfo->rec->presence_flags & WTAP_HAS_INTERFACE_ID)
             ? pinfo->rec->rec_header.packet_header.interface_id
             : 0;
}

uint32_t frame_point(const packet_info* pinfo, std::optional<uint16_t> erspan_session, std::optional<uint16_t> outer_vlan) {
  return points::frame_point(naming.key, interface_point(pinfo), erspan_session, outer_vlan);
}

std::string point_name(const packet_info* pinfo, uint32_t point) {
  return points::name(naming, point, points::is_interface(point) ? ws::interface_name(pinfo, point) : nullptr);
}

}  // namespace roceshark::glue
