// SPDX-License-Identifier: GPL-2.0-or-later
// Tree items, expert infos and the Info column for PFC: on PFC frames, and
// on the RoCE packets their pauses held.
#include <epan/expert.h>
#include <epan/proto.h>

#include <string>

#include "plugins/dissect.h"
#include "plugins/roce.h"
#include "plugins/tree_util.h"

namespace roceshark::glue {
namespace {

// The catalogue rows this file renders.
constexpr checks::Kind kPfcStorm = checks::kind("pfc_storm");
constexpr checks::Kind kEcnAboveXoff = checks::kind("ecn_above_xoff");
constexpr checks::Kind kPfcWrongClass = checks::kind("pfc_wrong_class");
constexpr checks::Kind kPfcPropagation = checks::kind("pfc_propagation");
constexpr checks::Kind kBadPfcFrames = checks::kind("bad_pfc_frames");
constexpr checks::Kind kLossyQueue = checks::kind("lossy_queue");

std::string priorities(uint8_t mask) {
  std::string s;
  for (int p = 0; p < 8; ++p)
    if (mask & (1u << p)) s += (s.empty() ? "" : ",") + std::to_string(p);
  return s;
}

}  // namespace

void render_pause(tvbuff_t* tvb, packet_info* pinfo, proto_tree* tree, const pfc::PauseVerdict& v, const Analyzer& a) {
  const std::string& point = a.point_name(v.point);
  const std::string mac = mac_to_string(v.src);
  if (v.storm) col_prepend_fstr(pinfo->cinfo, COL_INFO, "[RoCE PFC Storm] ");

  proto_item* ti = proto_tree_add_item(wanted_tree(tree, ids.proto), ids.proto, tvb, 0, 0, ENC_NA);
  proto_tree* t = proto_item_add_subtree(ti, ids.ett_pfc);
  // Filters name the point on PFC frames too.
  proto_item_append_text(gen(proto_tree_add_uint(t, ids.point, tvb, 0, 0, v.point)), " (%s)", point.c_str());
  if (v.beyond != LimitKind::none) {
    if (v.first_beyond) expert_add_info(pinfo, ti, &ids.ei_limit[size_t(v.beyond)]);
    return;
  }
  for (uint8_t p = 0; p < 8; ++p) {
    const auto bit = static_cast<uint8_t>(1u << p);
    if (!(v.enabled & bit)) continue;
    proto_item* ci = gen(proto_tree_add_uint(t, ids.pfc_priority, tvb, 0, 0, p));
    proto_tree* ct = proto_item_add_subtree(ci, ids.ett_pfc_class);
    gen(proto_tree_add_uint64(ct, ids.pfc_pause_ns, tvb, 0, 0, v.pause_ns[p]));
    if (v.xon & bit) add_flag(ct, tvb, ids.pfc_xon);
    if (v.storm & bit) {
      proto_item* si = add_flag(ct, tvb, check_field(kPfcStorm));
      if (v.storm_start & bit)
        expert_add_info_format(pinfo, si, check_expert(kPfcStorm),
                               "PFC storm at %s: %s has paused priority %u for %.1f ms and counting", point.c_str(),
                               mac.c_str(), p, static_cast<double>(a.config().storm_ns) / 1e6);
    }
    if (v.no_ecn & bit) {
      proto_item* ni = add_flag(ct, tvb, check_field(kEcnAboveXoff));
      if (v.no_ecn_first & bit)
        expert_add_info_format(pinfo, ni, check_expert(kEcnAboveXoff),
                               "Pause on priority %u at %s from %s with no ECN-CE or CNP on this link in the %.0f us "
                               "before: the ECN (DCQCN Kmin) threshold is likely above the PFC XOFF threshold",
                               p, point.c_str(), mac.c_str(), static_cast<double>(a.config().ecn_window_ns) / 1e3);
    }
    if (v.wrong_class_first & bit)
      expert_add_info_format(pinfo, add_flag(ct, tvb, check_field(kPfcWrongClass)), check_expert(kPfcWrongClass),
                             "PFC on priority %u at %s (from %s) but RoCE runs on priority %s with no PFC: PFC is "
                             "enabled on the wrong class",
                             p, point.c_str(), mac.c_str(), priorities(v.wrong_class_roce).c_str());
    if (v.propagation & bit) {
      proto_item* pi = add_flag(ct, tvb, check_field(kPfcPropagation));
      gen(proto_tree_add_uint(ct, ids.pfc_storm_frame, tvb, 0, 0, v.propagation_frame));
      expert_add_info_format(pinfo, pi, check_expert(kPfcPropagation),
                             "Pause on priority %u at %s follows the PFC storm at %s (frame %u): the pause is "
                             "propagating towards the hosts",
                             p, point.c_str(), a.point_name(v.propagation_point).c_str(), v.propagation_frame);
    }
  }
  if (v.reserved_bits)
    expert_add_info(pinfo, add_flag(t, tvb, check_field(kBadPfcFrames)), check_expert(kBadPfcFrames));
  if (v.nonstandard_dst)
    expert_add_info_format(pinfo, add_flag(t, tvb, check_field(kBadPfcFrames, 1)), check_expert(kBadPfcFrames, 1),
                           v.ignored && !v.runt
                               ? "PFC frame from %s at %s sent to a multicast address other than 01:80:c2:00:00:01: "
                                 "receivers ignore it, no pause assumed"
                               : "PFC frame from %s at %s sent to a unicast address, not 01:80:c2:00:00:01: obeyed "
                                 "only by the port with that address",
                           mac.c_str(), point.c_str());
  if (v.runt)
    expert_add_info_format(pinfo, add_flag(t, tvb, check_field(kBadPfcFrames, 2)), check_expert(kBadPfcFrames, 2),
                           "Runt PFC frame at %s (%u bytes on the wire): receivers discard it, no pause assumed",
                           point.c_str(), pinfo->fd->pkt_len);
  else if (v.truncated)
    expert_add_info_format(pinfo, add_flag(t, tvb, check_field(kBadPfcFrames, 2)), check_expert(kBadPfcFrames, 2),
                           "PFC frame cut by the snaplen at %s: classes with no captured pause time are ignored",
                           point.c_str());
}

void render_packet_pfc(tvbuff_t* tvb, packet_info* pinfo, proto_tree* t, const Verdict& v, const Analyzer& a) {
  const pfc::PacketPfc& p = v.pfc;
  const std::string& point = a.point_name(v.point);
  gen(proto_tree_add_uint(t, ids.priority, tvb, 0, 0, p.priority));
  if (p.held) {
    add_flag(t, tvb, ids.pfc_paused);
    gen(proto_tree_add_uint(t, ids.pfc_pause_frame, tvb, 0, 0, p.pause_frame));
    if (p.stall_ns) gen(proto_tree_add_uint64(t, ids.pfc_stall_ns, tvb, 0, 0, p.stall_ns));
  }
  if (p.unattributed)
    expert_add_info_format(pinfo, add_flag(t, tvb, ids.pfc_unattributed), &ids.ei_pfc_unattributed,
                           "Released right after a pause at %s, but its MACs put it on both sides of the link: not "
                           "counted as held",
                           point.c_str());
  // Not on a NAK a late original took back, nor on a resend it forced
  // (known on later passes).
  if (p.lossy_first && !session_events().nak_taken_back(v.frame) && !session_events().nak_taken_back(v.nak_frame))
    expert_add_info_format(pinfo, add_flag(t, tvb, check_field(kLossyQueue)), check_expert(kLossyQueue),
                           "RoCE loss on priority %u at %s, and no PFC frame for priority %u seen: RoCE is likely in "
                           "a lossy queue",
                           p.priority, point.c_str(), p.priority);
  if (p.wrong_class_pfc)
    expert_add_info_format(pinfo, add_flag(t, tvb, check_field(kPfcWrongClass)), check_expert(kPfcWrongClass),
                           "RoCE on priority %u at %s has no PFC, while PFC pauses priority %s, which carries no "
                           "RoCE: PFC is enabled on the wrong class",
                           p.priority, point.c_str(), priorities(p.wrong_class_pfc).c_str());
}

}  // namespace roceshark::glue
