// SPDX-License-Identifier: GPL-2.0-or-later
// PSN arithmetic: 24-bit, modulo 2^24 everywhere (IBA vol. 1, 9.7.1).
#pragma once
#include <cstdint>

namespace roceshark::psn {

inline constexpr uint32_t kMask = 0xFFFFFFu;
inline constexpr uint32_t kHalf = 0x800000u;

constexpr uint32_t add(uint32_t a, int64_t d) {
  return static_cast<uint32_t>((static_cast<int64_t>(a) + d) & kMask);
}

// Signed distance a - b, in [-2^23, 2^23): "a is after b" when positive.
constexpr int32_t diff(uint32_t a, uint32_t b) {
  uint32_t d = (a - b) & kMask;
  return d >= kHalf ? static_cast<int32_t>(d) - static_cast<int32_t>(kMask + 1) : static_cast<int32_t>(d);
}

constexpr bool after(uint32_t a, uint32_t b) { return diff(a, b) > 0; }
constexpr bool at_or_after(uint32_t a, uint32_t b) { return diff(a, b) >= 0; }

}  // namespace roceshark::psn
