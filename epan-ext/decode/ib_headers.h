// SPDX-License-Identifier: GPL-2.0-or-later
// The InfiniBand transport headers of a RoCE packet (IBA vol. 1 9.2-9.3):
//
//   BTH (12): opcode | SE M pad:2 tver:4 | P_Key | F B resv6 | dest QP:24 | A resv7 | PSN:24
//   then, by opcode: XRCETH (4, XRC requests) | AETH (4): syndrome | MSN:24
//   | RETH (16): VA:64 | R_Key | DMA length   | AtomicETH (28): VA | R_Key | swap/add:64 | compare:64
//   | DETH (8, UD): Q_Key | resv8 | src QP:24, and to QP1 a CM MAD (IBA 13.4, 12.6)
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>

#include "epan-ext/decode/packet.h"

namespace roceshark::decode {

inline constexpr size_t kBthLen = 12;

// Reads the BTH at `bth` and the extended headers its opcode implies into
// `out`. False when a header the opcode requires (BTH, AETH) was cut by the
// snaplen. RETH, AtomicETH and the CM fields are filled only when captured.
bool read_transport(std::span<const uint8_t> frame, size_t bth, PacketInfo& out);

// The BTH pad count (bits 4-5 of byte 1); the BTH is captured.
inline uint8_t bth_pad(std::span<const uint8_t> frame, size_t bth) {
  return static_cast<uint8_t>((frame[bth + 1] >> 4) & 0x3);
}

}  // namespace roceshark::decode
