// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/analysis/qos_checker.h"

#include "epan-ext/common/text_table.h"

#include <algorithm>

namespace roceshark::qos {
namespace {

Marking normalized(Marking m) {
  m.dscp &= 63u;
  m.ecn &= 3u;
  if (m.pcp > 7) m.pcp = static_cast<int8_t>(m.pcp & 7);
  if (m.pcp < 0) m.pcp = -1;
  return m;
}

std::string pcp_text(int8_t pcp) { return pcp < 0 ? "untagged" : "PCP " + std::to_string(pcp); }

std::string lossless_text(const Policy& p) {
  return p.lossless_mask ? "lossless: " + format_priorities(p.lossless_mask) : "no priority is lossless";
}

}  // namespace

const char* ecn_name(uint8_t ecn) {
  static const char* const kNames[] = {"Not-ECT", "ECT(1)", "ECT(0)", "CE"};
  return kNames[ecn & 3u];
}

std::string vlan_text(uint16_t vlan) { return vlan ? "VLAN " + std::to_string(vlan) : "no VLAN id"; }

std::string expert_text(Check c, uint32_t qp, std::string_view point, const std::string& why) {
  return "QoS " + std::string(check_name(c)) + " on QP " + cell::qp(qp) + " at " + std::string(point) + ": " + why;
}

std::string explain(Check c, const Marking& raw, const Policy& p, const std::optional<FirstMarking>& first) {
  const Marking m = normalized(raw);
  const std::string dscp = "DSCP " + std::to_string(m.dscp);
  switch (c) {
    case Check::dscp_not_lossless: {
      const std::string prio = std::to_string(p.priority_of(m.dscp, m.pcp));
      const std::string why = p.trust == Trust::dscp ? dscp + " gives priority " + prio
                              : m.pcp >= 0           ? pcp_text(m.pcp) + " gives priority " + prio
                                                     : "untagged under trust pcp: port default priority " + prio;
      return why + ", which is not lossless (" + lossless_text(p) + ")";
    }
    case Check::pcp_mismatch:
      return pcp_text(m.pcp) + ", but " + dscp + " maps to priority " + std::to_string(p.dscp_priority[m.dscp]) +
             ": L2 and L3 marking disagree";
    case Check::ecn_not_capable: return "RoCE data sent Not-ECT: ECN (DCQCN) is off on this sender";
    case Check::cnp_class:
      return "CNP marked " + dscp + " " + pcp_text(m.pcp) + ", expected DSCP " + std::to_string(p.cnp_dscp) +
             " PCP " + std::to_string(p.cnp_priority);
    case Check::inconsistent_marking:
      // The same DSCP and PCP: only the VLAN id differs, a port's VLAN configuration.
      if (first && first->dscp == m.dscp && first->pcp == m.pcp)
        return vlan_text(m.vlan) + " differs from this flow's first VLAN at this point (" + vlan_text(first->vlan) +
               "): it crossed a port with another VLAN configuration";
      return dscp + " " + pcp_text(m.pcp) + " differs from this flow's first marking at this point";
  }
  return {};
}

Checker::Checker(const Policy& p) : configured_(p), policy_(p) {}

QosVerdict Checker::check(uint32_t flow, uint32_t point, const Marking& raw) {
  const Marking m = normalized(raw);
  QosVerdict v;
  v.priority = policy_.priority_of(m.dscp, m.pcp);
  v.pcp_skipped = m.pcp < 0;

  const uint64_t key = uint64_t{flow} << 32 | point;
  FlowPoint* at = nullptr;
  if (flow < kRecentFlows) {
    if (flow >= recent_by_flow_.size()) recent_by_flow_.resize(flow + 1);
    Recent& r = recent_by_flow_[flow];
    if (!r.at || r.point != point) r = {point, &flow_points_[key]};
    at = r.at;
  } else {
    at = &flow_points_[key];
  }
  FlowPoint& fp = *at;
  bool learning = false;
  v.failed = judge(m, v.priority, fp, learning);
  v.learning = learning;
  v.first = static_cast<uint8_t>(v.failed & ~fp.reported);
  fp.reported |= v.failed;

  // CNPs come from the notification point's NIC, not the flow's sender: they
  // are not the flow's marking.
  if (!m.is_cnp) {
    if (!fp.has_marking) fp = {m.dscp, m.pcp, true, fp.reported, m.vlan};
    if (!recent_seen_ || recent_point_ != point) recent_point_ = point, recent_seen_ = &seen_[point];
    Seen& s = *recent_seen_;
    s.dscps |= uint64_t{1} << m.dscp;
    s.priorities = static_cast<uint8_t>(s.priorities | priority_bit(v.priority));
    s.largest_frame = std::max(s.largest_frame, m.frame_len);
  }
  // After judging: a packet never counts towards its own verdict.
  if (configured_.mode == Mode::learned) learn(m);
  return v;
}

uint8_t Checker::judge(const Marking& m, uint8_t priority, const FlowPoint& fp, bool& learning) const {
  if (configured_.mode == Mode::learned &&
      (data_dscp_.total < kLearnMin || (m.is_cnp && cnp_dscp_.total < kLearnCnpMin))) {
    learning = true;
    return 0;
  }
  const Policy& p = policy_;
  uint8_t f = 0;
  auto fail = [&f](Check c) { f = static_cast<uint8_t>(f | bit(c)); };
  if (m.is_cnp) {
    if (m.dscp != p.cnp_dscp || (m.pcp >= 0 && m.pcp != p.cnp_priority)) fail(Check::cnp_class);
    return f;
  }
  // Responses too: a lost ACK costs a transport timeout.
  if (!p.lossless(priority)) fail(Check::dscp_not_lossless);
  // Whatever the trust mode: switches trusting the other field queue it elsewhere.
  if (m.pcp >= 0 && m.pcp != p.dscp_priority[m.dscp]) fail(Check::pcp_mismatch);
  if (m.is_request && m.has_ecn && p.expect_ecn && !ecn_capable(m.ecn)) fail(Check::ecn_not_capable);
  // Another VLAN is another marking too: ports may map it to other QoS.
  if (fp.has_marking && (fp.dscp != m.dscp || fp.pcp != m.pcp || fp.vlan != m.vlan)) fail(Check::inconsistent_marking);
  return f;
}

void Checker::learn(const Marking& m) {
  if (m.is_cnp) {
    cnp_dscp_.add(m.dscp);
    cnp_pcp_.add(pcp_slot(m.pcp));
    if (cnp_dscp_.total >= kLearnCnpMin) {
      const int8_t pcp = slot_pcp(cnp_pcp_.top);
      policy_.cnp_dscp = cnp_dscp_.top;
      // Untagged CNPs: a tagged one should then agree with the CNP DSCP's priority.
      policy_.cnp_priority = pcp >= 0 ? static_cast<uint8_t>(pcp) : policy_.dscp_priority[cnp_dscp_.top];
    }
    return;
  }
  if (!m.is_request) return;  // responses follow their requests' class; data defines it
  data_dscp_.add(m.dscp);
  data_pcp_.add(pcp_slot(m.pcp));
  if (m.has_ecn) data_ecn_.add(m.ecn);
  // Only the learned priority is lossless: adding the configured ones would
  // hide a minority in a configured-lossless class the rest of the fabric avoids.
  policy_.lossless_mask = priority_bit(policy_.priority_of(data_dscp_.top, slot_pcp(data_pcp_.top)));
  policy_.expect_ecn = ecn_capable(data_ecn_.top);
}

Checker::Learned Checker::learned() const {
  Learned l;
  l.data_samples = data_dscp_.total;
  l.cnp_samples = cnp_dscp_.total;
  l.ready = configured_.mode == Mode::learned && l.data_samples >= kLearnMin;
  l.cnp_ready = l.ready && l.cnp_samples >= kLearnCnpMin;
  l.data_dscp = data_dscp_.top;
  l.data_pcp = slot_pcp(data_pcp_.top);
  l.data_ecn = data_ecn_.top;
  l.cnp_dscp = cnp_dscp_.top;
  l.cnp_pcp = slot_pcp(cnp_pcp_.top);
  return l;
}

Seen Checker::seen(uint32_t point) const {
  auto it = seen_.find(point);
  return it == seen_.end() ? Seen{} : it->second;
}

std::optional<FirstMarking> Checker::first_marking(uint32_t flow, uint32_t point) const {
  auto it = flow_points_.find(uint64_t{flow} << 32 | point);
  if (it == flow_points_.end() || !it->second.has_marking) return std::nullopt;
  return FirstMarking{it->second.dscp, it->second.pcp, it->second.vlan};
}

}  // namespace roceshark::qos
