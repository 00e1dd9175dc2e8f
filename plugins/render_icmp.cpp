// SPDX-License-Identifier: GPL-2.0-or-later
// An ICMP fragmentation-needed / packet-too-big message about RoCE: the
// MTU the router reports, as evidence of mtu_mismatch when it is below
// the RoCE packets of the flow it quotes.
#include <epan/expert.h>
#include <epan/proto.h>

#include "plugins/dissect.h"
#include "plugins/roce.h"
#include "plugins/tree_util.h"

namespace roceshark::glue {

proto_tree* render_icmp(tvbuff_t* tvb, packet_info* pinfo, proto_tree* tree, const icmp::Verdict& v, const Analyzer& a) {
  constexpr checks::Kind kMtu = checks::kind("mtu_mismatch");
  proto_item* ti = proto_tree_add_item(wanted_tree(tree, ids.proto), ids.proto, tvb, 0, 0, ENC_NA);
  proto_tree* t = proto_item_add_subtree(ti, ids.ett_roce);
  const std::string& point = a.point_name(v.point);
  proto_item_append_text(gen(proto_tree_add_uint(t, ids.point, tvb, 0, 0, v.point)), " (%s)", point.c_str());
  if (v.stream != kNoId) gen(proto_tree_add_uint(t, ids.stream, tvb, 0, 0, v.stream));
  if (!v.below || v.report == kNoId) return t;
  const icmp::Report& r = a.icmp_report(v.report);
  proto_item* it = verdict(pinfo, gen(proto_tree_add_uint(t, check_field(kMtu, 1), tvb, 0, 0, v.mtu)));
  expert_add_info_format(pinfo, it, check_expert(kMtu, 1), "%s", icmp::below_text(r, v, point).c_str());
  return t;
}

}  // namespace roceshark::glue
