// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/analysis/dcbx.h"

#include "epan-ext/decode/ethernet.h"
#include "epan-ext/common/text_table.h"


namespace roceshark::qos {
namespace {

std::string n(unsigned v) { return std::to_string(v); }

std::string enabled_list(uint8_t mask) { return mask ? format_priorities(mask) : "none"; }

// "ETS 50%", "strict": a class's algorithm, with its share where ETS.
std::string algorithm_text(const EtsTable& t, uint8_t tc) {
  const uint8_t c = tc & 7u;
  return t.tsa[c] == kTsaEts ? std::string(tsa_name(t.tsa[c])) + " " + n(t.bw[c]) + "%" : tsa_name(t.tsa[c]);
}

// "TC3 (ETS 50%)", "TC6 (strict)"
std::string tc_text(const EtsTable& t, uint8_t tc) { return "TC" + n(tc & 7u) + " (" + algorithm_text(t, tc) + ")"; }

// The priorities other than `prio` in its traffic class.
uint8_t class_mates(const EtsTable& t, uint8_t prio) {
  uint8_t m = 0;
  for (uint8_t q = 0; q < 8; ++q)
    if (q != prio && t.tc[q] == t.tc[prio]) m |= priority_bit(q);
  return m;
}

void compare_ets(const EtsTable& t, const Policy& p, uint8_t roce, const EtsReference* ref, const DcbxAnnouncement& a,
                 std::vector<DcbxFinding>& out) {
  using Kind = DcbxFinding::Kind;
  for (uint8_t prio = 0; prio < 8; ++prio) {
    if (!(roce & priority_bit(prio))) continue;
    const uint8_t tc = t.tc[prio] & 7u;
    if (t.tsa[tc] == kTsaEts && t.bw[tc] == 0)
      out.push_back({Kind::ets_roce_no_bandwidth, prio, 0, tc,
                     "ETS puts priority " + n(prio) + " (RoCE) in " + tc_text(t, tc) +
                         ": no bandwidth once other classes are busy"});
  }
  // A CNP on a lossless priority of its own policy rides with the data by design.
  const uint8_t cnp = p.cnp_priority & 7u;
  if (!p.lossless(cnp)) {
    const uint8_t tc = t.tc[cnp] & 7u;
    if (const uint8_t mates = class_mates(t, cnp); t.tsa[tc] != kTsaStrict && mates)
      out.push_back({Kind::ets_cnp_shared, cnp, 0, tc,
                     "ETS puts the CNP priority " + n(cnp) + " in " + tc_text(t, tc) + " with priorities " +
                         format_priorities(mates) + ": CNPs queue behind that traffic"});
  }
  if (!ref || ref->mac == a.mac) return;
  const std::string other = mac_to_string(ref->mac) + " (frame " + n(ref->frame) + ")";
  for (uint8_t prio = 0; prio < 8; ++prio) {
    if (!(roce & priority_bit(prio))) continue;
    const uint8_t tc = t.tc[prio] & 7u, ref_tc = ref->table.tc[prio] & 7u;
    const bool same_share = t.tsa[tc] == ref->table.tsa[ref_tc] &&
                            (t.tsa[tc] != kTsaEts || t.bw[tc] == ref->table.bw[ref_tc]);
    if (tc == ref_tc && same_share) continue;
    out.push_back({Kind::ets_differs_between_ports, prio, 0, tc,
                   "ETS puts priority " + n(prio) + " (RoCE) in " + tc_text(t, tc) + ", " + other + " in " +
                       tc_text(ref->table, ref_tc)});
  }
}

}  // namespace

const char* tsa_name(uint8_t tsa) {
  static const char* const kNames[8] = {"strict", "CBS", "ETS", "TSA 3", "TSA 4", "TSA 5", "TSA 6", "TSA 7"};
  if (tsa == kTsaVendor) return "vendor";
  return tsa < 8 ? kNames[tsa] : "reserved TSA";
}

std::string format_ets(const EtsTable& t) {
  std::string s = "prio->TC ";
  uint8_t used = 0;
  for (uint8_t prio = 0; prio < 8; ++prio) {
    s += (prio ? "," : "") + n(t.tc[prio]);
    used |= priority_bit(t.tc[prio] & 7u);
  }
  s += ";";
  for (uint8_t tc = 0; tc < 8; ++tc) {
    if (!(used & priority_bit(tc))) continue;
    s += std::string(s.back() == ';' ? " " : ", ") + "TC" + n(tc) + " " + algorithm_text(t, tc);
  }
  return s;
}

const char* finding_kind_name(DcbxFinding::Kind k) {
  switch (k) {
    case DcbxFinding::Kind::pfc_off_on_roce_priority: return "pfc_off_on_roce_priority";
    case DcbxFinding::Kind::app_disagrees_with_policy: return "app_disagrees_with_policy";
    case DcbxFinding::Kind::app_disagrees_with_traffic: return "app_disagrees_with_traffic";
    case DcbxFinding::Kind::max_frame_below_roce: return "max_frame_below_roce";
    case DcbxFinding::Kind::ets_roce_no_bandwidth: return "ets_roce_no_bandwidth";
    case DcbxFinding::Kind::ets_cnp_shared: return "ets_cnp_shared";
    case DcbxFinding::Kind::ets_differs_between_ports: return "ets_differs_between_ports";
  }
  return "?";
}

const char* announced_in(DcbxFinding::Kind k) {
  return k == DcbxFinding::Kind::max_frame_below_roce ? "LLDP" : "DCBX";
}

std::string expert_text(const DcbxFinding& f, std::string_view from, std::string_view point) {
  return std::string(announced_in(f.kind)) + " from " + std::string(from) + " at " + std::string(point) + ": " + f.text;
}

CheckOf check_of(DcbxFinding::Kind k) {
  using Kind = DcbxFinding::Kind;
  switch (k) {
    case Kind::max_frame_below_roce: return {checks::kind("lldp_max_frame"), 0};
    case Kind::ets_roce_no_bandwidth: return {checks::kind("ets_mismatch"), 0};
    case Kind::ets_cnp_shared: return {checks::kind("ets_mismatch"), 1};
    case Kind::ets_differs_between_ports: return {checks::kind("ets_mismatch"), 2};
    default: return {checks::kind("dcbx_mismatch"), static_cast<size_t>(k)};
  }
}

std::vector<DcbxFinding> compare(const DcbxAnnouncement& a, const Policy& p, const Seen& seen,
                                 const EtsReference* ref) {
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
  if (a.ets) compare_ets(*a.ets, p, static_cast<uint8_t>(p.lossless_mask | seen_priorities), ref, a, out);
  return out;
}

}  // namespace roceshark::qos
