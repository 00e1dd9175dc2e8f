// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/decode/icrc.h"

#include <array>
#include <cstring>

#include "epan-ext/decode/crc32.h"

namespace roceshark {
namespace {

constexpr size_t kUdpLen = 8;
constexpr size_t kBthLen = 12;
constexpr size_t kIpv6Len = 40;
constexpr uint8_t kUdpProto = 17;
constexpr uint8_t kGrhNextHeaderBth = 0x1B;

void set_ones(uint8_t* p, size_t n) { std::memset(p, 0xFF, n); }

// Masks the IPv6/GRH variant fields in place: traffic class, flow label, hop limit.
void mask_v6_header(uint8_t* h) {
  h[0] |= 0x0F;
  set_ones(h + 1, 3);
  h[7] = 0xFF;
}

}  // namespace

std::optional<uint32_t> compute_icrc(std::span<const uint8_t> l3, L3Kind kind) {
  size_t l3_len = 0;
  bool has_udp = true;
  switch (kind) {
    case L3Kind::ipv4:
      if (l3.size() < 20 || (l3[0] >> 4) != 4 || l3[9] != kUdpProto) return std::nullopt;
      l3_len = size_t{l3[0] & 0x0Fu} * 4;
      break;
    case L3Kind::ipv6:
      if (l3.size() < kIpv6Len || (l3[0] >> 4) != 6 || l3[6] != kUdpProto) return std::nullopt;
      l3_len = kIpv6Len;
      break;
    case L3Kind::grh:
      if (l3.size() < kIpv6Len || l3[6] != kGrhNextHeaderBth) return std::nullopt;
      l3_len = kIpv6Len;
      has_udp = false;
      break;
  }
  const size_t head_len = l3_len + (has_udp ? kUdpLen : 0) + kBthLen;
  if (l3_len < 20 || l3.size() < head_len) return std::nullopt;

  std::array<uint8_t, 60 + kUdpLen + kBthLen> head{};
  std::memcpy(head.data(), l3.data(), head_len);
  if (kind == L3Kind::ipv4) {
    head[1] = 0xFF;         // TOS
    head[8] = 0xFF;         // TTL
    set_ones(&head[10], 2); // header checksum
  } else {
    mask_v6_header(head.data());
  }
  if (has_udp) set_ones(&head[l3_len + 6], 2);  // UDP checksum
  head[head_len - kBthLen + 4] = 0xFF;           // BTH resv8a: FECN, BECN, reserved

  Crc32 crc;
  crc.update_ones(8);
  crc.update(std::span(head).first(head_len));
  crc.update(l3.subspan(head_len));
  return crc.value();
}

}  // namespace roceshark
