// SPDX-License-Identifier: GPL-2.0-or-later
// Big-endian reads for the decoder. The caller has checked that the bytes
// were captured; these never look past `n` bytes from `p`.
#pragma once
#include <cstdint>

namespace roceshark::decode {

inline uint16_t be16(const uint8_t* p) { return static_cast<uint16_t>(p[0] << 8 | p[1]); }
inline uint32_t be24(const uint8_t* p) { return uint32_t{p[0]} << 16 | uint32_t{p[1]} << 8 | p[2]; }
inline uint32_t be32(const uint8_t* p) { return uint32_t{be16(p)} << 16 | be16(p + 2); }
inline uint64_t be64(const uint8_t* p) { return uint64_t{be32(p)} << 32 | be32(p + 4); }

}  // namespace roceshark::decode
