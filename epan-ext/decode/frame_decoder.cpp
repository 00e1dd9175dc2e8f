// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/decode/frame_decoder.h"

#include <algorithm>

#include "epan-ext/decode/byte_reader.h"
#include "epan-ext/decode/ib_headers.h"
#include "epan-ext/decode/icrc.h"
#include "epan-ext/decode/lldp.h"
#include "epan-ext/decode/opcode.h"
#include "epan-ext/common/points.h"

namespace roceshark::decode {
namespace {

constexpr size_t kMacs = 12, kTag = 4, kIpv4Min = 20, kIpv6 = 40, kUdp = 8, kGre = 4, kVxlan = 8, kGrh = 40,
                 kIcrc = 4;
constexpr uint16_t kEtherIpv4 = 0x0800, kEtherIpv6 = 0x86DD, kEtherRocev1 = 0x8915, kEtherMacControl = 0x8808,
                   kEtherLldp = 0x88CC, kEtherTeb = 0x6558, kEtherErspan2 = 0x88BE, kEtherErspan3 = 0x22EB;
constexpr uint8_t kProtoTcp = 6, kProtoUdp = 17, kProtoGre = 47, kGrhNextBth = 0x1B, kProtoIcmp = 1, kProtoIcmpv6 = 58;
constexpr size_t kIcmp = 8;
constexpr uint16_t kPortRocev2 = 4791, kPortVxlan = 4789;
constexpr uint16_t kPause = 0x0001;
constexpr int kMaxTunnels = 4;  // nested mirrors; deeper is not a real capture

bool is_tpid(uint16_t t) { return t == 0x8100 || t == 0x88A8 || t == 0x9100; }

// The L3 header a RoCE packet starts with, as the ICRC and payload length need it.
struct L3 {
  size_t at = 0;
  uint32_t len = 0;  // from the L3 header's first byte to the end of the ICRC
  L3Kind kind = L3Kind::ipv4;
};

// Walks one frame from the outside in. `end` arguments are where the
// enclosing header says the current layer ends (the wire length at the
// top); the captured bytes may stop sooner.
class Walker {
 public:
  explicit Walker(const FrameIn& in) : in_(in), frame_(in.bytes) {}

  Decoded run() {
    if (in_.link != LinkType::ethernet) return fail(Reason::link_type, "link type");
    ethernet(0, std::max<size_t>(in_.wire_len, frame_.size()), 0);
    return std::move(out_);
  }

 private:
  bool have(size_t at, size_t len) const { return at <= frame_.size() && len <= frame_.size() - at; }

  Decoded& fail(Reason r, const char* where) {
    out_.kind = Kind::not_ours;
    out_.reason = r;
    out_.where = where;
    return out_;
  }

  // dst MAC | src MAC | [TPID | PCP:3 DEI:1 VID:12]... | EtherType
  void ethernet(size_t at, size_t end, int tunnels) {
    if (!have(at, kMacs + 2)) return (void)fail(Reason::truncated, "Ethernet header");
    std::copy_n(&frame_[at], 6, dst_.begin());
    std::copy_n(&frame_[at + 6], 6, src_.begin());
    pcp_ = -1, vid_ = 0;
    size_t type_at = at + kMacs;
    out_.outer_vlan_nearest = false;  // an inner frame has tags of its own, or none
    for (uint16_t type = be16(&frame_[type_at]); is_tpid(type); type = be16(&frame_[type_at])) {
      if (!have(type_at, kTag + 2)) return (void)fail(Reason::truncated, "VLAN tag");
      const uint16_t tci = be16(&frame_[type_at + 2]);
      pcp_ = static_cast<int8_t>(tci >> 13);
      vid_ = tci & 0x0FFF;
      // The outer tag right after the frame's MACs keys roce.point_key:vlan.
      if (at == 0 && type_at == kMacs && type != 0x9100) out_.outer_vlan = vid_;
      type_at += kTag;
    }
    if (at == 0) out_.outer_vlan_nearest = out_.outer_vlan && type_at == kMacs + kTag;
    const size_t payload = type_at + 2;
    if (payload > end) return (void)fail(Reason::malformed, "tunnel length");  // an inner frame past its outer header's length
    switch (be16(&frame_[type_at])) {
      case kEtherIpv4: return ipv4(payload, end, tunnels);
      case kEtherIpv6: return ipv6(payload, end, tunnels);
      case kEtherRocev1: return rocev1(payload, end);
      case kEtherMacControl: return mac_control(payload);
      case kEtherLldp: return lldp(payload);
      default: return (void)fail(Reason::not_roce, "EtherType");
    }
  }

