// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/analysis/hop_notes.h"

#include <cstdio>

#include "epan-ext/analysis/qos_checker.h"
#include "epan-ext/common/text_table.h"
#include "epan-ext/analysis/vlan_change.h"

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

std::string negative_latency_text(std::string_view prev, std::string_view point, int64_t latency_ns) {
  char us[32];
  std::snprintf(us, sizeof us, "%.1f", static_cast<double>(latency_ns) / 1e3);
  return "Negative hop latency from " + std::string(prev) + " to " + std::string(point) + " (" + us +
         " us): the points' clocks are not synced; try roce.clock:estimate";
}

std::string skew_text(const ClockEstimator::Estimate& e, std::string_view a_name, std::string_view b_name) {
  const auto magnitude = static_cast<uint64_t>(e.offset_ns < 0 ? -e.offset_ns : e.offset_ns);
  return std::string(b_name) + "'s clock is " + cell::us(magnitude, 2) + " us (+/- " +
         cell::us(static_cast<uint64_t>(e.uncertainty_ns), 2) + ") " + (e.offset_ns > 0 ? "ahead of" : "behind") + " " +
         std::string(a_name) +
         "'s, as traffic both ways shows: hop latencies between them are off by as much; try roce.clock:estimate";
}

std::string merged_points_text(std::string_view point, uint32_t qp, uint8_t ttl) {
  return "Two places at " + std::string(point) + ": the TTL of QP " + cell::qp(qp) + " flips (now " +
         std::to_string(ttl) +
         "). Merge taps with mergecap -I none; for mirror sessions on one collector set roce.point_key (erspan, vlan)";
}

std::vector<HopNote> lost_notes(uint32_t frame_len, uint16_t largest_passed, std::string_view point, std::string_view next) {
  std::vector<HopNote> out{{checks::kind("hop_loss"), true, lost_after_text(point)}};
  if (largest_passed && capped_len(frame_len) > largest_passed)
    out.push_back({checks::kind("mtu_mismatch"), true, lost_too_big_text(point, next, frame_len, largest_passed)});
  return out;
}

std::string lost_after_text(std::string_view point) {
  return "Lost after " + std::string(point) + ": not seen at the next point on its path";
}

std::string lost_too_big_text(std::string_view point, std::string_view next, uint32_t len, uint32_t passed) {
  return "Lost between " + std::string(point) + " and " + std::string(next) + ", and longer (" + std::to_string(len) +
         " bytes) than any frame that crossed (at most " + std::to_string(passed) +
         "): an MTU between them is below this frame";
}

}  // namespace roceshark::hop
