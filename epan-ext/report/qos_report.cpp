// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/report/qos_report.h"

#include <cstdio>

#include "epan-ext/decode/ethernet.h"
#include "epan-ext/common/text_table.h"

namespace roceshark::qos {
namespace {

constexpr auto kLeft = TextTable::Align::left;
using cell::num;


std::string pcp_value(int pcp) { return pcp < 0 ? "untagged" : std::to_string(pcp); }

std::string or_none(const std::string& s) { return s.empty() ? "none" : s; }

std::string map_line(const Policy& p) {
  const std::string overrides = format_dscp_map(p.dscp_priority);
  return "DSCP -> priority: DSCP>>3, overrides: " + or_none(overrides) + " (" + num(kRoceDscp) + "->" +
         num(p.dscp_priority[kRoceDscp]) + ", " + num(p.cnp_dscp) + "->" + num(p.dscp_priority[p.cnp_dscp & 63u]) + ")";
}

std::string cnp_line(const Policy& p) {
  return "CNP class: DSCP " + num(p.cnp_dscp) + ", priority " + num(p.cnp_priority);
}

std::string policy_section(const Policy& p, const Checker::Learned& l) {
  std::string out;
  auto line = [&](const std::string& s) { out += "  " + s + "\n"; };
  const std::string lossless = "Lossless priorities: " + or_none(format_priorities(p.lossless_mask));
  const std::string ecn = std::string("RoCE data ECN: ") + (p.expect_ecn ? "ECT(0)/ECT(1) expected" : "not expected");

  if (p.mode == Mode::configured) {
    out += "\nPolicy in force (configured)\n";
    line(map_line(p));
    line(std::string("Trust: ") + trust_name(p.trust));
    line(lossless);
    line(ecn);
    line(cnp_line(p));
    return out;
  }

  out += "\nPolicy in force (learned from " + num(l.data_samples) + " RoCE data packet(s) and " + num(l.cnp_samples) +
         " CNP(s))\n";
  if (!l.ready) {
    line("Still learning: " + num(l.data_samples) + " of " + num(Checker::kLearnMin) +
         " RoCE data packets seen, so no packet was checked");
  } else {
    line("Dominant data marking: DSCP " + num(l.data_dscp) + ", PCP " + pcp_value(l.data_pcp) + ", ECN " +
         ecn_name(l.data_ecn));
    line(lossless + " (learned: the dominant data marking's priority)");
    line(ecn + " (learned)");
    if (l.cnp_ready)
      line(cnp_line(p) + " (learned: dominant CNP marking DSCP " + num(l.cnp_dscp) + ", PCP " + pcp_value(l.cnp_pcp) +
           ")");
    else
      line("CNP class: not learned (" + num(l.cnp_samples) + " of " + num(Checker::kLearnCnpMin) +
           " CNPs seen), so CNPs were not checked");
  }
  line(map_line(p) + " (configured)");
  line(std::string("Trust: ") + trust_name(p.trust) + " (configured)");
  return out;
}

std::string marking_section(const QosStats& stats) {
  TextTable t({{"Stream"}, {"Point", kLeft}, {"Source", kLeft}, {"Destination", kLeft}, {"DestQP", kLeft},
               {"Roles", kLeft}, {"DSCP", kLeft}, {"PCP", kLeft}, {"ECN (data)", kLeft}, {"Priority", kLeft},
               {"CNP DSCP", kLeft}, {"CNP PCP", kLeft}});
  for (const auto& [key, r] : stats.rows())
    t.add_row({num(r.stream), r.point_name, r.flow.src.to_string(), r.flow.dst.to_string(), cell::qp(r.flow.qp),
               format_roles(r), format_counts(r.dscp, ValueKind::number), format_counts(r.pcp, ValueKind::pcp),
               format_counts(r.ecn, ValueKind::ecn), format_counts(r.priority, ValueKind::number),
               format_counts(r.cnp_dscp, ValueKind::number), format_counts(r.cnp_pcp, ValueKind::pcp)});
  return "\nMarking seen (per directed flow, per capture point; value:packets)\n" + t.render();
}

std::string violation_section(const QosStats& stats) {
  if (stats.violations().empty()) return "\nNo QoS violations.\n";
  TextTable t({{"Check", kLeft}, {"Point", kLeft}, {"Stream"}, {"Source", kLeft}, {"Destination", kLeft},
               {"DestQP", kLeft}, {"First frame"}, {"Packets"}});
  for (const auto& [key, v] : stats.violations())
    t.add_row({check_field(std::get<0>(key)), v.point_name, num(v.stream),
               v.flow.src.to_string(), v.flow.dst.to_string(), cell::qp(v.flow.qp), num(v.first_frame),
               num(v.packets)});
  return "\nViolations (per check, capture point and directed flow)\n" + t.render();
}

std::string app_list(const DcbxAnnouncement& a) {
  std::string out;
  for (auto [dscp, prio] : a.app_dscp) out += (out.empty() ? "" : ",") + num(dscp) + ":" + num(prio);
  return out.empty() ? "-" : out;
}

std::string dcbx_section(const QosStats& stats, const AnalysisFacts& names) {
  if (stats.dcbx().empty()) return "\nNo DCBX announcements (LLDP with 802.1Qaz or 802.3 maximum frame size TLVs) seen.\n";
  TextTable t({{"First frame"}, {"Point", kLeft}, {"Port MAC", kLeft}, {"Repeats"}, {"PFC enabled", kLeft},
               {"APP DSCP:priority", kLeft}, {"Max frame (B)"}, {"Findings"}});
  std::string findings, ets;
  for (const DcbxEntry& e : stats.dcbx()) {
    const DcbxAnnouncement& a = e.announcement;
    const std::string head = "  frame " + num(e.first_frame) + ", " + e.point_name + ", " + mac_label(names, a.mac);
    const std::string pfc = a.has_pfc ? or_none(format_priorities(a.pfc_enabled)) : "no PFC TLV";
    t.add_row({num(e.first_frame), e.point_name, mac_label(names, a.mac), num(e.repeats), pfc, app_list(a),
               a.max_frame_size ? num(a.max_frame_size) : "-", num(e.findings.size())});
    for (const DcbxFinding& f : e.findings) findings += head + ": " + f.text + " [" + finding_kind_name(f.kind) + "]\n";
    if (a.ets) ets += head + ": " + format_ets(*a.ets) + "\n";
    if (a.ets_recommended) ets += head + " recommends: " + format_ets(*a.ets_recommended) + "\n";
  }
  std::string out = "\nDCBX announcements (identical repeats counted once)\n" + t.render();
  if (!ets.empty()) out += "ETS (traffic class by priority 0..7; the classes' algorithm and share)\n" + ets;
  out += findings.empty() ? "No DCBX findings: the announcements agree with the policy and the traffic.\n"
                          : "DCBX findings\n" + findings;
  return out;
}

}  // namespace

std::string format_counts(const ValueCounts& c, ValueKind kind) {
  if (c.empty()) return "-";
  std::string out;
  for (auto [value, n] : c.by_count()) {
    const std::string v = kind == ValueKind::pcp   ? pcp_value(value)
                          : kind == ValueKind::ecn ? ecn_name(static_cast<uint8_t>(value))
                                                   : std::to_string(value);
    out += (out.empty() ? "" : " ") + v + ":" + num(n);
  }
  return out;
}

std::string format_roles(const QosRow& r) {
  std::string out;
  auto part = [&](const char* name, uint64_t n) {
    if (n) out += (out.empty() ? "" : " ") + std::string(name) + ":" + num(n);
  };
  part("req", r.requests);
  part("resp", r.responses);
  part("cnp", r.cnps);
  return out;
}

std::string check_field(Check c) { return std::string(checks::row(kind_of(c)).fields[0].abbrev); }

std::string format_qos_report(const QosStats& stats, const Policy& policy, const Checker::Learned& learned,
                              const std::string& filter, const AnalysisFacts& names) {
  std::string out = stats_header("RoCE QoS Consistency", filter);
  out += policy_section(policy, learned);
  if (stats.rows().empty()) {
    out += "\nNo RoCE packets.\n";
  } else {
    out += marking_section(stats);
    out += violation_section(stats);
  }
  out += dcbx_section(stats, names);
  out += "\n";
  if (stats.learning())
    out += "Note: " + num(stats.learning()) + " packet(s) came before the learned policy was ready and were not checked.\n";
  if (stats.duplicates()) out += "Note: " + num(stats.duplicates()) + " mirror duplicate(s) not counted.\n";
  if (stats.untracked())
    out += "Note: " + num(stats.untracked()) + " packet(s) beyond the flow limit or too short were not analysed.\n";
  if (stats.dcbx_dropped())
    out += "Note: " + num(stats.dcbx_dropped()) + " further distinct DCBX announcement(s) not kept.\n";
  return out + stats_rule();
}

}  // namespace roceshark::qos
