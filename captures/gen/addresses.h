// SPDX-License-Identifier: GPL-2.0-or-later
// Host addresses and their text forms.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace roceshark::gen {

using Mac = std::array<uint8_t, 6>;
using Ipv4 = std::array<uint8_t, 4>;
using Ipv6 = std::array<uint8_t, 16>;  // also a GID

std::optional<Mac> parse_mac(std::string_view text);  // "02:00:00:00:00:01"
std::optional<Ipv4> parse_ipv4(std::string_view text);
std::optional<Ipv6> parse_ipv6(std::string_view text);

// ::ffff:a.b.c.d, the GID a RoCEv2 IPv4 port uses (and the CM carries).
Ipv6 ipv4_mapped(const Ipv4& ip);
// fe80::/64 with the EUI-64 of the MAC: the default RoCEv1 GID.
Ipv6 link_local_gid(const Mac& mac);

}  // namespace roceshark::gen
