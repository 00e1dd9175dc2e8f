// SPDX-License-Identifier: GPL-2.0-or-later
// AETH syndromes (IBA vol. 1 table 42): bits 6:5 say ACK / RNR NAK / NAK.
#pragma once
#include <cstdint>

namespace roceshark::gen::aeth {

inline constexpr uint8_t kAckInvalidCredit = 0x1F;  // ACK, "credit count invalid"
inline constexpr uint8_t kNakPsnSeqError = 0x60;
inline constexpr uint8_t kNakInvalidRequest = 0x61;
inline constexpr uint8_t kNakRemoteAccess = 0x62;
inline constexpr uint8_t kNakRemoteOperational = 0x63;

constexpr uint8_t rnr_nak(uint8_t timer_code) { return static_cast<uint8_t>(0x20 | (timer_code & 0x1F)); }
constexpr bool is_ack(uint8_t s) { return (s & 0x60) == 0x00; }
constexpr bool is_rnr(uint8_t s) { return (s & 0x60) == 0x20; }
constexpr bool is_nak(uint8_t s) { return (s & 0x60) == 0x60; }

}  // namespace roceshark::gen::aeth