  // version:4 IHL:4 | TOS | total length | id | flags:3 offset:13 | TTL | protocol | checksum | src | dst | options
  void ipv4(size_t at, size_t end, int tunnels) {
    if (!have(at, kIpv4Min)) return (void)fail(Reason::truncated, "IPv4 header");
    const uint8_t* h = &frame_[at];
    const size_t ihl = size_t{h[0] & 0x0Fu} * 4;
    if (h[0] >> 4 != 4 || ihl < kIpv4Min) return (void)fail(Reason::malformed, "IPv4 header length");
    if (!have(at, ihl)) return (void)fail(Reason::truncated, "IPv4 options");
    const uint16_t total = be16(h + 2);
    if (total < ihl || total > end - at) return (void)fail(Reason::malformed, "IPv4 total length");
    if (be16(h + 6) & 0x3FFF) return (void)fail(Reason::not_roce, "IPv4 fragment");
    const L3 l3{at, total, L3Kind::ipv4};
    if (h[9] == kProtoUdp) return udp(at + ihl, at + total, l3, tunnels);
    if (h[9] == kProtoGre) return gre(at + ihl, at + total, tunnels);
    if (h[9] == kProtoIcmp) return icmp(at + ihl, at + total, l3);
    if (h[9] == kProtoTcp) return cross(at + ihl, l3, h[9]);
    fail(Reason::not_roce, "IP protocol");
  }

  // version:4 traffic class:8 flow label:20 | payload length | next header | hop limit | src | dst
  // Extension headers are not followed.
  void ipv6(size_t at, size_t end, int tunnels) {
    if (!have(at, kIpv6)) return (void)fail(Reason::truncated, "IPv6 header");
    const uint8_t* h = &frame_[at];
    const uint32_t len = kIpv6 + be16(h + 4);
    if (h[0] >> 4 != 6) return (void)fail(Reason::malformed, "IPv6 version");
    if (len > end - at) return (void)fail(Reason::malformed, "IPv6 payload length");
    const L3 l3{at, len, L3Kind::ipv6};
    if (h[6] == kProtoUdp) return udp(at + kIpv6, at + len, l3, tunnels);
    if (h[6] == kProtoGre) return gre(at + kIpv6, at + len, tunnels);
    if (h[6] == kProtoIcmpv6) return icmp(at + kIpv6, at + len, l3);
    if (h[6] == kProtoTcp) return cross(at + kIpv6, l3, h[6]);
    fail(Reason::not_roce, "IPv6 next header");
  }

  // src port | dst port | length | checksum
  void udp(size_t at, size_t end, const L3& l3, int tunnels) {
    if (!have(at, kUdp)) return (void)fail(Reason::truncated, "UDP header");
    if (const uint16_t len = be16(&frame_[at + 4]); len < kUdp || len != end - at)
      return (void)fail(Reason::malformed, "UDP length");
    const uint16_t port = be16(&frame_[at + 2]);
    if (port == kPortRocev2) return roce(at + kUdp, end, l3);
    if (port == kPortVxlan) return tunnel(at + kUdp, kVxlan, end, tunnels, "VXLAN header");
    cross(at, l3, kProtoUdp);
  }

  // C R K S resv:9 version:3 | protocol | [checksum | reserved] [key] [sequence]
  void gre(size_t at, size_t end, int tunnels) {
    if (!have(at, kGre)) return (void)fail(Reason::truncated, "GRE header");
    const uint16_t flags = be16(&frame_[at]);
    if (flags & 0x4007) return (void)fail(Reason::not_roce, "GRE version or routing");
    const size_t len = kGre + (flags & 0x8000 ? 4 : 0) + (flags & 0x2000 ? 4 : 0) + (flags & 0x1000 ? 4 : 0);
    if (!have(at, len)) return (void)fail(Reason::truncated, "GRE header");
    const size_t inner = at + len;
    switch (be16(&frame_[at + 2])) {
      case kEtherTeb: return tunnel(inner, 0, end, tunnels, "GRE header");
      // ERSPAN type I has no header, and no sequence number in its GRE header.
      case kEtherErspan2: return (flags & 0x1000) ? erspan(inner, 8, end, tunnels) : tunnel(inner, 0, end, tunnels, "GRE header");
      case kEtherErspan3: return erspan(inner, 12, end, tunnels);
      default: return (void)fail(Reason::not_roce, "GRE protocol");
    }
  }

