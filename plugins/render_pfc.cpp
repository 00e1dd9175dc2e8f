// SPDX-License-Identifier: GPL-2.0-or-later
// Tree items, expert infos and the Info column for PFC: on PFC frames, and
// on the RoCE packets their pauses held.
#include <epan/expert.h>
#include <epan/proto.h>

#include <string>

#include "epan-ext/analysis/packet_notes.h"
#include "epan-ext/analysis/pfc_notes.h"
#include "plugins/dissect.h"
#include "plugins/roce.h"
#include "plugins/tree_util.h"

namespace roceshark::glue {
namespace {

// The catalogue rows this file renders.
constexpr checks::Kind kPfcStorm = checks::kind("pfc_storm");
constexpr checks::Kind kPfcChatter = checks::kind("pfc_chatter");
constexpr checks::Kind kEcnAboveXoff = checks::kind("ecn_above_xoff");
constexpr checks::Kind kPfcWrongClass = checks::kind("pfc_wrong_class");
constexpr checks::Kind kPfcPropagation = checks::kind("pfc_propagation");
constexpr checks::Kind kBadPfcFrames = checks::kind("bad_pfc_frames");
constexpr checks::Kind kLossyQueue = checks::kind("lossy_queue");

}  // namespace

proto_tree* render_pause(tvbuff_t* tvb, packet_info* pinfo, proto_tree* tree, const pfc::PauseVerdict& v, const Analyzer& a) {
  const std::string& point = a.point_name(v.point);
  const std::string mac = mac_label(a, v.src);
  if (v.storm) col_prepend_fstr(pinfo->cinfo, COL_INFO, "[RoCE PFC Storm] ");

  proto_item* ti = proto_tree_add_item(wanted_tree(tree, ids.proto), ids.proto, tvb, 0, 0, ENC_NA);
  proto_tree* t = proto_item_add_subtree(ti, ids.ett_pfc);
  // Filters name the point on PFC frames too.
  proto_item_append_text(gen(proto_tree_add_uint(t, ids.point, tvb, 0, 0, v.point)), " (%s)", point.c_str());
  if (v.clock_back)
    expert_add_info_format(pinfo, verdict(pinfo, add_flag(t, tvb, ids.clock_back)), &ids.ei_clock_back, "%s",
                           clock_back_text(point).c_str());
  if (v.beyond != LimitKind::none) {
    if (v.first_beyond) expert_add_info(pinfo, ti, &ids.ei_limit[size_t(v.beyond)]);
    return t;
  }
  for (uint8_t p = 0; p < 8; ++p) {
    const auto bit = static_cast<uint8_t>(1u << p);
    if (!(v.enabled & bit)) continue;
    proto_item* ci = gen(proto_tree_add_uint(t, ids.pfc_priority, tvb, 0, 0, p));
    proto_tree* ct = proto_item_add_subtree(ci, ids.ett_pfc_class);
    gen(proto_tree_add_uint64(ct, ids.pfc_pause_ns, tvb, 0, 0, v.pause_ns[p]));
    if (v.xon & bit) add_flag(ct, tvb, ids.pfc_xon);
    if (v.storm & bit) {
      proto_item* si = verdict(pinfo, add_flag(ct, tvb, check_field(kPfcStorm)));
      if (v.storm_start & bit)
        expert_add_info_format(pinfo, si, check_expert(kPfcStorm), "%s",
                               pfc::storm_text(point, mac, p, a.config().storm_ns).c_str());
    }
    if (v.chatter & bit) {
      proto_item* hi = verdict(pinfo, add_flag(ct, tvb, check_field(kPfcChatter)));
      if (v.chatter_start & bit)
        expert_add_info_format(
            pinfo, hi, check_expert(kPfcChatter), "%s",
            pfc::chatter_text(point, mac, p, a.config().storm_ns, a.config().storm_share_pct).c_str());
    }
    if (v.no_ecn & bit) {
      proto_item* ni = verdict(pinfo, add_flag(ct, tvb, check_field(kEcnAboveXoff)));
      if (v.no_ecn_first & bit)
        expert_add_info_format(pinfo, ni, check_expert(kEcnAboveXoff), "%s",
                               pfc::ecn_above_xoff_text(point, mac, p, a.config().ecn_window_ns).c_str());
    }
    if (v.wrong_class_first & bit)
      expert_add_info_format(pinfo, verdict(pinfo, add_flag(ct, tvb, check_field(kPfcWrongClass))), check_expert(kPfcWrongClass),
                             "%s", pfc::wrong_class_pause_text(point, mac, p, v.wrong_class_roce).c_str());
    if (v.propagation & bit) {
      proto_item* pi = verdict(pinfo, add_flag(ct, tvb, check_field(kPfcPropagation)));
      gen(proto_tree_add_uint(ct, ids.pfc_storm_frame, tvb, 0, 0, v.propagation_frame));
      expert_add_info_format(
          pinfo, pi, check_expert(kPfcPropagation), "%s",
          pfc::propagation_text(point, p, a.point_name(v.propagation_point), v.propagation_frame).c_str());
    }
  }
  if (v.reserved_bits)
    expert_add_info(pinfo, verdict(pinfo, add_flag(t, tvb, check_field(kBadPfcFrames))), check_expert(kBadPfcFrames));
  if (v.nonstandard_dst)
    expert_add_info_format(pinfo, verdict(pinfo, add_flag(t, tvb, check_field(kBadPfcFrames, 1))), check_expert(kBadPfcFrames, 1),
                           "%s", pfc::nonstandard_dst_text(point, mac, v.ignored && !v.runt).c_str());
  if (v.runt)
    expert_add_info_format(pinfo, verdict(pinfo, add_flag(t, tvb, check_field(kBadPfcFrames, 2))), check_expert(kBadPfcFrames, 2),
                           "%s", pfc::runt_text(point, pinfo->fd->pkt_len).c_str());
  else if (v.truncated)
    expert_add_info_format(pinfo, verdict(pinfo, add_flag(t, tvb, check_field(kBadPfcFrames, 2))), check_expert(kBadPfcFrames, 2),
                           "%s", pfc::cut_text(point).c_str());
  return t;
}

void render_packet_pfc(tvbuff_t* tvb, packet_info* pinfo, proto_tree* t, const Verdict& v, const Analyzer& a) {
  const pfc::PacketPfc& p = v.pfc;
  if (t) gen(proto_tree_add_uint(t, ids.priority, tvb, 0, 0, p.priority));
  if (t && p.held) {
    add_flag(t, tvb, ids.pfc_paused);
    gen(proto_tree_add_uint(t, ids.pfc_pause_frame, tvb, 0, 0, p.pause_frame));
    if (p.stall_ns) gen(proto_tree_add_uint64(t, ids.pfc_stall_ns, tvb, 0, 0, p.stall_ns));
  }
  if (p.unattributed)
    expert_add_info_format(pinfo, verdict(pinfo, add_flag(t, tvb, ids.pfc_unattributed)), &ids.ei_pfc_unattributed, "%s",
                           pfc::unattributed_text(a.point_name(v.point)).c_str());
  // Not on a NAK a late original took back, nor on a resend it forced
  // (known on later passes).
  if (p.lossy_first && !session_events().nak_taken_back(v.frame) && !session_events().nak_taken_back(v.nak_frame))
    expert_add_info_format(pinfo, verdict(pinfo, add_flag(t, tvb, check_field(kLossyQueue))), check_expert(kLossyQueue), "%s",
                           pfc::lossy_queue_text(a.point_name(v.point), p.priority).c_str());
  if (p.wrong_class_pfc)
    expert_add_info_format(pinfo, verdict(pinfo, add_flag(t, tvb, check_field(kPfcWrongClass))), check_expert(kPfcWrongClass), "%s",
                           pfc::wrong_class_packet_text(a.point_name(v.point), p.priority, p.wrong_class_pfc).c_str());
}

}  // namespace roceshark::glue
