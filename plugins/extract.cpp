// SPDX-License-Identifier: GPL-2.0-or-later
#include "plugins/extract.h"

#include <epan/proto.h>
#include <wiretap/wtap.h>

#include <array>

#include "epan-ext/icrc.h"
#include "epan-ext/opcode.h"

namespace roceshark::glue {
namespace {

// hf_of_interest, after transum: every field we read, resolved once.
enum Field : size_t {
  kIb, kLrh, kGrh, kBth, kOpcode, kDestQp, kPsn, kAckReq, kPadCount, kSyndrome, kMsn, kDmaLen,
  kIp, kIpv6, kUdp,
  kCmReqCommId, kCmReqQpn, kCmReqPsn, kCmRepCommId, kCmRepRemoteCommId, kCmRepQpn, kCmRepPsn,
  kFieldCount
};

constexpr std::array<const char*, kFieldCount> kNames = {
    "infiniband", "infiniband.lrh", "infiniband.grh", "infiniband.bth", "infiniband.bth.opcode",
    "infiniband.bth.destqp", "infiniband.bth.psn", "infiniband.bth.a", "infiniband.bth.padcnt",
    "infiniband.aeth.syndrome", "infiniband.aeth.msn", "infiniband.reth.dmalen",
    "ip", "ipv6", "udp",
    "infiniband.cm.req", "infiniband.cm.req.localqpn", "infiniband.cm.req.startpsn",
    "infiniband.cm.rep", "infiniband.cm.rep.remotecommid", "infiniband.cm.rep.localqpn",
    "infiniband.cm.rep.startpsn",
};

std::array<int, kFieldCount> hf;

constexpr uint32_t kIpv6Header = 40;
constexpr uint32_t kBthLen = 12;

class Tree {
 public:
  explicit Tree(proto_tree* t) : tree_(t) {}

  GPtrArray* all(Field f) const { return hf[f] < 0 ? nullptr : proto_get_finfo_ptr_array(tree_, hf[f]); }

  field_info* first(Field f) const {
    GPtrArray* a = all(f);
    return a && a->len ? static_cast<field_info*>(g_ptr_array_index(a, 0)) : nullptr;
  }

  // Encapsulated mirrors carry outer headers too: the one that belongs to
  // the RoCE packet is the last that starts before the BTH.
  field_info* last_before(Field f, const field_info* bth) const {
    GPtrArray* a = all(f);
    field_info* best = nullptr;
    for (guint i = 0; a && i < a->len; ++i) {
      auto* fi = static_cast<field_info*>(g_ptr_array_index(a, i));
      if (fi->ds_tvb == bth->ds_tvb && fi->start < bth->start && (!best || fi->start > best->start)) best = fi;
    }
    return best;
  }

  bool uint(Field f, uint32_t& out) const {
    field_info* fi = first(f);
    if (!fi) return false;
    out = fvalue_get_uinteger(&fi->value);
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
uint32_t read_l3(tvbuff_t* ds, const field_info* l3, Encap encap, PacketInfo& out) {
  if (encap == Encap::rocev2_ipv4) {
    const uint8_t* h = bytes(ds, l3->start, 20);
    if (!h) return 0;
    out.src = Address::from({h + 12, 4});
    out.dst = Address::from({h + 16, 4});
    out.ecn = h[1] & 0x3;
    out.has_ip_id = true;
    out.ip_id = static_cast<uint16_t>(h[4] << 8 | h[5]);
    return static_cast<uint32_t>(h[2] << 8 | h[3]);
  }
  const uint8_t* h = bytes(ds, l3->start, kIpv6Header);  // IPv6 and the GRH share a layout
  if (!h) return 0;
  out.src = Address::from({h + 8, 16});
  out.dst = Address::from({h + 24, 16});
  out.ecn = (h[1] >> 4) & 0x3;
  return kIpv6Header + static_cast<uint32_t>(h[4] << 8 | h[5]);
}

void check_icrc(tvbuff_t* ds, const field_info* l3, Encap encap, uint32_t l3_len, PacketInfo& out) {
  const uint8_t* all = bytes(ds, l3->start, l3_len);
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

Extracted extract(packet_info* pinfo, proto_tree* tree, bool icrc_wanted, PacketInfo& out) {
  const Tree t(tree);
  const field_info* ib = t.first(kIb);
  if (!ib || t.first(kLrh)) return Extracted::not_roce;  // native InfiniBand is not RoCE
  const field_info* bth = t.first(kBth);
  if (!bth) return t.first(kGrh) || t.first(kUdp) ? Extracted::truncated : Extracted::not_roce;

  const field_info* grh = t.first(kGrh);
  const field_info* ip4 = t.last_before(kIp, bth);
  const field_info* ip6 = t.last_before(kIpv6, bth);
  const field_info* l3 = nullptr;
  if (grh) {
    out.encap = Encap::rocev1;
    l3 = grh;
  } else if (ip4 && (!ip6 || ip4->start > ip6->start)) {
    out.encap = Encap::rocev2_ipv4;
    l3 = ip4;
  } else if (ip6) {
    out.encap = Encap::rocev2_ipv6;
    l3 = ip6;
  } else {
    return Extracted::not_roce;
  }

  tvbuff_t* ds = bth->ds_tvb;
  uint32_t v = 0;
  if (!t.uint(kOpcode, v)) return Extracted::truncated;
  out.opcode = static_cast<uint8_t>(v);
  if (!t.uint(kDestQp, out.dest_qp) || !t.uint(kPsn, out.psn)) return Extracted::truncated;
  const uint8_t* bth_bytes = bytes(ds, bth->start, kBthLen);
  if (!bth_bytes || l3->ds_tvb != ds) return Extracted::truncated;
  // Wireshark 4.0 shows byte 4 only as raw "reserved": FECN is bit 7, BECN bit 6.
  out.fecn = bth_bytes[4] & 0x80;
  out.becn = bth_bytes[4] & 0x40;
  out.ack_req = bth_bytes[8] & 0x80;
  const auto pad = static_cast<uint8_t>((bth_bytes[1] >> 4) & 0x3);

  out.has_aeth = t.uint(kSyndrome, v);
  out.syndrome = static_cast<uint8_t>(v);
  if (out.has_aeth) t.uint(kMsn, out.msn);
  out.has_reth = t.uint(kDmaLen, out.dma_len);
  extract_cm(t, out);

  const uint32_t l3_len = read_l3(ds, l3, out.encap, out);
  if (!l3_len) return Extracted::truncated;
  const auto bth_offset = static_cast<uint32_t>(bth->start - l3->start);
  if (l3_len < bth_offset + kBthLen + 4) return Extracted::truncated;
  out.payload_len = payload_length(out.opcode, l3_len - bth_offset, pad);

  out.frame = pinfo->num;
  out.ts_ns = static_cast<uint64_t>(pinfo->abs_ts.secs) * 1'000'000'000u + static_cast<uint64_t>(pinfo->abs_ts.nsecs);
  out.frame_len = pinfo->fd->pkt_len;
  out.point = pinfo->rec && (pinfo->rec->presence_flags & WTAP_HAS_INTERFACE_ID)
                  ? pinfo->rec->rec_header.packet_header.interface_id
                  : 0;
  if (icrc_wanted) check_icrc(ds, l3, out.encap, l3_len, out);
  return Extracted::ok;
}

}  // namespace roceshark::glue
