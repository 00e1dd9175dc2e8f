// SPDX-License-Identifier: GPL-2.0-or-later
// BTH opcodes the generator emits (IBA vol. 1 table 38; CNP from annex A17).
#pragma once
#include <cstdint>

namespace roceshark::gen::op {

inline constexpr uint8_t kSendFirst = 0x00;
inline constexpr uint8_t kSendMiddle = 0x01;
inline constexpr uint8_t kSendLast = 0x02;
inline constexpr uint8_t kSendLastImm = 0x03;
inline constexpr uint8_t kSendOnly = 0x04;
inline constexpr uint8_t kSendOnlyImm = 0x05;
inline constexpr uint8_t kWriteFirst = 0x06;
inline constexpr uint8_t kWriteMiddle = 0x07;
inline constexpr uint8_t kWriteLast = 0x08;
inline constexpr uint8_t kWriteLastImm = 0x09;
inline constexpr uint8_t kWriteOnly = 0x0A;
inline constexpr uint8_t kWriteOnlyImm = 0x0B;
inline constexpr uint8_t kReadRequest = 0x0C;
inline constexpr uint8_t kReadRespFirst = 0x0D;
inline constexpr uint8_t kReadRespMiddle = 0x0E;
inline constexpr uint8_t kReadRespLast = 0x0F;
inline constexpr uint8_t kReadRespOnly = 0x10;
inline constexpr uint8_t kAck = 0x11;
inline constexpr uint8_t kAtomicAck = 0x12;
inline constexpr uint8_t kCmpSwap = 0x13;
inline constexpr uint8_t kFetchAdd = 0x14;
inline constexpr uint8_t kUdSendOnly = 0x64;
inline constexpr uint8_t kCnp = 0x81;

constexpr bool is_atomic_request(uint8_t o) { return o == kCmpSwap || o == kFetchAdd; }

// Position of an RC request or READ RESPONSE packet within its message.
constexpr bool starts_message(uint8_t o) {
  return o == kSendFirst || o == kSendOnly || o == kSendOnlyImm || o == kWriteFirst || o == kWriteOnly ||
         o == kWriteOnlyImm || o == kReadRequest || o == kReadRespFirst || o == kReadRespOnly || is_atomic_request(o);
}
constexpr bool ends_message(uint8_t o) {
  return o == kSendLast || o == kSendLastImm || o == kSendOnly || o == kSendOnlyImm || o == kWriteLast ||
         o == kWriteLastImm || o == kWriteOnly || o == kWriteOnlyImm || o == kReadRequest || o == kReadRespLast ||
         o == kReadRespOnly || is_atomic_request(o);
}

}  // namespace roceshark::gen::op
