// SPDX-License-Identifier: GPL-2.0-or-later
#include "plugins/extract.h"

#include "plugins/points.h"

#include <epan/proto.h>
#include <wiretap/wtap.h>

#include <algorithm>
#include <array>
#include <optional>

#include "epan-ext/ethernet.h"
#include "epan-ext/icrc.h"
#include "epan-ext/lldp.h"
#include "epan-ext/opcode.h"
#include "plugins/ws_compat.h"

namespace roceshark::glue {
namespace {

// hf_of_interest, after transum: every field we read, resolved once. Each
// primed field costs Wireshark a tree item and a hash insert per packet,
// and priming any IP field makes the IP dissector build its whole subtree,
// addresses as strings included. So the list is short: one plain field
// locates each fixed-layout InfiniBand header (GRH, BTH, AETH), and the
// UDP and IP headers are the bytes just before the BTH (see locate_ip).
enum Field : size_t {
  kIb, kLrh, kGrh, kBth, kAeth, kDmaLen, kMacc, kLldp, kErspan,
  kCmReqCommId, kCmReqQpn, kCmReqPsn, kCmRepCommId, kCmRepRemoteCommId, kCmRepQpn, kCmRepPsn,
  kFieldCount
};

constexpr std::array<const char*, kFieldCount> kNames = {
    "infiniband",
    "infiniband.lrh.vl",         // native InfiniBand, not RoCE
    "infiniband.grh.ipver",      // first byte of the RoCEv1 GRH
    "infiniband.bth.opcode",     // first byte of the BTH
    "infiniband.aeth.syndrome",  // first byte of the AETH
    "infiniband.reth.dmalen",
    "macc.opcode",               // first bytes of a MAC control PDU (PFC, PAUSE)
    "lldp.tlv.type",             // first TLV header of an LLDP PDU
    "erspan.spanid",             // ERSPAN II/III session: bytes 2-3 of the ERSPAN header
    "infiniband.cm.req", "infiniband.cm.req.localqpn", "infiniband.cm.req.startpsn",
    "infiniband.cm.rep", "infiniband.cm.rep.remotecommid", "infiniband.cm.rep.localqpn",
    "infiniband.cm.rep.startpsn",
};

std::array<int, kFieldCount> hf;

constexpr uint32_t kIpv6Header = 40;
constexpr uint32_t kBthLen = 12;
constexpr uint32_t kAethLen = 4;

class Tree {
 public:
  explicit Tree(proto_tree* t) : tree_(t) {}

  GPtrArray* all(Field f) const { return hf[f] < 0 ? nullptr : proto_get_finfo_ptr_array(tree_, hf[f]); }

  field_info* first(Field f) const {
    GPtrArray* a = all(f);
    return a && a->len ? static_cast<field_info*>(g_ptr_array_index(a, 0)) : nullptr;
  }

  bool uint(Field f, uint32_t& out) const {
    field_info* fi = first(f);
    if (!fi) return false;
    out = ws::field_uint(fi);
    return true;
  }

