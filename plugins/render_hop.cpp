// SPDX-License-Identifier: GPL-2.0-or-later
// Tree items and expert infos for a RoCE packet seen at an earlier point.
#include <epan/expert.h>
#include <epan/proto.h>

#include <string>

#include "epan-ext/analysis/hop_notes.h"
#include "plugins/dissect.h"
#include "plugins/roce.h"
#include "plugins/tree_util.h"

namespace roceshark::glue {
namespace {

// The catalogue rows this file renders.
constexpr checks::Kind kClockSkew = checks::kind("clock_skew");
constexpr checks::Kind kMergedPoints = checks::kind("merged_points");

}  // namespace

void render_packet_hop(tvbuff_t* tvb, packet_info* pinfo, proto_tree* t, const Verdict& v, const StoredAnalysis& a) {
  const auto point = [&]() -> const std::string& { return a.point_name(v.point); };  // for expert texts only
  if (const std::optional<hop::HopVerdict> h = v.has_hop ? a.find_hop(v.frame) : std::nullopt) {
    const std::string& prev = a.point_name(h->prev_point);
    proto_item* hi = gen(proto_tree_add_int64(t, ids.hop_latency_ns, tvb, 0, 0, h->latency_ns));
    proto_tree* ht = proto_item_add_subtree(hi, ids.ett_hop);
    gen(proto_tree_add_uint(ht, ids.hop_prev_point, tvb, 0, 0, h->prev_point));
    gen(proto_tree_add_string(ht, ids.hop_prev_point_name, tvb, 0, 0, prev.c_str()));
    gen(proto_tree_add_uint(ht, ids.hop_prev_frame, tvb, 0, 0, h->prev_frame));
    gen(proto_tree_add_uint64(ht, ids.hop_queue_ns, tvb, 0, 0, h->queue_ns));
    gen(proto_tree_add_int(ht, ids.hop_ttl_delta, tvb, 0, 0, h->ttl_delta));
    if (h->ce_set) add_flag(ht, tvb, ids.hop_ce_set);
    for (const hop::HopNote& n : hop::hop_notes(*h, v, prev, point())) {
      proto_item* it = verdict(pinfo, add_flag(ht, tvb, check_field(n.kind)));
      if (n.expert) expert_add_info_format(pinfo, it, check_expert(n.kind), "%s", n.text.c_str());
    }
    if (h->negative_first)
      expert_add_info_format(pinfo, hi, check_expert(kClockSkew, 1), "%s",
                             hop::negative_latency_text(prev, point(), h->latency_ns).c_str());
  }
  for (const hop::Skew& s : session_events().skews_at(v.frame)) {
    const auto e = a.hops().clocks().estimate(s.a, s.b);  // so far: final on later passes
    if (!e) continue;
    expert_add_info_format(pinfo, verdict(pinfo, add_flag(t, tvb, check_field(kClockSkew))), check_expert(kClockSkew), "%s",
                           hop::skew_text(*e, a.point_name(e->a), a.point_name(e->b)).c_str());
  }
  if (v.merged_points)
    expert_add_info_format(pinfo, verdict(pinfo, add_flag(t, tvb, check_field(kMergedPoints))), check_expert(kMergedPoints), "%s",
                           hop::merged_points_text(point(), a.flow_key(v.flow).qp, v.pkt.ttl).c_str());
  // Known once the match window has passed: on later passes (GUI, -2).
  if (const hop::HopKey* lost = session_events().lost_after(v.frame))
    for (const hop::HopNote& n : hop::lost_notes(pinfo->fd->pkt_len, a.hops().largest_passed(lost->from, lost->to),
                                                 point(), a.point_name(lost->to)))
      expert_add_info_format(pinfo, verdict(pinfo, add_flag(t, tvb, check_field(n.kind))), check_expert(n.kind), "%s",
                             n.text.c_str());
}

}  // namespace roceshark::glue
