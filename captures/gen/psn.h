// SPDX-License-Identifier: GPL-2.0-or-later
// The generator's own PSN arithmetic (IBA vol. 1, 9.7.1: 24 bits, modulo
// 2^24), kept apart from the engine's so that a misreading of the spec is
// not made, and passed, on both sides. Distances sign-extend the 24-bit
// difference rather than compare it with half the range, as the engine does.
#pragma once
#include <cstdint>

namespace roceshark::gen::psn {

inline constexpr uint32_t kMask = (1u << 24) - 1;

constexpr uint32_t add(uint32_t a, int64_t d) { return static_cast<uint32_t>(uint64_t(a) + uint64_t(d)) & kMask; }

// a - b as a signed 24-bit number: in [-2^23, 2^23).
constexpr int32_t diff(uint32_t a, uint32_t b) {
  return static_cast<int32_t>(((a - b) & kMask) << 8) >> 8;
}

static_assert(diff(0, kMask) == 1 && diff(kMask, 0) == -1 && diff(1u << 23, 0) == -(1 << 23));

}  // namespace roceshark::gen::psn
