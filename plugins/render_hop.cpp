// SPDX-License-Identifier: GPL-2.0-or-later
// Tree items and expert infos for a RoCE packet seen at an earlier point.
#include <epan/expert.h>
#include <epan/proto.h>

#include <cmath>
#include <string>

#include "plugins/dissect.h"
#include "plugins/roce.h"
#include "plugins/tree_util.h"

namespace roceshark::glue {
namespace {

// The catalogue rows this file renders.
constexpr checks::Kind kDscpRemarked = checks::kind("dscp_remarked");
constexpr checks::Kind kEcnBleached = checks::kind("ecn_bleached");
constexpr checks::Kind kMicroburst = checks::kind("microburst");
constexpr checks::Kind kEcnMismatch = checks::kind("ecn_threshold_mismatch");
constexpr checks::Kind kClockSkew = checks::kind("clock_skew");
constexpr checks::Kind kMergedPoints = checks::kind("merged_points");
constexpr checks::Kind kHopLoss = checks::kind("hop_loss");
constexpr checks::Kind kMtu = checks::kind("mtu_mismatch");
constexpr checks::Kind kVlanChanged = checks::kind("vlan_changed");
constexpr checks::Kind kCnpQueued = checks::kind("cnp_queued");
constexpr checks::Kind kBeStarved = checks::kind("starved_by_besteffort");

std::string marking(uint8_t dscp, int pcp) {
  return "DSCP " + std::to_string(dscp) + (pcp >= 0 ? " PCP " + std::to_string(pcp) : std::string(" untagged"));
}

}  // namespace

void render_packet_hop(tvbuff_t* tvb, packet_info* pinfo, proto_tree* t, const Verdict& v, const StoredAnalysis& a) {
  const std::string& point = a.point_name(v.point);
  if (const hop::HopVerdict* h = v.has_hop ? a.find_hop(v.frame) : nullptr) {
    const std::string& prev = a.point_name(h->prev_point);
    proto_item* hi = gen(proto_tree_add_int64(t, ids.hop_latency_ns, tvb, 0, 0, h->latency_ns));
    proto_tree* ht = proto_item_add_subtree(hi, ids.ett_hop);
    gen(proto_tree_add_uint(ht, ids.hop_prev_point, tvb, 0, 0, h->prev_point));
    gen(proto_tree_add_string(ht, ids.hop_prev_point_name, tvb, 0, 0, prev.c_str()));
    gen(proto_tree_add_uint(ht, ids.hop_prev_frame, tvb, 0, 0, h->prev_frame));
    gen(proto_tree_add_uint64(ht, ids.hop_queue_ns, tvb, 0, 0, h->queue_ns));
    gen(proto_tree_add_int(ht, ids.hop_ttl_delta, tvb, 0, 0, h->ttl_delta));
    if (h->remarked) {
      proto_item* it = add_flag(ht, tvb, check_field(kDscpRemarked));
      if (h->remark_first)
        expert_add_info_format(pinfo, it, check_expert(kDscpRemarked),
                               "Remarked between %s and %s: %s there, %s here (a mid-path device rewrites marking)",
                               prev.c_str(), point.c_str(), marking(h->prev_dscp, h->prev_pcp).c_str(),
                               marking(v.pkt.dscp, v.pkt.pcp).c_str());
    }
    if (h->vlan_changed) {
      proto_item* it = add_flag(ht, tvb, check_field(kVlanChanged));
      if (h->vlan_first)
        expert_add_info_format(pinfo, it, check_expert(kVlanChanged), "%s between %s and %s",
                               hop::vlan_change(*h, v.pkt.pcp).text().c_str(), prev.c_str(), point.c_str());
    }
    if (h->ce_set) add_flag(ht, tvb, ids.hop_ce_set);
    if (h->ecn_bleached) {
      proto_item* it = add_flag(ht, tvb, check_field(kEcnBleached));
      if (h->bleach_first)
        expert_add_info_format(pinfo, it, check_expert(kEcnBleached),
                               "ECN cleared between %s and %s: %s there, %s here (no CNPs: DCQCN cannot slow down)",
                               prev.c_str(), point.c_str(), qos::ecn_name(h->prev_ecn), qos::ecn_name(v.pkt.ecn));
    }
    if (h->ecn_unmarked) {
      proto_item* it = add_flag(ht, tvb, check_field(kEcnMismatch));
      if (h->ecn_unmarked_first)
        expert_add_info_format(pinfo, it, check_expert(kEcnMismatch),
                               "ECN-capable, queued %.1f us between %s and %s and not marked, beyond where another "
                               "hop marks priority %u: this hop's ECN threshold is higher (-z roce,hops)",
                               static_cast<double>(h->queue_ns) / 1e3, prev.c_str(), point.c_str(),
                               unsigned{v.pfc.priority});
    }
    if (h->cnp_wait_ns) {
      proto_item* it = add_flag(ht, tvb, check_field(kCnpQueued));
      if (h->cnp_queued_first)
        expert_add_info_format(pinfo, it, check_expert(kCnpQueued),
                               "CNP queued %.1f us between %s and %s, like the RoCE data before it: CNPs are not in a "
                               "strict-priority class of their own",
                               static_cast<double>(h->cnp_wait_ns) / 1e3, prev.c_str(), point.c_str());
    }
    if (h->be_share_pct) {
      proto_item* it = add_flag(ht, tvb, check_field(kBeStarved));
      if (h->be_starved_first)
        expert_add_info_format(pinfo, it, check_expert(kBeStarved),
                               "RoCE queued %.1f us between %s and %s while best-effort took %u%% of the bytes "
                               "leaving (link %u%% full) and waited %.1f us on average: best-effort is served first",
                               static_cast<double>(h->queue_ns) / 1e3, prev.c_str(), point.c_str(),
                               unsigned{h->be_share_pct}, unsigned{h->be_fill_pct},
                               static_cast<double>(h->be_wait_ns) / 1e3);
    }
    if (h->microburst) {
      proto_item* it = add_flag(ht, tvb, check_field(kMicroburst));
      if (h->burst_start)
        expert_add_info_format(pinfo, it, check_expert(kMicroburst),
                               "Microburst between %s and %s: %.1f us of queueing above the hop's minimum",
                               prev.c_str(), point.c_str(), static_cast<double>(h->queue_ns) / 1e3);
    }
    if (h->negative_first)
      expert_add_info_format(pinfo, hi, check_expert(kClockSkew, 1),
                             "Negative hop latency from %s to %s (%.1f us): the points' clocks are not synced; try "
                             "roce.clock:estimate",
                             prev.c_str(), point.c_str(), static_cast<double>(h->latency_ns) / 1e3);
  }
  for (const hop::Skew& s : session_events().skews_at(v.frame)) {
    const auto e = a.hops().clocks().estimate(s.a, s.b);  // so far: final on later passes
    if (!e) continue;
    expert_add_info_format(pinfo, add_flag(t, tvb, check_field(kClockSkew)), check_expert(kClockSkew),
                           "%s's clock is %.2f us (+/- %.2f) %s %s's, as traffic both ways shows: hop latencies "
                           "between them are off by as much; try roce.clock:estimate",
                           a.point_name(e->b).c_str(), std::abs(static_cast<double>(e->offset_ns)) / 1e3,
                           static_cast<double>(e->uncertainty_ns) / 1e3, e->offset_ns > 0 ? "ahead of" : "behind",
                           a.point_name(e->a).c_str());
  }
  if (v.merged_points)
    expert_add_info_format(pinfo, add_flag(t, tvb, check_field(kMergedPoints)), check_expert(kMergedPoints),
                           "Two places at %s: the TTL of QP 0x%06x flips (now %u). Merge taps with mergecap -I none; "
                           "for mirror sessions on one collector set roce.point_key (erspan, vlan)",
                           point.c_str(), a.flow_key(v.flow).qp, unsigned{v.pkt.ttl});
  // Known once the match window has passed: on later passes (GUI, -2).
  if (const hop::HopKey* lost = session_events().lost_after(v.frame)) {
    expert_add_info_format(pinfo, add_flag(t, tvb, check_field(kHopLoss)), check_expert(kHopLoss),
                           "Lost after %s: not seen at the next point on its path", point.c_str());
    // Longer than anything that crossed the hop: the size is the likely cause.
    const uint16_t passed = a.hops().largest_passed(lost->from, lost->to);
    if (passed && hop::capped_len(pinfo->fd->pkt_len) > passed)
      expert_add_info_format(pinfo, add_flag(t, tvb, check_field(kMtu)), check_expert(kMtu),
                             "Lost between %s and %s, and longer (%u bytes) than any frame that crossed (at most %u): "
                             "an MTU between them is below this frame",
                             point.c_str(), a.point_name(lost->to).c_str(), pinfo->fd->pkt_len, unsigned{passed});
  }
}

}  // namespace roceshark::glue
