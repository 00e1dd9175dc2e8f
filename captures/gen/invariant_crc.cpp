// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/invariant_crc.h"

#include <zlib.h>

#include <vector>

namespace roceshark::gen {

uint32_t invariant_crc(std::span<const uint8_t> l3, IcrcL3 kind) {
  // The LRH RoCE has none of: 64 bits of ones in its place.
  std::vector<uint8_t> m(8, 0xFF);
  m.insert(m.end(), l3.begin(), l3.end());
  uint8_t* h = m.data() + 8;
  size_t bth;
  if (kind == IcrcL3::ipv4) {
    const size_t ihl = (h[0] & 0x0F) * 4u;
    h[1] = 0xFF;               // type of service (DSCP, ECN)
    h[8] = 0xFF;               // time to live
    h[10] = h[11] = 0xFF;      // header checksum
    h[ihl + 6] = h[ihl + 7] = 0xFF;  // UDP checksum
    bth = ihl + 8;
  } else {
    h[0] |= 0x0F;              // traffic class, low nibble
    h[1] = h[2] = h[3] = 0xFF; // traffic class, high nibble, and flow label
    h[7] = 0xFF;               // hop limit
    if (kind == IcrcL3::ipv6) {
      h[40 + 6] = h[40 + 7] = 0xFF;  // UDP checksum
      bth = 48;
    } else {
      bth = 40;
    }
  }
  h[bth + 4] = 0xFF;  // BTH FECN, BECN and reserved bits
  return static_cast<uint32_t>(crc32(0L, m.data(), static_cast<uInt>(m.size())));
}

}  // namespace roceshark::gen
