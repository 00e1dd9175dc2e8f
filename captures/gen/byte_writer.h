// SPDX-License-Identifier: GPL-2.0-or-later
// Appends big-endian fields to a byte vector: the network order of every
// header the generator writes (only the ICRC is little-endian).
#pragma once
#include <cstdint>
#include <span>
#include <vector>

namespace roceshark::gen {

class ByteWriter {
 public:
  explicit ByteWriter(std::vector<uint8_t>& out) : out_(out) {}
  void u8(uint32_t v) { out_.push_back(static_cast<uint8_t>(v)); }
  void u16(uint32_t v) { u8(v >> 8), u8(v); }
  void u24(uint32_t v) { u8(v >> 16), u16(v); }
  void u32(uint32_t v) { u16(v >> 16), u16(v); }
  void u64(uint64_t v) { u32(static_cast<uint32_t>(v >> 32)), u32(static_cast<uint32_t>(v)); }
  void bytes(std::span<const uint8_t> b) { out_.insert(out_.end(), b.begin(), b.end()); }
  void zeros(size_t n) { out_.insert(out_.end(), n, 0); }
  size_t size() const { return out_.size(); }

 private:
  std::vector<uint8_t>& out_;
};

inline void put_u16(uint8_t* p, uint32_t v) {
  p[0] = static_cast<uint8_t>(v >> 8);
  p[1] = static_cast<uint8_t>(v);
}
inline uint32_t get_u16(const uint8_t* p) { return uint32_t{p[0]} << 8 | p[1]; }

}  // namespace roceshark::gen
