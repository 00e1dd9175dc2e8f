// SPDX-License-Identifier: GPL-2.0-or-later
// The generator's own RoCE ICRC (IBA vol. 1 A16.5, A17.4.1.5), kept apart
// from the engine's and computed with zlib's CRC-32, so that the two are
// independent readings of the spec; tests/captures checks the generator's
// against scapy's.
#pragma once
#include <cstdint>
#include <span>

namespace roceshark::gen {

enum class IcrcL3 : uint8_t { ipv4, ipv6, grh };

// `l3` runs from the L3 header (IPv4, IPv6, or RoCEv1's GRH) to just before
// the ICRC; the headers are the generator's own, so well formed.
uint32_t invariant_crc(std::span<const uint8_t> l3, IcrcL3 kind);

}  // namespace roceshark::gen