  // ERSPAN II (8 bytes) / III (12, +8 with the platform subheader, O bit):
  //   version:4 VLAN:12 | CoS:3 En/BSO:2 T:1 session id:10 | ...
  void erspan(size_t at, size_t len, size_t end, int tunnels) {
    if (!have(at, len)) return (void)fail(Reason::truncated, "ERSPAN header");
    if (!out_.erspan_session) out_.erspan_session = be16(&frame_[at + 2]) & 0x03FF;
    if (len == 12 && (frame_[at + 11] & 1)) len += 8;
    tunnel(at, len, end, tunnels, "ERSPAN header");
  }

  // An inner Ethernet frame `header` bytes after `at`.
  void tunnel(size_t at, size_t header, size_t end, int tunnels, const char* name) {
    if (tunnels == kMaxTunnels) return (void)fail(Reason::malformed, "tunnel nesting");
    if (!have(at, header)) return (void)fail(Reason::truncated, name);
    ethernet(at + header, end, tunnels + 1);
  }

  // RoCEv1: GRH (the IPv6 layout, next header 0x1B) | BTH ...
  void rocev1(size_t at, size_t end) {
    if (!have(at, kGrh)) return truncated_roce("GRH");
    const uint8_t* h = &frame_[at];
    if (h[6] != kGrhNextBth) return (void)fail(Reason::not_roce, "GRH next header");
    const uint32_t len = kGrh + be16(h + 4);
    if (len > end - at) return (void)fail(Reason::malformed, "GRH payload length");
    out_.packet.encap = Encap::rocev1;
    roce(at + kGrh, at + len, {at, len, L3Kind::grh});
  }

  void roce(size_t bth, size_t end, const L3& l3) {
    if (end - bth < kBthLen + kIcrc) return (void)fail(Reason::malformed, "length (shorter than BTH and ICRC)");
    PacketInfo& p = out_.packet;
    if (!read_transport(frame_, bth, p)) return truncated_roce(have(bth, kBthLen) ? "AETH" : "BTH");
    if (l3.kind != L3Kind::grh) p.encap = l3.kind == L3Kind::ipv4 ? Encap::rocev2_ipv4 : Encap::rocev2_ipv6;
    read_l3(l3, p);
    p.payload_len = payload_length(p.opcode, static_cast<uint32_t>(l3.at + l3.len - bth), bth_pad(frame_, bth));
    p.dst_mac = dst_, p.src_mac = src_, p.pcp = pcp_, p.vlan_id = vid_;
    stamp(p);
    p.frame_len = in_.wire_len;
    p.ip_len = l3.len;
    if (in_.check_icrc) check_icrc(l3, p);
    out_.kind = Kind::roce;
  }

  // RoCE, but cut before the headers the engine needs: counted, not analysed.
  void truncated_roce(const char* where) {
    PacketInfo& p = out_.packet;
    p = PacketInfo{};
    p.truncated = true;
    stamp(p);
    p.frame_len = in_.wire_len;
    out_.kind = Kind::roce;
    out_.reason = Reason::truncated;
    out_.where = where;
  }

  template <typename Record>
  void stamp(Record& r) const {
    r.frame = in_.frame;
    r.ts_ns = in_.ts_ns;
    r.point = in_.point;
  }

  // Addresses, marking, TTL and the IPv4 ID; IPv6 and the GRH share a layout.
  struct IpFields {
    Address src, dst;
    uint8_t dscp = 0, ecn = 0, ttl = 0;
    bool has_ip_id = false;
    uint16_t ip_id = 0;
  };
  IpFields ip_fields(const L3& l3) const {
    const uint8_t* h = &frame_[l3.at];
    IpFields f;
    if (l3.kind == L3Kind::ipv4) {
      f.src = Address::from({h + 12, 4});
      f.dst = Address::from({h + 16, 4});
      f.ecn = h[1] & 0x3;
      f.dscp = static_cast<uint8_t>(h[1] >> 2);
      f.ttl = h[8];
      f.has_ip_id = true;
      f.ip_id = be16(h + 4);
      return f;
    }
    f.src = Address::from({h + 8, 16});
    f.dst = Address::from({h + 24, 16});
    f.ttl = h[7];
    const auto tclass = static_cast<uint8_t>((h[0] & 0x0F) << 4 | h[1] >> 4);  // DSCP:6 ECN:2
    f.ecn = tclass & 0x3;
    f.dscp = static_cast<uint8_t>(tclass >> 2);
    return f;
  }

