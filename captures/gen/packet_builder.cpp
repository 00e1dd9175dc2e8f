// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/packet_builder.h"

#include <algorithm>

#include "captures/gen/byte_writer.h"
#include "captures/gen/checksum.h"
#include "captures/gen/invariant_crc.h"

namespace roceshark::gen {
namespace {

constexpr size_t kMinFrame = 60;  // 64-byte minimum less the FCS
constexpr uint8_t kGrhNextHeaderBth = 0x1B;
constexpr uint8_t kIpProtoUdp = 17;

// Version, traffic class and flow label: the first word of IPv6 and GRH.
void put_v6_word0(ByteWriter& w, uint8_t tclass, uint32_t flow_label) {
  w.u32(uint32_t{6} << 28 | uint32_t{tclass} << 20 | (flow_label & 0xFFFFF));
}

void put_bth(ByteWriter& w, const Bth& b) {
  w.u8(b.opcode);
  w.u8((b.solicited ? 0x80u : 0u) | (b.migreq ? 0x40u : 0u) | uint32_t{b.pad & 3u} << 4);  // TVer 0
  w.u16(b.pkey);
  w.u8((b.fecn ? 0x80u : 0u) | (b.becn ? 0x40u : 0u));
  w.u24(b.dest_qp);
  w.u8(b.ackreq ? 0x80u : 0u);
  w.u24(b.psn);
}

void put_extensions(ByteWriter& w, const Extensions& e) {
  if (e.reth) w.u64(e.reth->va), w.u32(e.reth->rkey), w.u32(e.reth->dma_len);
  if (e.atomic) w.u64(e.atomic->va), w.u32(e.atomic->rkey), w.u64(e.atomic->swap_add), w.u64(e.atomic->compare);
  if (e.aeth) w.u8(e.aeth->syndrome), w.u24(e.aeth->msn);
  if (e.atomic_ack) w.u64(*e.atomic_ack);
  if (e.deth) w.u32(e.deth->qkey), w.u8(0), w.u24(e.deth->src_qp);
  if (e.imm) w.u32(*e.imm);
}

IcrcL3 icrc_kind(Transport t) {
  switch (t) {
    case Transport::v2_ipv4: return IcrcL3::ipv4;
    case Transport::v2_ipv6: return IcrcL3::ipv6;
    case Transport::v1: return IcrcL3::grh;
  }
  return IcrcL3::ipv4;
}

size_t l3_header_len(Transport t) { return t == Transport::v2_ipv4 ? 20 : 40; }

}  // namespace

BuiltFrame build_frame(const LinkHeader& l2, const NetHeader& l3, const Bth& bth, const Extensions& ext,
                       std::span<const uint8_t> payload) {
  BuiltFrame f;
  auto& out = f.bytes;
  out.reserve(14 + 4 + 40 + 8 + 12 + 28 + payload.size() + 4 + 4);
  ByteWriter w(out);
  w.bytes(l2.dst);
  w.bytes(l2.src);
  if (l2.vlan) w.u16(0x8100), w.u16(uint32_t{l2.pcp & 7u} << 13 | (*l2.vlan & 0x0FFFu));
  const uint8_t tclass = static_cast<uint8_t>(l3.dscp << 2 | (l3.ecn & 3));
  switch (l3.transport) {
    case Transport::v2_ipv4:
      w.u16(0x0800);
      f.at.l3 = static_cast<uint16_t>(w.size());
      w.u8(0x45), w.u8(tclass), w.u16(0), w.u16(l3.ip_id), w.u16(0x4000);  // DF
      w.u8(l3.ttl), w.u8(kIpProtoUdp), w.u16(0);
      w.bytes(l3.src4), w.bytes(l3.dst4);
      break;
    case Transport::v2_ipv6:
      w.u16(0x86DD);
      f.at.l3 = static_cast<uint16_t>(w.size());
      put_v6_word0(w, tclass, l3.flow_label);
      w.u16(0), w.u8(kIpProtoUdp), w.u8(l3.ttl);
      w.bytes(l3.src6), w.bytes(l3.dst6);
      break;
    case Transport::v1:
      w.u16(kEthertypeRoceV1);
      f.at.l3 = static_cast<uint16_t>(w.size());
      put_v6_word0(w, tclass, l3.flow_label);
      w.u16(0), w.u8(kGrhNextHeaderBth), w.u8(l3.ttl);
      w.bytes(l3.src6), w.bytes(l3.dst6);
      break;
  }
  const size_t udp = f.at.l3 + l3_header_len(l3.transport);
  if (l3.transport != Transport::v1) w.u16(l3.udp_sport), w.u16(kRoceUdpPort), w.u16(0), w.u16(0);
  put_bth(w, bth);
  put_extensions(w, ext);
  f.at.payload = static_cast<uint16_t>(w.size());
  f.at.payload_len = static_cast<uint32_t>(payload.size());
  w.bytes(payload);
  w.zeros(bth.pad);
  w.zeros(4);  // ICRC placeholder, so the length fields below are final
  f.at.l3_end = static_cast<uint32_t>(out.size());

  uint8_t* h = out.data() + f.at.l3;
  const size_t l3_total = out.size() - f.at.l3;
  if (l3.transport == Transport::v2_ipv4) put_u16(h + 2, static_cast<uint32_t>(l3_total));
  else put_u16(h + 4, static_cast<uint32_t>(l3_total - 40));  // payload length: everything after the 40 bytes
  if (l3.transport != Transport::v1) put_u16(out.data() + udp + 4, static_cast<uint32_t>(out.size() - udp));

  const uint32_t v = invariant_crc(std::span<const uint8_t>(h, l3_total - 4), icrc_kind(l3.transport));
  for (int i = 0; i < 4; ++i) out[out.size() - 4 + i] = static_cast<uint8_t>(v >> (8 * i));

  // Checksums last: the ICRC masks them, and the UDP one covers the ICRC.
  if (l3.transport == Transport::v2_ipv4) put_u16(h + 10, ipv4_header_checksum({h, 20}));
  if (l3.transport == Transport::v2_ipv6)
    put_u16(out.data() + udp + 6, udp6_checksum(l3.src6, l3.dst6, {out.data() + udp, out.size() - udp}));

  if (out.size() < kMinFrame) out.resize(kMinFrame, 0);
  return f;
}

void set_ecn(std::span<uint8_t> frame, const Layout& at, Transport t, uint8_t ecn) {
  uint8_t* h = frame.data() + at.l3;
  if (t == Transport::v2_ipv4) {
    h[1] = static_cast<uint8_t>((h[1] & 0xFC) | (ecn & 3));
    put_u16(h + 10, ipv4_header_checksum({h, 20}));
  } else {
    h[1] = static_cast<uint8_t>((h[1] & 0xCF) | (ecn & 3) << 4);  // tclass bits 1:0 sit in byte 1 bits 5:4
  }
}

uint8_t get_ecn(std::span<const uint8_t> frame, const Layout& at, Transport t) {
  const uint8_t* h = frame.data() + at.l3;
  return t == Transport::v2_ipv4 ? h[1] & 3 : (h[1] >> 4) & 3;
}

void set_dscp(std::span<uint8_t> frame, const Layout& at, Transport t, uint8_t dscp) {
  uint8_t* h = frame.data() + at.l3;
  if (t == Transport::v2_ipv4) {
    h[1] = static_cast<uint8_t>((dscp & 0x3F) << 2 | (h[1] & 3));
    put_u16(h + 10, ipv4_header_checksum({h, 20}));
  } else {  // traffic class bits 7:2 sit in byte 0 bits 3:0 and byte 1 bits 7:6
    h[0] = static_cast<uint8_t>((h[0] & 0xF0) | (dscp & 0x3F) >> 2);
    h[1] = static_cast<uint8_t>((h[1] & 0x3F) | (dscp & 3) << 6);
  }
}

uint8_t get_dscp(std::span<const uint8_t> frame, const Layout& at, Transport t) {
  const uint8_t* h = frame.data() + at.l3;
  if (t == Transport::v2_ipv4) return h[1] >> 2;
  return static_cast<uint8_t>((h[0] & 0x0F) << 2 | h[1] >> 6);
}

std::optional<uint8_t> get_pcp(std::span<const uint8_t> frame) {
  if (get_u16(frame.data() + 12) != 0x8100) return std::nullopt;
  return frame[14] >> 5;
}

void set_pcp(std::span<uint8_t> frame, uint8_t pcp) {
  if (get_u16(frame.data() + 12) == 0x8100) frame[14] = static_cast<uint8_t>((pcp & 7) << 5 | (frame[14] & 0x1F));
}

std::optional<uint16_t> get_vlan(std::span<const uint8_t> frame) {
  if (get_u16(frame.data() + 12) != 0x8100) return std::nullopt;
  return static_cast<uint16_t>(get_u16(frame.data() + 14) & 0x0FFF);
}

void set_vlan(std::span<uint8_t> frame, uint16_t vid) {
  if (get_u16(frame.data() + 12) != 0x8100) return;
  frame[14] = static_cast<uint8_t>((frame[14] & 0xF0) | (vid >> 8 & 0x0F));
  frame[15] = static_cast<uint8_t>(vid & 0xFF);
}

void strip_vlan(BuiltFrame& f) {
  if (get_u16(f.bytes.data() + 12) != 0x8100) return;
  f.bytes.erase(f.bytes.begin() + 12, f.bytes.begin() + 16);
  f.at.l3 -= 4, f.at.payload -= 4, f.at.l3_end -= 4;
}

uint8_t frame_priority(std::span<const uint8_t> frame, const Layout& at, Transport t) {
  if (auto pcp = get_pcp(frame)) return *pcp;
  return get_dscp(frame, at, t) >> 3;
}

void set_link_macs(std::span<uint8_t> frame, const Mac& src, const Mac& dst) {
  std::copy(dst.begin(), dst.end(), frame.begin());
  std::copy(src.begin(), src.end(), frame.begin() + 6);
}

void increment_ttl(std::span<uint8_t> frame, const Layout& at, Transport t) {
  uint8_t* h = frame.data() + at.l3;
  switch (t) {
    case Transport::v2_ipv4:
      if (h[8] < 255) ++h[8];
      put_u16(h + 10, ipv4_header_checksum({h, 20}));
      break;
    case Transport::v2_ipv6:
      if (h[7] < 255) ++h[7];
      break;
    case Transport::v1:
      break;
  }
}

void decrement_ttl(std::span<uint8_t> frame, const Layout& at, Transport t) {
  uint8_t* h = frame.data() + at.l3;
  switch (t) {
    case Transport::v2_ipv4:
      if (h[8] > 0) --h[8];
      put_u16(h + 10, ipv4_header_checksum({h, 20}));
      break;
    case Transport::v2_ipv6:
      if (h[7] > 0) --h[7];
      break;
    case Transport::v1:
      break;  // RoCEv1 is bridged, never routed: nobody touches the GRH
  }
}

uint32_t roce_flow_label(uint32_t qpn_a, uint32_t qpn_b) {
  uint64_t fl = uint64_t{qpn_a} * qpn_b;
  fl ^= fl >> 20;
  fl ^= fl >> 40;
  return static_cast<uint32_t>(fl & 0xFFFFF);
}

uint16_t roce_udp_sport(uint32_t flow_label) {
  uint32_t low = flow_label & 0x03FFF;
  uint32_t high = flow_label & 0xFC000;
  low ^= high >> 14;
  return static_cast<uint16_t>(low | 0xC000);
}

}  // namespace roceshark::gen
