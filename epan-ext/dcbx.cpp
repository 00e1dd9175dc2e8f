// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/dcbx.h"

#include "epan-ext/text_table.h"


namespace roceshark::qos {
namespace {

std::string n(unsigned v) { return std::to_string(v); }

std::string enabled_list(uint8_t mask) { return mask ? format_priorities(mask) : "none"; }

}  // namespace

const char* finding_kind_name(DcbxFinding::Kind k) {
  switch (k) {
    case DcbxFinding::Kind::pfc_off_on_roce_priority: return "pfc_off_on_roce_priority";
    case DcbxFinding::Kind::app_disagrees_with_policy: return "app_disagrees_with_policy";
    case DcbxFinding::Kind::app_disagrees_with_traffic: return "app_disagrees_with_traffic";
    case DcbxFinding::Kind::max_frame_below_roce: return "max_frame_below_roce";
  }
  return "?";
}

CheckOf check_of(DcbxFinding::Kind k) {
  if (k == DcbxFinding::Kind::max_frame_below_roce) return {checks::kind("lldp_max_frame"), 0};
  return {checks::kind("dcbx_mismatch"), static_cast<size_t>(k)};
}

std::vector<DcbxFinding> compare(const DcbxAnnouncement& a, const Policy& p, const Seen& seen) {
  std::vector<DcbxFinding> out;
  using Kind = DcbxFinding::Kind;
  const uint64_t seen_dscps = seen.dscps;
  const uint8_t seen_priorities = seen.priorities;

  // No PFC TLV says nothing about PFC: only an announced "off" is a finding.
  if (a.has_pfc) {
    const uint8_t roce = p.lossless_mask | seen_priorities;
    for (uint8_t prio = 0; prio < 8; ++prio) {
      const uint8_t b = priority_bit(prio);
      if (!(roce & b) || (a.pfc_enabled & b)) continue;
      std::string why = p.lossless(prio) && (seen_priorities & b) ? "lossless in the policy and carrying RoCE here"
                        : p.lossless(prio)                         ? "lossless in the policy"
                                                                   : "carrying RoCE here";
      out.push_back({Kind::pfc_off_on_roce_priority, prio, 0, a.pfc_enabled,
                     "PFC is off on priority " + n(prio) + " (" + why + "); PFC enabled on: " +
                         enabled_list(a.pfc_enabled)});
    }
  }

  // The DSCPs the policy cares about: RoCE seen in a lossless class, and the CNP's.
  uint64_t cared = uint64_t{1} << (p.cnp_dscp & 63u);
  for (uint8_t d = 0; d < 64; ++d)
    if ((seen_dscps >> d & 1u) && p.lossless(p.dscp_priority[d])) cared |= uint64_t{1} << d;

  for (auto [dscp, announced] : a.app_dscp) {
    if (dscp > 63 || announced > 7) continue;  // not a valid DSCP APP entry
    const uint8_t policy_prio = p.dscp_priority[dscp];
    if ((seen_dscps >> dscp & 1u) && !p.lossless(announced)) {
      out.push_back({Kind::app_disagrees_with_traffic, policy_prio, dscp, announced,
                     "APP maps DSCP " + n(dscp) + ", which carries RoCE here, to priority " + n(announced) +
                         ", which is not lossless (" +
                         (p.lossless_mask ? "lossless: " + format_priorities(p.lossless_mask) : "none is lossless") +
                         ")"});
    } else if ((cared >> dscp & 1u) && announced != policy_prio) {
      const char* what = dscp == p.cnp_dscp ? " (the CNP DSCP)" : "";
      out.push_back({Kind::app_disagrees_with_policy, policy_prio, dscp, announced,
                     "APP maps DSCP " + n(dscp) + what + " to priority " + n(announced) +
                         ", the policy maps it to " + n(policy_prio)});
    }
  }

  if (a.max_frame_size && seen.largest_frame > a.max_frame_size) {
    DcbxFinding f{Kind::max_frame_below_roce, 0, 0, 0, "", seen.largest_frame};
    f.text = "maximum frame size " + cell::grouped(a.max_frame_size) + " bytes, but RoCE frames of " +
             cell::grouped(seen.largest_frame) + " bytes cross this link";
    out.push_back(std::move(f));
  }
  return out;
}

}  // namespace roceshark::qos
