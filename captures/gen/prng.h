// SPDX-License-Identifier: GPL-2.0-or-later
// Deterministic randomness. Everything random in a capture comes from the
// scenario seed, so the same scenario always gives the same bytes.
#pragma once
#include <cstdint>
#include <span>

namespace roceshark::gen {

// SplitMix64 finaliser: a good 64-bit mix, used both as a stream and a hash.
constexpr uint64_t mix64(uint64_t x) {
  x += 0x9E3779B97F4A7C15ull;
  x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
  x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
  return x ^ (x >> 31);
}

// Order-sensitive combination, for keys such as (seed, qp, message, segment).
constexpr uint64_t hash_combine(uint64_t h, uint64_t v) { return mix64(h ^ mix64(v)); }

class Prng {
 public:
  explicit Prng(uint64_t seed) : state_(seed) {}
  uint64_t next() {
    state_ += 0x9E3779B97F4A7C15ull;
    return mix64(state_ - 0x9E3779B97F4A7C15ull);
  }
  // Uniform in [0, bound]; bound is small here so modulo bias is irrelevant.
  uint64_t upto(uint64_t bound) { return bound == 0 ? 0 : next() % (bound + 1); }

 private:
  uint64_t state_;
};

// Fills `out` with bytes that depend only on `key`: a retransmission
// regenerates exactly the payload of the original.
void fill_bytes(uint64_t key, std::span<uint8_t> out);

}  // namespace roceshark::gen
