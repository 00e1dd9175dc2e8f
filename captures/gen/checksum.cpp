// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/checksum.h"

namespace roceshark::gen {

uint32_t ones_sum(std::span<const uint8_t> bytes, uint32_t sum) {
  size_t i = 0;
  for (; i + 1 < bytes.size(); i += 2) {
    sum += uint32_t{bytes[i]} << 8 | bytes[i + 1];
    sum = (sum & 0xFFFF) + (sum >> 16);
  }
  if (i < bytes.size()) {
    sum += uint32_t{bytes[i]} << 8;
    sum = (sum & 0xFFFF) + (sum >> 16);
  }
  return sum;
}

uint16_t fold_complement(uint32_t sum) {
  while (sum >> 16) sum = (sum & 0xFFFF) + (sum >> 16);
  return static_cast<uint16_t>(~sum & 0xFFFF);
}

uint16_t ipv4_header_checksum(std::span<const uint8_t> header) {
  uint32_t sum = ones_sum(header.first(10));
  sum = ones_sum(header.subspan(12), sum);
  return fold_complement(sum);
}

uint16_t udp6_checksum(const std::array<uint8_t, 16>& src, const std::array<uint8_t, 16>& dst,
                       std::span<const uint8_t> udp) {
  const uint32_t len = static_cast<uint32_t>(udp.size());
  const std::array<uint8_t, 8> tail{static_cast<uint8_t>(len >> 24), static_cast<uint8_t>(len >> 16),
                                    static_cast<uint8_t>(len >> 8), static_cast<uint8_t>(len), 0, 0, 0, 17};
  uint32_t sum = ones_sum(src);
  sum = ones_sum(dst, sum);
  sum = ones_sum(tail, sum);
  sum = ones_sum(udp, sum);
  uint16_t c = fold_complement(sum);
  return c == 0 ? 0xFFFF : c;
}

}  // namespace roceshark::gen
