// SPDX-License-Identifier: GPL-2.0-or-later
// The DCBX part of an LLDP PDU (IEEE 802.1AB TLVs, 802.1Qaz organisationally
// specific TLVs with OUI 00-80-C2):
//   TLV header: type (7 bits) | length (9 bits); type 127 = OUI (3) | subtype (1) | info
//   PFC Configuration (subtype 0x0B): willing/MBC/cap | enable bitmap
//   ETS Configuration (0x09): willing/CBS/max TCs, and ETS Recommendation
//     (0x0A): reserved; then both: priority -> TC (8 x 4 bits, priority 0
//     high), TC bandwidth % (8 bytes), TC selection algorithm (8 bytes)
//   Application Priority (subtype 0x0C): reserved | entries of
//     priority (3 bits) | reserved (2) | selector (3) | protocol (16); selector 5 = DSCP
// and the IEEE 802.3 one (OUI 00-12-0F) that bounds the frames a port takes:
//   Maximum Frame Size (subtype 4): 16 bits, FCS included
// Read from the bytes: Wireshark 4.0 calls selector 5 "Reserved".
#pragma once
#include <cstdint>
#include <optional>
#include <span>

#include "epan-ext/decode/dcbx_announcement.h"

namespace roceshark::qos {

// The PFC, DSCP APP and maximum frame size settings an LLDP PDU announces,
// or nothing when it carries none of them. Point and MAC are left for the
// caller.
std::optional<DcbxAnnouncement> parse_lldp_dcbx(std::span<const uint8_t> pdu);

}  // namespace roceshark::qos
