// SPDX-License-Identifier: GPL-2.0-or-later
// IEEE 802.1Qbb priority-based flow control frames (802.3 annex 31D):
//
//   dst 01:80:C2:00:00:01 | src (the pausing port) | 0x8808 |
//   opcode 0x0101 | class-enable vector (bit n = class n; upper byte 0) |
//   time[0] .. time[7] (quanta of 512 bit times) | zero pad to 60 bytes
//
// Untagged and without FCS, like every frame the generator writes.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <vector>

#include "captures/gen/addresses.h"

namespace roceshark::gen {

inline constexpr Mac kPfcDestination{0x01, 0x80, 0xC2, 0x00, 0x00, 0x01};
inline constexpr uint16_t kEthertypeMacControl = 0x8808;
inline constexpr uint16_t kOpcodePfc = 0x0101;
inline constexpr uint32_t kPfcFullLength = 14 + 2 + 2 + 8 * 2;  // up to the last pause time

struct PfcFields {
  Mac src{};
  Mac dst = kPfcDestination;
  uint8_t enable = 0;               // classes the frame speaks for
  uint8_t reserved = 0;             // upper byte of the vector: 0 unless testing receivers
  std::array<uint16_t, 8> quanta{};  // written only for enabled classes; others carry 0
  std::optional<uint32_t> truncate;  // cut the frame to this many bytes (a runt)
};

std::vector<uint8_t> build_pfc(const PfcFields& f);

}  // namespace roceshark::gen
