// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/icmp_frame.h"

#include <algorithm>
#include <array>

#include "captures/gen/byte_writer.h"
#include "captures/gen/checksum.h"

namespace roceshark::gen {

std::vector<uint8_t> build_icmp_too_big(const IcmpFields& f) {
  constexpr size_t kEth = 14, kIcmp = 8;
  const size_t ip = f.v6 ? 40 : 20;
  const size_t quote = std::min(f.packet.size(), (f.v6 ? kIcmp6Max : kIcmp4Max) - ip - kIcmp);
  const auto len = static_cast<uint16_t>(ip + kIcmp + quote);
  std::vector<uint8_t> out;
  ByteWriter w(out);
  w.bytes(f.dst);
  w.bytes(f.src);
  if (f.v6) {
    w.u16(0x86DD);
    w.u32(0x60000000);  // version 6, traffic class 0, no flow label
    w.u16(static_cast<uint16_t>(len - ip));
    w.u8(58);
    w.u8(f.ttl);
    w.bytes(f.router6);
    w.bytes(f.to6);
    w.u8(2), w.u8(0), w.u16(0);
    w.u32(f.mtu);
  } else {
    w.u16(0x0800);
    w.u8(0x45), w.u8(48 << 2);  // routers send ICMP as network control (CS6)
    w.u16(len);
    w.u16(0), w.u16(0);  // ID, no flags
    w.u8(f.ttl), w.u8(1), w.u16(0);
    w.bytes(f.router4);
    w.bytes(f.to4);
    w.u8(3), w.u8(4), w.u16(0);
    w.u16(0), w.u16(static_cast<uint16_t>(f.mtu));
  }
  out.insert(out.end(), f.packet.begin(), f.packet.begin() + static_cast<std::ptrdiff_t>(quote));
  const std::span<uint8_t> icmp(out.data() + kEth + ip, kIcmp + quote);
  uint16_t sum;
  if (f.v6) {
    const auto n = static_cast<uint32_t>(icmp.size());  // the pseudo-header: addresses, length, next header 58
    const std::array<uint8_t, 8> tail{static_cast<uint8_t>(n >> 24), static_cast<uint8_t>(n >> 16),
                                      static_cast<uint8_t>(n >> 8), static_cast<uint8_t>(n), 0, 0, 0, 58};
    sum = fold_complement(ones_sum(icmp, ones_sum(tail, ones_sum(f.to6, ones_sum(f.router6)))));
  } else {
    sum = fold_complement(ones_sum(icmp));
    const uint16_t hs = ipv4_header_checksum({out.data() + kEth, ip});
    out[kEth + 10] = static_cast<uint8_t>(hs >> 8), out[kEth + 11] = static_cast<uint8_t>(hs);
  }
  icmp[2] = static_cast<uint8_t>(sum >> 8), icmp[3] = static_cast<uint8_t>(sum);
  out.resize(std::max<size_t>(out.size(), 60), 0);  // the 64-byte minimum less the FCS
  return out;
}

}  // namespace roceshark::gen