 private:
  proto_tree* tree_;
};

// Bytes of the data source, or nullptr when fewer than `len` were captured.
const uint8_t* bytes(tvbuff_t* ds, int offset, uint32_t len) {
  if (offset < 0 || !tvb_bytes_exist(ds, offset, static_cast<gint>(len))) return nullptr;
  return tvb_get_ptr(ds, offset, static_cast<gint>(len));
}

// RoCEv2: Wireshark hands the InfiniBand dissector the UDP payload, so the
// UDP header is the 8 bytes before the BTH, and the IP header the bytes
// before that. Whatever encapsulates it (VLAN, ERSPAN, VXLAN), these are the
// headers that belong to the RoCE packet. An IPv4 header is recognised by
// its version and IHL, protocol UDP and a total length that matches the UDP
// length; IPv6 likewise (extension headers are not supported).
bool locate_ip(tvbuff_t* ds, int bth, Encap& encap, int& start) {
  constexpr uint8_t kUdp = 17;
  const int udp = bth - 8;
  const uint8_t* u = bytes(ds, udp, 8);
  if (!u) return false;
  const uint32_t udp_len = uint32_t{u[4]} << 8 | u[5];
  for (int ihl = 5; ihl <= 15 && udp - 4 * ihl >= 0; ++ihl) {
    const uint8_t* h = bytes(ds, udp - 4 * ihl, 20);
    if (h && h[0] == (0x40 | ihl) && h[9] == kUdp && (uint32_t{h[2]} << 8 | h[3]) == 4u * ihl + udp_len) {
      encap = Encap::rocev2_ipv4;
      start = udp - 4 * ihl;
      return true;
    }
  }
  const uint8_t* h = bytes(ds, udp - static_cast<int>(kIpv6Header), kIpv6Header);
  if (h && (h[0] >> 4) == 6 && h[6] == kUdp && (uint32_t{h[4]} << 8 | h[5]) == udp_len) {
    encap = Encap::rocev2_ipv6;
    start = udp - static_cast<int>(kIpv6Header);
    return true;
  }
  return false;
}

uint64_t frame_ns(const packet_info* pinfo) {
  return static_cast<uint64_t>(pinfo->abs_ts.secs) * 1'000'000'000u + static_cast<uint64_t>(pinfo->abs_ts.nsecs);
}

// Where an Ethernet header may start: the frame's first byte, or, in an
// ERSPAN mirror, right after the ERSPAN II (8 bytes) or III (12, or 20 with
// the platform subheader) header.
std::vector<int> l2_starts(const Tree& t) {
  std::vector<int> starts = {0};
  if (const field_info* span = t.first(kErspan))
    for (int len : {8, 12, 20}) starts.push_back(span->start - 2 + len);
  return starts;
}

// The Ethernet header in front of `payload` in the data source (the one
// parse_l2 finds ending exactly there), or nothing.
std::optional<L2Header> l2_before(tvbuff_t* ds, int payload, const std::vector<int>& starts) {
  const uint8_t* b = bytes(ds, 0, static_cast<uint32_t>(payload));
  if (!b) return std::nullopt;
  for (int at : starts)
    if (at >= 0 && at < payload)
      if (auto h = parse_l2({b + at, static_cast<size_t>(payload - at)}, static_cast<size_t>(payload - at))) return h;
  return std::nullopt;
}

// The capture point, by the key roce.point_key chooses.
uint32_t frame_point(const packet_info* pinfo, const Tree& t, tvbuff_t* ds) {
  switch (point_key()) {
    case PointKey::interface: break;
    case PointKey::erspan:
      if (field_info* span = t.first(kErspan)) return kErspanPoint | ws::field_uint(span);
      break;
    case PointKey::vlan:
      // The outer tag, right after the frame's MACs.
      if (const uint8_t* h = ds ? bytes(ds, 12, 4) : nullptr; h && ((h[0] << 8 | h[1]) == 0x8100 || (h[0] << 8 | h[1]) == 0x88A8))
        return kVlanPoint | ((h[2] << 8 | h[3]) & 0x0FFFu);
      break;
  }
  return interface_point(pinfo);
}

// MAC control (IEEE 802.3 annex 31B, 802.1Qbb): opcode | class-enable vector |
// 8 pause times for PFC; opcode | pause time for 802.3x PAUSE, which pauses
// every priority and is read as a PFC frame enabling all eight.
bool extract_pause(packet_info* pinfo, const Tree& t, tvbuff_t* ds, int macc, pfc::PauseFrame& out) {
  constexpr uint16_t kPause = 0x0001;
  const uint8_t* op = bytes(ds, macc, 4);
  if (!op) return false;
  const auto opcode = static_cast<uint16_t>(op[0] << 8 | op[1]);
  if (opcode != pfc::kPfcOpcode && opcode != kPause) return false;
  out.frame = pinfo->num;
  out.ts_ns = frame_ns(pinfo);
  out.point = frame_point(pinfo, t, ds);
  out.wire_len = pinfo->fd->pkt_len;
  if (const auto l2 = l2_before(ds, macc, l2_starts(t))) out.src = l2->src, out.dst = l2->dst;
  const auto captured = static_cast<uint32_t>(std::max(0, tvb_captured_length_remaining(ds, macc)));
  if (opcode == kPause) {
    out.enable = 0xFF;
    out.quanta.fill(static_cast<uint16_t>(op[2] << 8 | op[3]));
    return true;
  }
  out.enable = static_cast<uint16_t>(op[2] << 8 | op[3]);
  out.captured = static_cast<uint8_t>(std::min<uint32_t>(8, captured > 4 ? (captured - 4) / 2 : 0));
  const uint8_t* q = bytes(ds, macc + 4, 2u * out.captured);
  for (uint8_t c = 0; q && c < out.captured; ++c) out.quanta[c] = static_cast<uint16_t>(q[2 * c] << 8 | q[2 * c + 1]);
  return true;
}

bool extract_dcbx(packet_info* pinfo, const Tree& t, tvbuff_t* ds, int lldp, qos::DcbxAnnouncement& out) {
  const auto len = tvb_captured_length_remaining(ds, lldp);
  const uint8_t* b = len > 0 ? bytes(ds, lldp, static_cast<uint32_t>(len)) : nullptr;
  auto a = b ? qos::parse_lldp_dcbx({b, static_cast<size_t>(len)}) : std::nullopt;
  if (!a) return false;
  out = std::move(*a);
  out.point = frame_point(pinfo, t, ds);
  if (const auto l2 = l2_before(ds, lldp, l2_starts(t))) out.mac = l2->src;
  return true;
}

void extract_cm(const Tree& t, PacketInfo& out) {
  CmMessage& cm = out.cm;
  uint32_t v = 0;
  if (t.uint(kCmReqCommId, v)) {
    cm.kind = CmMessage::Kind::req;
    cm.local_comm_id = v;
    t.uint(kCmReqQpn, cm.local_qpn);
    t.uint(kCmReqPsn, cm.start_psn);
  } else if (t.uint(kCmRepCommId, v)) {
    cm.kind = CmMessage::Kind::rep;
    cm.local_comm_id = v;
    t.uint(kCmRepRemoteCommId, cm.remote_comm_id);
    t.uint(kCmRepQpn, cm.local_qpn);
    t.uint(kCmRepPsn, cm.start_psn);
  }
}

// L3 header: addresses, ECN, and how long the packet is. Returns the byte
// count from the L3 start to the end of the ICRC, or 0 if it doesn't parse.
uint32_t read_l3(tvbuff_t* ds, int l3, Encap encap, PacketInfo& out) {
  if (encap == Encap::rocev2_ipv4) {
    const uint8_t* h = bytes(ds, l3, 20);
    if (!h) return 0;
    out.src = Address::from({h + 12, 4});
    out.dst = Address::from({h + 16, 4});
    out.ecn = h[1] & 0x3;
    out.dscp = static_cast<uint8_t>(h[1] >> 2);
    out.ttl = h[8];
    out.has_ip_id = true;
    out.ip_id = static_cast<uint16_t>(h[4] << 8 | h[5]);
    return static_cast<uint32_t>(h[2] << 8 | h[3]);
  }
  const uint8_t* h = bytes(ds, l3, kIpv6Header);  // IPv6 and the GRH share a layout
  if (!h) return 0;
  out.src = Address::from({h + 8, 16});
  out.dst = Address::from({h + 24, 16});
  out.ttl = h[7];
  const auto tclass = static_cast<uint8_t>((h[0] & 0x0F) << 4 | h[1] >> 4);  // DSCP:6 ECN:2
  out.ecn = tclass & 0x3;
  out.dscp = static_cast<uint8_t>(tclass >> 2);
  return kIpv6Header + static_cast<uint32_t>(h[4] << 8 | h[5]);
}

void check_icrc(tvbuff_t* ds, int l3, Encap encap, uint32_t l3_len, PacketInfo& out) {
  const uint8_t* all = bytes(ds, l3, l3_len);
  if (!all) {
    out.icrc = IcrcState::not_captured;
    return;
  }
  const L3Kind kind = encap == Encap::rocev2_ipv4 ? L3Kind::ipv4 : encap == Encap::rocev2_ipv6 ? L3Kind::ipv6 : L3Kind::grh;
  const std::span<const uint8_t> packet(all, l3_len);
  const auto computed = compute_icrc(packet.first(l3_len - 4), kind);
  out.icrc_value = read_icrc(packet.last<4>());
  out.icrc = !computed ? IcrcState::unchecked : *computed == out.icrc_value ? IcrcState::good : IcrcState::bad;
  out.icrc_expected = computed.value_or(0);
}

Extracted extract_roce(packet_info* pinfo, const Tree& t, const field_info* bth, bool icrc_wanted, PacketInfo& out) {
  tvbuff_t* ds = bth->ds_tvb;
  int l3_start = 0;
  if (const field_info* grh = t.first(kGrh)) {
    if (grh->ds_tvb != ds) return Extracted::truncated;
    out.encap = Encap::rocev1;
    l3_start = grh->start;
  } else if (!locate_ip(ds, bth->start, out.encap, l3_start)) {
    return Extracted::not_roce;
  }
  const uint8_t* b = bytes(ds, bth->start, kBthLen);
  if (!b) return Extracted::truncated;
  // BTH (IBA vol. 1 9.2): opcode | SE M pad tver | P_Key | F B resv6 | dest QP | A resv7 | PSN.
  // Wireshark 4.0 shows byte 4 only as raw "reserved": FECN is bit 7, BECN bit 6.
  out.opcode = b[0];
  const auto pad = static_cast<uint8_t>((b[1] >> 4) & 0x3);
  out.fecn = b[4] & 0x80;
  out.becn = b[4] & 0x40;
  out.dest_qp = uint32_t{b[5]} << 16 | uint32_t{b[6]} << 8 | b[7];
  out.ack_req = b[8] & 0x80;
  out.psn = uint32_t{b[9]} << 16 | uint32_t{b[10]} << 8 | b[11];

  const OpcodeInfo op = classify_opcode(out.opcode);
  if (const field_info* aeth = op.has_aeth ? t.first(kAeth) : nullptr) {
    const uint8_t* a = bytes(ds, aeth->start, kAethLen);
    if (!a || aeth->ds_tvb != ds) return Extracted::truncated;
    out.has_aeth = true;
    out.syndrome = a[0];
    out.msn = uint32_t{a[1]} << 16 | uint32_t{a[2]} << 8 | a[3];
  }
  out.has_reth = op.is_read_request && t.uint(kDmaLen, out.dma_len);
  if (op.role == Role::datagram) extract_cm(t, out);  // CM MADs travel on UD QP1

  const uint32_t l3_len = read_l3(ds, l3_start, out.encap, out);
  if (!l3_len) return Extracted::truncated;
  const auto bth_offset = static_cast<uint32_t>(bth->start - l3_start);
  if (l3_len < bth_offset + kBthLen + 4) return Extracted::truncated;
  out.payload_len = payload_length(out.opcode, l3_len - bth_offset, pad);
  if (const auto l2 = l2_before(ds, l3_start, l2_starts(t))) {
    out.dst_mac = l2->dst;
    out.src_mac = l2->src;
    out.pcp = l2->pcp;
  }

  out.frame = pinfo->num;
  out.ts_ns = frame_ns(pinfo);
  out.frame_len = pinfo->fd->pkt_len;
  out.point = frame_point(pinfo, t, ds);
  if (icrc_wanted) check_icrc(ds, l3_start, out.encap, l3_len, out);
  return Extracted::ok;
}

}  // namespace

void resolve_fields() {
  for (size_t i = 0; i < kFieldCount; ++i) hf[i] = proto_registrar_get_id_byname(kNames[i]);
}

GArray* wanted_fields() {
  GArray* a = g_array_sized_new(FALSE, FALSE, sizeof(int), kFieldCount);
  for (int id : hf)
    if (id >= 0) g_array_append_val(a, id);
  return a;
}

Extraction extract(packet_info* pinfo, proto_tree* tree, bool icrc_wanted) {
  const Tree t(tree);
  Extraction e;
  if (const field_info* bth = t.first(kBth)) {
    if (!t.first(kLrh)) e.kind = extract_roce(pinfo, t, bth, icrc_wanted, e.packet);  // native InfiniBand is not RoCE
  } else if (const field_info* macc = t.first(kMacc)) {
    if (extract_pause(pinfo, t, macc->ds_tvb, macc->start, e.pause)) e.kind = Extracted::pause;
  } else if (const field_info* lldp = t.first(kLldp)) {
    if (extract_dcbx(pinfo, t, lldp->ds_tvb, lldp->start, e.dcbx)) e.kind = Extracted::dcbx;
  } else if (t.first(kIb) && !t.first(kLrh)) {
    e.kind = Extracted::truncated;
  }
  return e;
}

}  // namespace roceshark::glue
