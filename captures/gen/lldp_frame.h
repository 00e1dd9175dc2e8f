// SPDX-License-Identifier: GPL-2.0-or-later
// LLDPDUs (IEEE 802.1AB) carrying the DCBX TLVs of IEEE 802.1Qaz:
//
//   dst 01:80:C2:00:00:0E | src | 0x88CC |
//   Chassis ID (subtype 4, MAC) | Port ID (subtype 5, interface name) | TTL |
//   [PFC Configuration: OUI 00-80-C2, subtype 0x0B,
//      willing (1) | MBC (1) | reserved (2) | PFC cap (4), enable bitmap]
//   [Application Priority: OUI 00-80-C2, subtype 0x0C, reserved byte, then
//      per entry priority (3) | reserved (2) | selector (3), protocol (16)]
//   [ETS Configuration: OUI 00-80-C2, subtype 0x09, willing (1) | CBS (1) |
//      reserved (3) | max TCs (3, 0 = 8), priority -> TC (8 x 4 bits),
//      TC bandwidth % (8), TC algorithm (8: 0 strict, 2 ETS)]
//   [Maximum Frame Size: OUI 00-12-0F (IEEE 802.3), subtype 4, 16 bits]
//   End | zero pad to 60 bytes
//
// A TLV header is type (7 bits) | length (9 bits). Selector 5 means the
// protocol field is a DSCP.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "captures/gen/addresses.h"

namespace roceshark::gen {

inline constexpr Mac kLldpDestination{0x01, 0x80, 0xC2, 0x00, 0x00, 0x0E};
inline constexpr uint16_t kEthertypeLldp = 0x88CC;
inline constexpr uint8_t kAppSelectorDscp = 5;

struct LldpApp {
  uint8_t priority = 0;
  uint8_t selector = kAppSelectorDscp;
  uint16_t protocol = 0;  // the DSCP, for selector 5
};

struct LldpFields {
  Mac src{};
  std::string port;  // Port ID: the interface name
  uint16_t ttl = 120;
  std::optional<uint8_t> pfc_enable;  // no PFC TLV without it
  bool willing = false, mbc = false;
  uint8_t pfc_cap = 8;
  std::vector<LldpApp> app;  // no Application Priority TLV when empty
  uint16_t max_frame = 0;    // no Maximum Frame Size TLV when 0
  struct Ets {
    std::array<uint8_t, 8> tc{}, bw{}, tsa{};  // by priority; by class; by class (0 strict, 2 ETS)
  };
  std::optional<Ets> ets;    // no ETS Configuration TLV without it
};

std::vector<uint8_t> build_lldp(const LldpFields& f);

}  // namespace roceshark::gen
