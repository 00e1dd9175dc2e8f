// SPDX-License-Identifier: GPL-2.0-or-later
// A TCP or UDP packet that is not RoCE, as the decoder hands it over: the
// best-effort traffic weighed against RoCE's queueing across points.
#pragma once
#include <cstdint>

#include "epan-ext/decode/address.h"

namespace roceshark {

// One non-RoCE TCP or UDP packet as the decoder hands it over.
struct CrossPacket {
  uint32_t frame = 0;
  uint64_t ts_ns = 0;
  uint32_t point = 0;
  Address src, dst;
  uint8_t proto = 0;          // 6 TCP, 17 UDP
  uint16_t sport = 0, dport = 0;
  uint16_t ip_id = 0;         // IPv4 only
  uint32_t seq = 0;           // TCP sequence number; UDP: the first 4 payload bytes (as captured)
  uint32_t ip_len = 0;
  uint32_t frame_len = 0;     // on the wire
  uint8_t dscp = 0;
  int8_t pcp = -1;

  // What identifies the same packet at every point.
  uint64_t identity() const {
    uint64_t h = hash_address(dst, hash_address(src));
    const uint32_t words[] = {uint32_t{proto} << 16 | ip_id, uint32_t{sport} << 16 | dport, seq, ip_len};
    return hash_bytes(reinterpret_cast<const uint8_t*>(words), sizeof words, h);
  }
};

}  // namespace roceshark
