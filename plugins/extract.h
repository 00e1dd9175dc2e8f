// SPDX-License-Identifier: GPL-2.0-or-later
// The one place that knows Wireshark's field names: reads a RoCE packet out
// of the tree other dissectors built, into the engine's plain PacketInfo.
#pragma once
#include <epan/packet.h>

#include "epan-ext/dcbx.h"
#include "epan-ext/packet.h"
#include "epan-ext/pfc_frame.h"

namespace roceshark::glue {

enum class Extracted {
  not_roce,
  truncated,  // InfiniBand was dissected but the BTH didn't fit in the capture
  ok,         // a RoCE packet: `packet` is filled
  pause,      // a PFC (or 802.3x PAUSE) frame: `pause` is filled
  dcbx,       // an LLDP frame announcing DCBX PFC or APP settings: `dcbx` is filled
};

struct Extraction {
  Extracted kind = Extracted::not_roce;
  PacketInfo packet;
  pfc::PauseFrame pause;
  qos::DcbxAnnouncement dcbx;
};

// Resolves the field names; called once from the handoff.
void resolve_fields();
// The fields the postdissector needs primed in every tree.
GArray* wanted_fields();

Extraction extract(packet_info* pinfo, proto_tree* tree, bool check_icrc);

}  // namespace roceshark::glue
