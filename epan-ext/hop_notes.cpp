// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/hop_notes.h"

#include "epan-ext/qos_checker.h"
#include "epan-ext/text_table.h"
#include "epan-ext/vlan_change.h"

namespace roceshark::hop {
namespace {

std::string marking(uint8_t dscp, int pcp) {
  return "DSCP " + std::to_string(dscp) + (pcp >= 0 ? " PCP " + std::to_string(pcp) : std::string(" untagged"));
}

}  // namespace

std::vector<HopNote> hop_notes(const HopVerdict& h, const Verdict& v, std::string_view prev_name,
                               std::string_view point_name) {
  // Text is made only for the packet that carries the expert info.
  const auto between = [&] { return " between " + std::string(prev_name) + " and " + std::string(point_name); };
  std::vector<HopNote> out;
  const auto note = [&](checks::Kind k, bool first, auto text) {
    out.push_back({k, first, first ? text() : std::string()});
  };
  if (h.remarked)
    note(checks::kind("dscp_remarked"), h.remark_first, [&] {
      return "Remarked" + between() + ": " + marking(h.prev_dscp, h.prev_pcp) + " there, " +
             marking(v.pkt.dscp, v.pkt.pcp) + " here (a mid-path device rewrites marking)";
    });
  if (h.vlan_changed)
    note(checks::kind("vlan_changed"), h.vlan_first, [&] { return vlan_change(h, v.pkt.pcp).text() + between(); });
  if (h.ecn_bleached)
    note(checks::kind("ecn_bleached"), h.bleach_first, [&] {
      return "ECN cleared" + between() + ": " + qos::ecn_name(h.prev_ecn) + " there, " + qos::ecn_name(v.pkt.ecn) +
             " here (no CNPs: DCQCN cannot slow down)";
    });
  if (h.ecn_unmarked)
    note(checks::kind("ecn_threshold_mismatch"), h.ecn_unmarked_first, [&] {
      return "ECN-capable, queued " + cell::us(h.queue_ns) + " us" + between() +
             " and not marked, beyond where another hop marks priority " + std::to_string(v.pfc.priority) +
             ": this hop's ECN threshold is higher (-z roce,hops)";
    });
  if (h.cnp_wait_ns)
    note(checks::kind("cnp_queued"), h.cnp_queued_first, [&] {
      return "CNP queued " + cell::us(h.cnp_wait_ns) + " us" + between() +
             ", like the RoCE data before it: CNPs are not in a strict-priority class of their own";
    });
  if (h.be_share_pct)
    note(checks::kind("starved_by_besteffort"), h.be_starved_first, [&] {
      return "RoCE queued " + cell::us(h.queue_ns) + " us" + between() + " while best-effort took " +
             std::to_string(h.be_share_pct) + "% of the bytes leaving (link " + std::to_string(h.be_fill_pct) +
             "% full) and waited " + cell::us(h.be_wait_ns) + " us on average: best-effort is served first";
    });
  if (h.microburst)
    note(checks::kind("microburst"), h.burst_start, [&] {
      return "Microburst" + between() + ": " + cell::us(h.queue_ns) + " us of queueing above the hop's minimum";
    });
  return out;
}

}  // namespace roceshark::hop
