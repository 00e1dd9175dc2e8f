// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/besteffort.h"

#include <algorithm>
#include <cmath>

#include "captures/gen/byte_writer.h"
#include "captures/gen/checksum.h"

namespace roceshark::gen {
namespace {

constexpr uint8_t kIpProtoTcp = 6;
constexpr uint32_t kTcpAckPsh = 0x18;
constexpr uint32_t kTcpWindow = 512;
constexpr size_t kTcpHeader = 20;
constexpr double kShareWhenFull = 0.02;  // strict: what a flow at the full link rate leaves RoCE

// A sum of unrounded times, rounded up to the ns; a hair above an integer
// stays that integer, so that the floating-point error does not add a ns.
Ns ceil_ns(double t) { return static_cast<Ns>(std::ceil(t - 1e-6)); }
// One serialization time, rounded up as Simulation::serialization rounds it.
Ns ceil_ser(double ser) { return static_cast<Ns>(std::ceil(ser)); }

}  // namespace

uint32_t tcp_payload_len(const BestEffort& d) {
  const uint32_t headers = 14 + (d.vlan ? 4 : 0) + (d.ipv6 ? 40 : 20) + static_cast<uint32_t>(kTcpHeader);
  return d.frame_size() - headers;
}

BuiltFrame build_tcp_frame(const TcpFrameFields& f) {
  BuiltFrame out;
  auto& b = out.bytes;
  b.reserve(f.size);
  ByteWriter w(b);
  w.bytes(f.dst);
  w.bytes(f.src);
  if (f.vlan) w.u16(0x8100), w.u16(uint32_t{f.pcp & 7u} << 13 | (*f.vlan & 0x0FFFu));
  w.u16(f.v6 ? 0x86DD : 0x0800);
  out.at.l3 = static_cast<uint16_t>(w.size());
  const size_t ip = f.v6 ? 40 : 20;
  const size_t tcp_len = f.size - out.at.l3 - ip;
  const uint8_t tclass = static_cast<uint8_t>(f.dscp << 2);  // Not-ECT
  if (f.v6) {
    w.u32(uint32_t{6} << 28 | uint32_t{tclass} << 20);  // no flow label
    w.u16(static_cast<uint32_t>(tcp_len)), w.u8(kIpProtoTcp), w.u8(f.ttl);
    w.bytes(f.src6), w.bytes(f.dst6);
  } else {
    w.u8(0x45), w.u8(tclass), w.u16(static_cast<uint32_t>(ip + tcp_len)), w.u16(f.ip_id), w.u16(0x4000);  // DF
    w.u8(f.ttl), w.u8(kIpProtoTcp), w.u16(0);
    w.bytes(f.src4), w.bytes(f.dst4);
  }
  const size_t tcp = w.size();
  w.u16(f.sport), w.u16(f.dport), w.u32(f.seq), w.u32(f.ack);
  w.u16(uint32_t{kTcpHeader / 4} << 12 | kTcpAckPsh), w.u16(kTcpWindow), w.u16(0), w.u16(0);
  out.at.payload = static_cast<uint16_t>(w.size());
  out.at.payload_len = static_cast<uint32_t>(tcp_len - kTcpHeader);
  w.zeros(tcp_len - kTcpHeader);
  out.at.l3_end = static_cast<uint32_t>(b.size());

  // The pseudo-header: addresses, protocol, TCP length.
  const auto n = static_cast<uint32_t>(tcp_len);
  uint32_t sum;
  if (f.v6) {
    const std::array<uint8_t, 8> tail{static_cast<uint8_t>(n >> 24), static_cast<uint8_t>(n >> 16),
                                      static_cast<uint8_t>(n >> 8), static_cast<uint8_t>(n), 0, 0, 0, kIpProtoTcp};
    sum = ones_sum(tail, ones_sum(f.dst6, ones_sum(f.src6)));
  } else {
    const std::array<uint8_t, 4> tail{0, kIpProtoTcp, static_cast<uint8_t>(n >> 8), static_cast<uint8_t>(n)};
    sum = ones_sum(tail, ones_sum(f.dst4, ones_sum(f.src4)));
  }
  put_u16(b.data() + tcp + 16, fold_complement(ones_sum({b.data() + tcp, tcp_len}, sum)));
  if (!f.v6) put_u16(b.data() + out.at.l3 + 10, ipv4_header_checksum({b.data() + out.at.l3, ip}));
  return out;
}

BestEffortQueue::BestEffortQueue(const BestEffort& d, double link_gbps, Ns first, Ns last, double be_ser)
    : sched_(d.sched), first_(first), last_(last), be_ser_(be_ser) {
  const double f = d.gbps / link_gbps;
  if (d.sched == BestEffort::Sched::strict) {
    roce_share_ = f < 1 ? 1 - f : kShareWhenFull;
  } else {
    const double pct = d.ets_pct / 100.0;
    roce_share_ = std::max(pct, 1 - f);
    be_share_ = 1 - pct;
  }
}

Ns BestEffortQueue::end() const {
  const Ns e = last_ + ceil_ser(be_ser_);
  return be_last_ ? std::max(e, *be_last_) : e;
}

Ns BestEffortQueue::finish(Ns from, double work) const {
  const Ns e = end();
  double t = static_cast<double>(from);
  if (from < e) {
    const double served = static_cast<double>(e - from) * roce_share_;  // what the share gives until the end
    if (work <= served) return ceil_ns(t + work / roce_share_);
    work -= served;
    t = static_cast<double>(e);
  }
  return ceil_ns(t + work);
}

Ns BestEffortQueue::roce(Ns now, double ser, Ns wait) {
  if (now < first_) return wait;  // the flow has not reached the queue yet
  if (now < end()) met_roce_ = true;
  Ns exit = now + wait;
  if (roce_last_) exit = std::max(exit, finish(*roce_last_, ser));
  roce_last_ = exit;
  return exit - now;
}

Ns BestEffortQueue::besteffort(Ns now, double ser) {
  Ns exit = now + ceil_ser(ser);
  if (sched_ == BestEffort::Sched::ets && be_last_) {
    const bool backlogged = roce_last_ && *roce_last_ > now;  // RoCE's class holds its ETS share
    exit = std::max(exit, ceil_ns(static_cast<double>(*be_last_) + ser / (backlogged ? be_share_ : 1.0)));
  }
  be_last_ = exit;
  return exit;
}

}  // namespace roceshark::gen
