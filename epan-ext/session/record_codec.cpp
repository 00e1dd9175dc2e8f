// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/session/record_codec.h"

#include <array>
#include <optional>
#include <type_traits>
#include <utility>
#include <vector>

namespace roceshark::codec {
namespace {

// A field added to a record must be added to its list below (and
// kRecordVersion bumped): these sizes stop the build until it is.
static_assert(sizeof(PacketInfo) == 192 && sizeof(CmMessage) == 24 && sizeof(pfc::PauseFrame) == 56 &&
                  sizeof(qos::DcbxAnnouncement) == 96 && sizeof(icmp::TooBig) == 96 && sizeof(CrossPacket) == 80,
              "a record's fields changed: update its field list here and kRecordVersion");

template <class V, class R> void walk(V& v, R& c) requires std::is_same_v<std::remove_const_t<R>, CmMessage> {
  v(c.kind);
  if (c.kind != CmMessage::Kind::none) v(c.local_comm_id), v(c.remote_comm_id), v(c.local_qpn), v(c.start_psn), v(c.path_mtu);
}
template <class V, class R> void walk(V& v, R& p) requires std::is_same_v<std::remove_const_t<R>, PacketInfo> {
  v(p.truncated), v(p.frame), v(p.ts_ns), v(p.point), v(p.encap), v(p.src), v(p.dst);
  v(p.opcode), v(p.dest_qp), v(p.psn), v(p.ack_req), v(p.fecn), v(p.becn);
  v(p.has_aeth);
  if (p.has_aeth) v(p.syndrome), v(p.msn);
  v(p.has_reth);
  if (p.has_reth) v(p.dma_len);
  v(p.has_atomic_eth);
  if (p.has_atomic_eth) v(p.atomic_va), v(p.atomic_rkey), v(p.atomic_swap_add), v(p.atomic_compare);
  v(p.payload_len), v(p.frame_len), v(p.ip_len), v(p.ecn), v(p.dscp), v(p.pcp), v(p.vlan_id);
  v(p.dst_mac), v(p.src_mac), v(p.ttl), v(p.has_ip_id);
  if (p.has_ip_id) v(p.ip_id);
  v(p.icrc);  // its value when captured; the one computed when that differs (good: the same)
  if (p.icrc != IcrcState::not_captured) v(p.icrc_value);
  if (p.icrc == IcrcState::bad) v(p.icrc_expected);
  walk(v, p.cm);
}
template <class V, class R> void walk(V& v, R& f) requires std::is_same_v<std::remove_const_t<R>, pfc::PauseFrame> {
  v(f.frame), v(f.ts_ns), v(f.point), v(f.src), v(f.dst), v(f.enable), v(f.quanta), v(f.captured), v(f.wire_len);
}
template <class V, class R> void walk(V& v, R& a) requires std::is_same_v<std::remove_const_t<R>, qos::DcbxAnnouncement> {
  v(a.point), v(a.mac), v(a.has_pfc), v(a.pfc_enabled), v(a.app_dscp), v(a.max_frame_size);
  v(a.ets), v(a.ets_recommended);
}
template <class V, class R> void walk(V& v, R& m) requires std::is_same_v<std::remove_const_t<R>, icmp::TooBig> {
  v(m.frame), v(m.ts_ns), v(m.point), v(m.v6), v(m.reporter), v(m.mtu), v(m.src), v(m.dst);
  v(m.quoted_len), v(m.has_bth), v(m.dest_qp), v(m.psn);
}
template <class V, class R> void walk(V& v, R& c) requires std::is_same_v<std::remove_const_t<R>, CrossPacket> {
  v(c.frame), v(c.ts_ns), v(c.point), v(c.src), v(c.dst), v(c.proto), v(c.sport), v(c.dport), v(c.ip_id);
  v(c.seq), v(c.ip_len), v(c.frame_len), v(c.dscp), v(c.pcp);
}

struct Writer {
  Out& o;
  template <class T> void operator()(const T& v) {
    if constexpr (std::is_same_v<T, bool>) o.num<uint8_t>(v);
    else if constexpr (std::is_enum_v<T>) o.num(static_cast<std::underlying_type_t<T>>(v));
    else if constexpr (std::is_integral_v<T>) o.num(v);
    else (*this)(v, 0);
  }
  template <class T, size_t N> void operator()(const std::array<T, N>& a, int) {
    for (const T& x : a) (*this)(x);
  }
  void operator()(const Address& a, int) { o.num(a.len), o.put(a.bytes.data(), a.len); }
  void operator()(const qos::EtsTable& t, int) { (*this)(t.tc), (*this)(t.bw), (*this)(t.tsa); }
  void operator()(const std::optional<qos::EtsTable>& t, int) {
    o.num<uint8_t>(t.has_value());
    if (t) (*this)(*t);
  }
  void operator()(const std::vector<std::pair<uint8_t, uint8_t>>& v, int) {
    o.num(uint32_t(v.size()));
    for (const auto& [a, b] : v) o.num(a), o.num(b);
  }
};

struct Reader {
  In& i;
  template <class T> void operator()(T& v) {
    if constexpr (std::is_same_v<T, bool>) v = boolean();
    else if constexpr (std::is_enum_v<T>) v = static_cast<T>(i.num<std::underlying_type_t<T>>());
    else if constexpr (std::is_integral_v<T>) v = i.num<T>();
    else (*this)(v, 0);
  }
  bool boolean() {
    const auto b = i.num<uint8_t>();
    if (b > 1) throw Malformed("a flag is neither 0 nor 1");
    return b;
  }
  template <class T, size_t N> void operator()(std::array<T, N>& a, int) {
    for (T& x : a) (*this)(x);
  }
  void operator()(Address& a, int) {
    a.len = i.num<uint8_t>();
    if (a.len != 0 && a.len != 4 && a.len != 16) throw Malformed("an address of " + std::to_string(a.len) + " bytes");
    i.get(a.bytes.data(), a.len);
  }
  void operator()(qos::EtsTable& t, int) { (*this)(t.tc), (*this)(t.bw), (*this)(t.tsa); }
  void operator()(std::optional<qos::EtsTable>& t, int) {
    t.reset();
    if (boolean()) (*this)(t.emplace());
  }
  void operator()(std::vector<std::pair<uint8_t, uint8_t>>& v, int) {
    const auto n = i.num<uint32_t>();
    if (n > 64) throw Malformed("more APP entries than an LLDP PDU holds");  // 1500 bytes, 3 each
    v.resize(n);
    for (auto& [a, b] : v) a = i.num<uint8_t>(), b = i.num<uint8_t>();
  }
};

template <class R> void write_record(Out& o, const R& r) {
  Writer w{o};
  walk(w, r);
}
template <class R> void read_record(In& i, R& r) {
  Reader rd{i};
  walk(rd, r);
  if (!i.done()) throw Malformed("a record longer than its kind");
}

// What the decoder guarantees and the analysis relies on (it indexes by
// priority, class and enum): a partial made by hand must not break it.
void require(bool ok, const char* what) {
  if (!ok) throw Malformed(std::string("out of range: ") + what);
}
void check_marks(uint8_t dscp, int8_t pcp) { require(dscp < 64 && pcp >= -1 && pcp < 8, "DSCP or PCP"); }

}  // namespace

void check(const PacketInfo& p) {
  require(uint8_t(p.encap) <= uint8_t(Encap::rocev1) && uint8_t(p.icrc) <= uint8_t(IcrcState::not_captured) &&
              uint8_t(p.cm.kind) <= uint8_t(CmMessage::Kind::other),
          "an enumeration");
  require(p.ecn < 4, "ECN");
  check_marks(p.dscp, p.pcp);
}
void check(const pfc::PauseFrame& f) { require(f.captured <= 8, "PFC classes captured"); }
void check(const qos::DcbxAnnouncement& a) {
  for (const auto& [dscp, prio] : a.app_dscp) require(dscp < 64 && prio < 8, "an APP entry");
  for (const auto* e : {&a.ets, &a.ets_recommended})
    if (*e)
      for (uint8_t tc : (*e)->tc) require(tc < 16, "an ETS traffic class");
}
void check(const icmp::TooBig&) {}
void check(const CrossPacket& c) { check_marks(c.dscp, c.pcp); }

namespace {
template <class R> void read_checked(In& i, R& r) {
  read_record(i, r);
  check(r);
}

}  // namespace

void write(Out& o, const PacketInfo& r) { write_record(o, r); }
void write(Out& o, const pfc::PauseFrame& r) { write_record(o, r); }
void write(Out& o, const qos::DcbxAnnouncement& r) { write_record(o, r); }
void write(Out& o, const icmp::TooBig& r) { write_record(o, r); }
void write(Out& o, const CrossPacket& r) { write_record(o, r); }
void read(In& i, PacketInfo& r) {
  read_checked(i, r);
  if (r.icrc == IcrcState::good) r.icrc_expected = r.icrc_value;
}
void read(In& i, pfc::PauseFrame& r) { read_checked(i, r); }
void read(In& i, qos::DcbxAnnouncement& r) { read_checked(i, r); }
void read(In& i, icmp::TooBig& r) { read_checked(i, r); }
void read(In& i, CrossPacket& r) { read_checked(i, r); }

}  // namespace roceshark::codec
