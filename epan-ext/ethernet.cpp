// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/ethernet.h"

#include <algorithm>
#include <cstdio>

namespace roceshark {
namespace {
constexpr size_t kMacs = 12;
constexpr int kMaxTags = 3;

bool is_tpid(uint16_t t) { return t == 0x8100 || t == 0x88A8 || t == 0x9100; }
uint16_t be16(const uint8_t* p) { return static_cast<uint16_t>(p[0] << 8 | p[1]); }
}  // namespace

std::string mac_to_string(const Mac& m) {
  char b[18];
  std::snprintf(b, sizeof b, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2], m[3], m[4], m[5]);
  return b;
}

std::optional<L2Header> parse_l2(std::span<const uint8_t> frame, size_t payload_offset) {
  if (payload_offset > frame.size() || payload_offset < kMacs + 2) return std::nullopt;
  L2Header h;
  std::copy_n(frame.begin(), 6, h.dst.begin());
  std::copy_n(frame.begin() + 6, 6, h.src.begin());
  size_t at = kMacs;
  for (int tags = 0; at + 2 <= payload_offset; ++tags) {
    const uint16_t type = be16(&frame[at]);
    if (!is_tpid(type) || tags == kMaxTags) {
      h.ethertype = type;
      at += 2;
      break;
    }
    if (at + 4 > payload_offset) return std::nullopt;
    const uint16_t tci = be16(&frame[at + 2]);
    h.pcp = static_cast<int8_t>(tci >> 13);
    h.vid = tci & 0x0FFF;
    at += 4;
  }
  if (at != payload_offset) return std::nullopt;
  return h;
}

}  // namespace roceshark
