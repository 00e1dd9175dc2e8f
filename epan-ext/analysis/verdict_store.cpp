// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/analysis/verdict_store.h"

#include <iterator>

namespace roceshark {
namespace {

// The verdict's one-bit facts, bit i of Compact::flags each.
uint32_t flags_of(const Verdict& v) {
  const bool b[] = {v.has_expected, v.duplicate_ack, v.qp_reuse,   v.first_unchecked, v.truncated,
                    v.has_hop,      v.merged_points, v.ambiguous,  v.reorder_nak,     v.cnp_missing,
                    v.run_start,    v.clock_back,    v.pair_ambiguous};
  uint32_t bits = 0;
  for (uint32_t i = 0; i < std::size(b); ++i) bits |= static_cast<uint32_t>(b[i]) << i;
  return bits;
}

void set_flags(Verdict& v, uint32_t bits) {
  const auto b = [bits](int i) -> bool { return bits >> i & 1; };
  v.has_expected = b(0), v.duplicate_ack = b(1), v.qp_reuse = b(2), v.first_unchecked = b(3), v.truncated = b(4);
  v.has_hop = b(5), v.merged_points = b(6), v.ambiguous = b(7), v.reorder_nak = b(8), v.cnp_missing = b(9);
  v.run_start = b(10), v.clock_back = b(11), v.pair_ambiguous = b(12);
}
}  // namespace

// Values too wide for a field are cut here: decode() then differs from the
// verdict, and the store keeps it whole.
VerdictCodec::Compact VerdictCodec::encode(const Verdict& v) {
  const PacketSummary& p = v.pkt;
  Compact c{};
  c.frame = v.frame, c.flow = v.flow, c.row_flow = v.row_flow, c.stream = v.stream, c.point = v.point;
  c.psn = p.psn & 0xFFFFFFu, c.opcode = p.opcode;
  c.payload_len = static_cast<uint16_t>(p.payload_len), c.vlan_id = p.vlan_id;
  c.role = static_cast<uint32_t>(v.role) & 0xFu, c.seq = static_cast<uint32_t>(v.seq) & 0xFu;
  c.nak = static_cast<uint32_t>(v.nak) & 0xFu, c.beyond = static_cast<uint32_t>(v.beyond) & 0xFu;
  c.syndrome = p.syndrome, c.ttl = p.ttl;
  c.dscp = p.dscp & 0x3Fu, c.ecn = p.ecn & 0x3u, c.qos_failed = v.qos.failed, c.qos_first = v.qos.first;
  c.qos_priority = v.qos.priority & 0x7u, c.pfc_priority = v.pfc.priority & 0x7u;
  c.pcp_skipped = v.qos.pcp_skipped, c.learning = v.qos.learning;
  c.flags = flags_of(v) & 0x1FFFu, c.icrc = static_cast<uint32_t>(p.icrc) & 0x3u;
  c.pcp = static_cast<uint32_t>(p.pcp + 1) & 0xFu;
  c.ack_req = p.ack_req, c.fecn = p.fecn, c.becn = p.becn, c.has_aeth = p.has_aeth;
  c.expected_is_psn = v.has_expected && v.expected_psn == p.psn;
  return c;
}

// Every field the record does not hold is its default.
Verdict VerdictCodec::decode(const Compact& c) {
  Verdict v;
  PacketSummary& p = v.pkt;
  v.frame = c.frame, v.flow = c.flow, v.row_flow = c.row_flow, v.stream = c.stream, v.point = c.point;
  p.psn = c.psn, p.opcode = static_cast<uint8_t>(c.opcode), p.payload_len = c.payload_len, p.vlan_id = c.vlan_id;
  v.role = static_cast<Role>(c.role), v.seq = static_cast<SeqClass>(c.seq), v.nak = static_cast<NakCode>(c.nak);
  v.beyond = static_cast<LimitKind>(c.beyond), p.syndrome = static_cast<uint8_t>(c.syndrome);
  p.ttl = static_cast<uint8_t>(c.ttl), p.dscp = static_cast<uint8_t>(c.dscp), p.ecn = static_cast<uint8_t>(c.ecn);
  v.qos.failed = static_cast<uint8_t>(c.qos_failed), v.qos.first = static_cast<uint8_t>(c.qos_first);
  v.qos.priority = static_cast<uint8_t>(c.qos_priority), v.pfc.priority = static_cast<uint8_t>(c.pfc_priority);
  v.qos.pcp_skipped = c.pcp_skipped, v.qos.learning = c.learning;
  set_flags(v, c.flags);
  p.icrc = static_cast<IcrcState>(c.icrc), p.pcp = static_cast<int8_t>(static_cast<int>(c.pcp) - 1);
  p.ack_req = c.ack_req, p.fecn = c.fecn, p.becn = c.becn, p.has_aeth = c.has_aeth;
  if (c.expected_is_psn) v.expected_psn = p.psn;
  return v;
}

namespace {

// The hop verdict's one-bit facts, bit i of Compact::flags each.
uint32_t hop_flags_of(const hop::HopVerdict& h) {
  const bool b[] = {h.overtaken,      h.remarked,       h.vlan_changed, h.ecn_bleached,       h.ce_set,
                    h.microburst,     h.burst_start,    h.negative,     h.remark_first,       h.bleach_first,
                    h.vlan_first,     h.negative_first, h.ecn_unmarked, h.ecn_unmarked_first, h.cnp_queued_first,
                    h.be_starved_first};
  uint32_t bits = 0;
  for (uint32_t i = 0; i < std::size(b); ++i) bits |= static_cast<uint32_t>(b[i]) << i;
  return bits;
}

void set_hop_flags(hop::HopVerdict& h, uint32_t bits) {
  const auto b = [bits](int i) -> bool { return bits >> i & 1; };
  h.overtaken = b(0), h.remarked = b(1), h.vlan_changed = b(2), h.ecn_bleached = b(3), h.ce_set = b(4);
  h.microburst = b(5), h.burst_start = b(6), h.negative = b(7), h.remark_first = b(8), h.bleach_first = b(9);
  h.vlan_first = b(10), h.negative_first = b(11), h.ecn_unmarked = b(12), h.ecn_unmarked_first = b(13);
  h.cnp_queued_first = b(14), h.be_starved_first = b(15);
}

}  // namespace

HopCodec::Compact HopCodec::encode(const hop::HopVerdict& h) {
  Compact c{};
  c.frame = h.frame, c.prev_point = h.prev_point, c.prev_frame = h.prev_frame, c.first_point = h.first_point;
  c.latency_ns = static_cast<int32_t>(h.latency_ns), c.e2e_ns = static_cast<int32_t>(h.e2e_ns);
  c.queue_ns = static_cast<uint32_t>(h.queue_ns);
  c.prev_vlan = h.prev_vlan, c.vlan = h.vlan, c.prev_len = h.prev_len, c.ttl_delta = static_cast<int8_t>(h.ttl_delta);
  c.prev_dscp = h.prev_dscp & 0x3Fu, c.prev_ecn = h.prev_ecn & 0x3u;
  c.prev_pcp = static_cast<uint32_t>(h.prev_pcp + 1) & 0xFu, c.flags = hop_flags_of(h) & 0xFFFFu;
  return c;
}

hop::HopVerdict HopCodec::decode(const Compact& c) {
  hop::HopVerdict h;
  h.frame = c.frame, h.prev_point = c.prev_point, h.prev_frame = c.prev_frame, h.first_point = c.first_point;
  h.latency_ns = c.latency_ns, h.e2e_ns = c.e2e_ns, h.queue_ns = c.queue_ns;
  h.prev_vlan = c.prev_vlan, h.vlan = c.vlan, h.prev_len = c.prev_len, h.ttl_delta = c.ttl_delta;
  h.prev_dscp = c.prev_dscp, h.prev_ecn = c.prev_ecn, h.prev_pcp = static_cast<int8_t>(static_cast<int>(c.prev_pcp) - 1);
  set_hop_flags(h, c.flags);
  return h;
}

}  // namespace roceshark
