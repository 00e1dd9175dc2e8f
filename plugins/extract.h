// SPDX-License-Identifier: GPL-2.0-or-later
// Glue between Wireshark and the frame decoder (epan-ext/decode/): hands it
// the frame's bytes, wire length, link type, capture point and time.
#pragma once
#include <epan/packet.h>

#include "epan-ext/decode/frame_decoder.h"

namespace roceshark::glue {

// The frame `tvb` (the postdissector's top-level tvb) decoded, its point
// keyed by roce.point_key.
decode::Decoded extract(tvbuff_t* tvb, packet_info* pinfo, bool check_icrc);
// The frame's stamp in ns (mod 2^64: the engine's clock copes with any value).
uint64_t frame_ts(const packet_info* pinfo);

}  // namespace roceshark::glue
