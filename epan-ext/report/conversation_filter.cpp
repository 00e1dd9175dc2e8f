// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/report/conversation_filter.h"

namespace roceshark::conversation {

const char* address_field(Family f, Side s) {
  const bool v4 = f == Family::ipv4;
  switch (s) {
    case Side::src: return v4 ? "roce.ip.src" : "roce.ipv6.src";
    case Side::dst: return v4 ? "roce.ip.dst" : "roce.ipv6.dst";
    case Side::any: return v4 ? "roce.ip.addr" : "roce.ipv6.addr";
  }
  return "";
}

std::string filter_field(uint32_t stream, Family f, Side s) {
  return "roce.qp.stream == " + std::to_string(stream) + " && " + address_field(f, s);
}

}  // namespace roceshark::conversation
