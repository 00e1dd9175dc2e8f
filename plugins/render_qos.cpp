// SPDX-License-Identifier: GPL-2.0-or-later
// Tree items and expert infos for the QoS checks: on RoCE packets, and on
// LLDP frames whose DCBX announcement contradicts the policy or the traffic.
#include <epan/expert.h>
#include <epan/proto.h>

#include <string>

#include "epan-ext/analysis/qos_checker.h"
#include "plugins/dissect.h"
#include "plugins/roce.h"
#include "plugins/tree_util.h"

namespace roceshark::glue {

void render_packet_qos(tvbuff_t* tvb, packet_info* pinfo, proto_tree* t, const Verdict& v, const Analyzer& a) {
  if (v.role != Role::request && v.role != Role::response && v.role != Role::cnp) return;
  if (v.seq == SeqClass::duplicate) return;  // not checked: the first copy was
  const qos::QosVerdict& q = v.qos;
  proto_tree* qt = nullptr;
  if (t) {
    proto_item* qi = gen(proto_tree_add_uint(t, ids.qos_priority, tvb, 0, 0, q.priority));
    qt = proto_item_add_subtree(qi, ids.ett_qos);
    gen(proto_tree_add_uint(qt, ids.qos_dscp, tvb, 0, 0, v.pkt.dscp));
    if (v.pkt.pcp >= 0) gen(proto_tree_add_uint(qt, ids.qos_pcp, tvb, 0, 0, static_cast<uint32_t>(v.pkt.pcp)));
    if (q.pcp_skipped) gen(proto_tree_add_string(qt, ids.qos_pcp_check, tvb, 0, 0, "skipped: untagged"));
    if (q.learning) add_flag(qt, tvb, ids.qos_learning);
  }
  if (!q.failed) return;
  const qos::Marking m{v.pkt.dscp, v.pkt.ecn, v.pkt.pcp, v.role == Role::cnp, v.role == Role::request, true, v.pkt.vlan_id};
  const std::string& point = a.point_name(v.point);
  const uint32_t qp = a.flow_key(v.flow).qp;
  for (size_t c = 0; c < qos::kChecks; ++c) {
    const auto check = static_cast<qos::Check>(c);
    if (!(q.failed & qos::bit(check))) continue;
    proto_item* it = verdict(pinfo, add_flag(qt, tvb, check_field(qos::kCheckKinds[c])));
    // Once per (QP, check, point): later packets carry the field only.
    if (!(q.first & qos::bit(check))) continue;
    const std::string why = qos::explain(check, m, a.qos().policy(), a.qos().first_marking(v.flow, v.point));
    expert_add_info_format(pinfo, it, check_expert(qos::kCheckKinds[c]), "%s",
                           qos::expert_text(check, qp, point, why).c_str());
  }
}

proto_tree* render_dcbx(tvbuff_t* tvb, packet_info* pinfo, proto_tree* tree, const qos::DcbxVerdict& v, const Analyzer& a) {
  const qos::DcbxAnnouncement& d = v.announcement;
  proto_item* ti = proto_tree_add_item(wanted_tree(tree, ids.proto), ids.proto, tvb, 0, 0, ENC_NA);
  proto_tree* t = proto_item_add_subtree(ti, ids.ett_dcbx);
  if (d.has_pfc) gen(proto_tree_add_uint(t, ids.dcbx_pfc_enabled, tvb, 0, 0, d.pfc_enabled));
  for (auto [dscp, prio] : d.app_dscp)
    gen(proto_tree_add_string(t, ids.dcbx_app, tvb, 0, 0, (std::to_string(dscp) + ":" + std::to_string(prio)).c_str()));
  if (d.ets) gen(proto_tree_add_string(t, ids.dcbx_ets, tvb, 0, 0, qos::format_ets(*d.ets).c_str()));
  const std::string& point = a.point_name(d.point);
  const std::string mac = mac_label(a, d.mac);
  for (const qos::DcbxFinding& f : v.findings) {
    const qos::CheckOf c = qos::check_of(f.kind);
    proto_item* it = verdict(pinfo, gen(proto_tree_add_string(t, check_field(c.row), tvb, 0, 0, f.text.c_str())));
    expert_add_info_format(pinfo, it, check_expert(c.row, c.expert), "%s",
                           qos::expert_text(f, mac, point).c_str());
  }
  return t;
}

}  // namespace roceshark::glue
