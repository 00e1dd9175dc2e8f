// SPDX-License-Identifier: GPL-2.0-or-later
// An IPv4 address, or an IPv6 address / RoCEv1 GID: the endpoints of a QP flow.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>

namespace roceshark {

struct Address {
  std::array<uint8_t, 16> bytes{};
  uint8_t len = 0;  // 4 or 16; 0 = unknown

  static Address from(std::span<const uint8_t> raw);
  bool operator==(const Address&) const = default;
  std::string to_string() const;
};

// FNV-1a over n bytes.
inline uint64_t hash_bytes(const uint8_t* p, size_t n, uint64_t h = 1469598103934665603ull) {
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}

// Two 64-bit words and a multiply each, not FNV's byte at a time: it runs
// several times a packet. operator== compares all 16 bytes, so all are mixed.
inline uint64_t hash_address(const Address& a, uint64_t seed = 1469598103934665603ull) {
  uint64_t w[2];
  std::memcpy(w, a.bytes.data(), sizeof w);
  uint64_t h = seed ^ a.len;
  for (uint64_t x : w) {
    h = (h ^ x) * 0x9E3779B97F4A7C15ull;
    h ^= h >> 29;
  }
  return h;
}

}  // namespace roceshark