  void read_l3(const L3& l3, PacketInfo& p) const {
    const IpFields f = ip_fields(l3);
    p.src = f.src, p.dst = f.dst, p.ecn = f.ecn, p.dscp = f.dscp, p.ttl = f.ttl;
    p.has_ip_id = f.has_ip_id, p.ip_id = f.ip_id;
  }

  void check_icrc(const L3& l3, PacketInfo& p) const {
    if (!have(l3.at, l3.len)) {
      p.icrc = IcrcState::not_captured;
      return;
    }
    const auto packet = frame_.subspan(l3.at, l3.len);
    const auto computed = compute_icrc(packet.first(l3.len - kIcrc), l3.kind);
    p.icrc_value = read_icrc(packet.last<4>());
    p.icrc = !computed ? IcrcState::unchecked : *computed == p.icrc_value ? IcrcState::good : IcrcState::bad;
    p.icrc_expected = computed.value_or(0);
  }

  // MAC control (IEEE 802.3 annex 31B, 802.1Qbb): opcode | class-enable vector |
  // 8 pause times for PFC; opcode | pause time for 802.3x PAUSE, which pauses
  // every priority and is read as a PFC frame enabling all eight.
  void mac_control(size_t at) {
    if (!have(at, 4)) return (void)fail(Reason::truncated, "MAC control");
    const uint16_t opcode = be16(&frame_[at]);
    if (opcode != pfc::kPfcOpcode && opcode != kPause) return (void)fail(Reason::not_roce, "MAC control opcode");
    pfc::PauseFrame& f = out_.pause;
    stamp(f);
    f.wire_len = in_.wire_len;
    f.src = src_, f.dst = dst_;
    out_.kind = Kind::pause;
    if (opcode == kPause) {
      f.enable = 0xFF;
      f.quanta.fill(be16(&frame_[at + 2]));
      return;
    }
    f.enable = be16(&frame_[at + 2]);
    const size_t captured = frame_.size() - at;
    f.captured = static_cast<uint8_t>(std::min<size_t>(8, (captured - 4) / 2));
    for (uint8_t c = 0; c < f.captured; ++c) f.quanta[c] = be16(&frame_[at + 4 + 2 * c]);
  }

  // ICMPv4 type 3 code 4: type | code | checksum | unused:16 | next-hop MTU:16 | quoted IPv4 header + 8 bytes or more
  // ICMPv6 type 2 code 0: type | code | checksum | MTU:32 | quoted IPv6 packet, as much as fits in 1280 bytes
  // The quote's own lengths are the original packet's: it may stop anywhere.
  void icmp(size_t at, size_t end, const L3& l3) {
    const bool v6 = l3.kind == L3Kind::ipv6;
    if (end - at < kIcmp) return (void)fail(Reason::malformed, "ICMP length");
    if (!have(at, kIcmp)) return (void)fail(Reason::truncated, "ICMP header");
    const uint8_t* h = &frame_[at];
    if (v6 ? h[0] != 2 || h[1] != 0 : h[0] != 3 || h[1] != 4) return (void)fail(Reason::not_roce, "ICMP type");
    icmp::TooBig& m = out_.icmp;
    m.v6 = v6;
    m.mtu = v6 ? be32(h + 4) : be16(h + 6);
    const uint8_t* ip = &frame_[l3.at];
    m.reporter = v6 ? Address::from({ip + 8, 16}) : Address::from({ip + 12, 4});
    const size_t q = at + kIcmp, qend = std::min(end, frame_.size());
    size_t udp_at = 0;
    if (v6) {
      if (qend - std::min(q, qend) < kIpv6) return (void)fail(Reason::truncated, "ICMP quoted IPv6 header");
      const uint8_t* o = &frame_[q];
      if (o[0] >> 4 != 6) return (void)fail(Reason::malformed, "ICMP quoted IP version");
      if (o[6] != kProtoUdp) return (void)fail(Reason::not_roce, "ICMP quote not UDP");
      m.src = Address::from({o + 8, 16}), m.dst = Address::from({o + 24, 16});
      m.quoted_len = kIpv6 + be16(o + 4);
      udp_at = q + kIpv6;
    } else {
      if (qend - std::min(q, qend) < kIpv4Min) return (void)fail(Reason::truncated, "ICMP quoted IPv4 header");
      const uint8_t* o = &frame_[q];
      const size_t ihl = size_t{o[0] & 0x0Fu} * 4;
      if (o[0] >> 4 != 4 || ihl < kIpv4Min) return (void)fail(Reason::malformed, "ICMP quoted IP version or header length");
      if (o[9] != kProtoUdp || (be16(o + 6) & 0x1FFF)) return (void)fail(Reason::not_roce, "ICMP quote not UDP");
      m.src = Address::from({o + 12, 4}), m.dst = Address::from({o + 16, 4});
      m.quoted_len = be16(o + 2);
      udp_at = q + ihl;
    }
    // RFC 792 quotes 8 bytes past the IP header: the UDP ports at least.
    if (udp_at > qend || qend - udp_at < 4) return (void)fail(Reason::truncated, "ICMP quoted UDP header");
    if (be16(&frame_[udp_at + 2]) != kPortRocev2) return (void)fail(Reason::not_roce, "ICMP quote not RoCE");
    const size_t bth = udp_at + kUdp;
    if (bth <= qend && qend - bth >= kBthLen) {
      m.has_bth = true;
      m.dest_qp = be24(&frame_[bth + 5]);
      m.psn = be24(&frame_[bth + 9]);
    }
    stamp(m);
    out_.kind = Kind::icmp;
  }

