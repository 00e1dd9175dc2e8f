// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/addresses.h"

#include <arpa/inet.h>

#include <charconv>

namespace roceshark::gen {

std::optional<Mac> parse_mac(std::string_view text) {
  Mac mac{};
  if (text.size() != 17) return std::nullopt;
  for (size_t i = 0; i < 6; ++i) {
    const char* p = text.data() + 3 * i;
    if (i < 5 && p[2] != ':') return std::nullopt;
    auto [end, ec] = std::from_chars(p, p + 2, mac[i], 16);
    if (ec != std::errc{} || end != p + 2) return std::nullopt;
  }
  return mac;
}

std::optional<Ipv4> parse_ipv4(std::string_view text) {
  Ipv4 ip{};
  std::string s(text);
  if (inet_pton(AF_INET, s.c_str(), ip.data()) != 1) return std::nullopt;
  return ip;
}

std::optional<Ipv6> parse_ipv6(std::string_view text) {
  Ipv6 ip{};
  std::string s(text);
  if (inet_pton(AF_INET6, s.c_str(), ip.data()) != 1) return std::nullopt;
  return ip;
}

Ipv6 ipv4_mapped(const Ipv4& ip) {
  Ipv6 g{};
  g[10] = g[11] = 0xFF;
  for (size_t i = 0; i < 4; ++i) g[12 + i] = ip[i];
  return g;
}

Ipv6 link_local_gid(const Mac& mac) {
  Ipv6 g{};
  g[0] = 0xFE;
  g[1] = 0x80;
  g[8] = static_cast<uint8_t>(mac[0] ^ 0x02);  // universal/local bit flipped, RFC 4291 app. A
  g[9] = mac[1];
  g[10] = mac[2];
  g[11] = 0xFF;
  g[12] = 0xFE;
  g[13] = mac[3];
  g[14] = mac[4];
  g[15] = mac[5];
  return g;
}

}  // namespace roceshark::gen
