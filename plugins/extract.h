// SPDX-License-Identifier: GPL-2.0-or-later
// The one place that knows Wireshark's field names: reads a RoCE packet out
// of the tree other dissectors built, into the engine's plain PacketInfo.
#pragma once
#include <epan/packet.h>

#include "epan-ext/packet.h"

namespace roceshark::glue {

enum class Extracted {
  not_roce,
  truncated,  // InfiniBand was dissected but the BTH didn't fit in the capture
  ok,
};

// Resolves the field names; called once from the handoff.
void resolve_fields();
// The fields the postdissector needs primed in every tree.
GArray* wanted_fields();

Extracted extract(packet_info* pinfo, proto_tree* tree, bool check_icrc, PacketInfo& out);

}  // namespace roceshark::glue