  // TCP or UDP that is not RoCE: cross traffic, matched across points by
  // what no hop changes. Cut before its ports and sequence: not ours.
  //   TCP: src port | dst port | sequence number ...   UDP: src port | dst port | length | checksum | payload
  void cross(size_t at, const L3& l3, uint8_t proto) {
    fail(Reason::not_roce, proto == kProtoUdp ? "UDP port" : "IP protocol");
    if (!have(at, 8)) return;
    CrossPacket& c = out_.cross;
    const IpFields f = ip_fields(l3);
    c.src = f.src, c.dst = f.dst, c.ip_id = f.ip_id, c.dscp = f.dscp;
    c.proto = proto;
    c.sport = be16(&frame_[at]), c.dport = be16(&frame_[at + 2]);
    c.seq = proto == kProtoTcp ? be32(&frame_[at + 4]) : have(at + kUdp, 4) ? be32(&frame_[at + kUdp]) : 0;
    c.ip_len = l3.len;
    c.frame_len = in_.wire_len;
    c.pcp = pcp_;
    stamp(c);
    out_.kind = Kind::cross;
    out_.reason = Reason::none;
    out_.where = "";
  }

  void lldp(size_t at) {
    auto a = qos::parse_lldp_dcbx(frame_.subspan(std::min(at, frame_.size())));
    if (!a) return (void)fail(Reason::not_roce, "LLDP without DCBX");
    out_.dcbx = std::move(*a);
    out_.dcbx.point = in_.point;
    out_.dcbx.mac = src_;
    out_.kind = Kind::dcbx;
  }

  const FrameIn& in_;
  std::span<const uint8_t> frame_;
  Decoded out_;
  // The Ethernet header nearest the payload (the innermost so far).
  Mac dst_{}, src_{};
  int8_t pcp_ = -1;
  uint16_t vid_ = 0;
};

}  // namespace

std::string Decoded::reason_text() const {
  switch (reason) {
    case Reason::none: return "";
    case Reason::link_type: return "not ours: link type is not Ethernet";
    case Reason::not_roce: return std::string("not ours: not RoCE, PFC or DCBX (") + where + ")";
    case Reason::truncated: return std::string("truncated at ") + where;
    case Reason::malformed: return std::string("malformed ") + where;
  }
  return "";
}

void Decoded::set_point(uint32_t point) {
  // Keyed by its outer VLAN (RSPAN), that tag is the mirror's: when it is
  // the only one, the traffic itself is untagged, and 4 bytes shorter.
  if ((point & points::kVlan) && outer_vlan_nearest) {
    packet.pcp = -1, packet.vlan_id = 0;
    packet.frame_len -= std::min<uint32_t>(packet.frame_len, kTag);
    cross.pcp = -1;
    cross.frame_len -= std::min<uint32_t>(cross.frame_len, kTag);
  }
  packet.point = point;
  pause.point = point;
  dcbx.point = point;
  icmp.point = point;
  cross.point = point;
}

Decoded decode_frame(const FrameIn& in) { return Walker(in).run(); }

}  // namespace roceshark::decode
