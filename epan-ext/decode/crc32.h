// SPDX-License-Identifier: GPL-2.0-or-later
// CRC-32 (IEEE 802.3, reflected 0xEDB88320), incremental, slicing-by-8.
#pragma once
#include <cstddef>
#include <cstdint>
#include <span>

namespace roceshark {

class Crc32 {
 public:
  void update(std::span<const uint8_t> bytes);
  void update_ones(size_t count);  // feed `count` bytes of 0xFF
  uint32_t value() const { return ~state_; }

 private:
  uint32_t state_ = 0xFFFFFFFFu;
};

}  // namespace roceshark
