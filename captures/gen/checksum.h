// SPDX-License-Identifier: GPL-2.0-or-later
// The Internet checksum (RFC 1071) for IPv4 headers and UDP over IPv6.
#pragma once
#include <array>
#include <cstdint>
#include <span>

namespace roceshark::gen {

// One's-complement sum of 16-bit big-endian words, folded; an odd tail byte
// is padded with zero. Not complemented, so sums can be chained.
uint32_t ones_sum(std::span<const uint8_t> bytes, uint32_t sum = 0);
uint16_t fold_complement(uint32_t sum);

// Header checksum of an IPv4 header, treating its checksum field as zero.
uint16_t ipv4_header_checksum(std::span<const uint8_t> header);

// UDP checksum over the IPv6 pseudo-header (RFC 8200 8.1). `udp` is the UDP
// header and payload with the checksum field zero. A result of 0 is sent
// as 0xFFFF, because 0 means "no checksum" and IPv6 forbids that.
uint16_t udp6_checksum(const std::array<uint8_t, 16>& src, const std::array<uint8_t, 16>& dst,
                       std::span<const uint8_t> udp);

}  // namespace roceshark::gen
