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

void render_icmp(tvbuff_t* tvb, packet_info* pinfo, proto_tree* tree, const icmp::Verdict& v, const Analyzer& a) {
  constexpr checks::Kind kMtu = checks::kind("mtu_mismatch");
  proto_item* ti = proto_tree_add_item(wanted_tree(tree, ids.proto), ids.proto, tvb, 0, 0, ENC_NA);
  proto_tree* t = proto_item_add_subtree(ti, ids.ett_roce);
  const std::string& point = a.point_name(v.point);
  proto_item_append_text(gen(proto_tree_add_uint(t, ids.point, tvb, 0, 0, v.point)), " (%s)", point.c_str());
  if (v.stream != kNoId) gen(proto_tree_add_uint(t, ids.stream, tvb, 0, 0, v.stream));
  if (!v.below || v.report == kNoId) return;
  const icmp::Report& r = a.icmp_report(v.report);
  const std::string router = r.reporter.to_string(), src = r.src.to_string(), dst = r.dst.to_string();
  proto_item* it = gen(proto_tree_add_uint(t, check_field(kMtu, 1), tvb, 0, 0, v.mtu));
  if (r.has_qp)
    expert_add_info_format(pinfo, it, check_expert(kMtu, 1),
                           "ICMP at %s: router %s reports MTU %u for %s -> %s QP 0x%06x, below its RoCE packets of %u "
                           "bytes (RoCE ignores it: the loss persists)",
                           point.c_str(), router.c_str(), v.mtu, src.c_str(), dst.c_str(), r.qp, v.largest);
  else
    expert_add_info_format(pinfo, it, check_expert(kMtu, 1),
                           "ICMP at %s: router %s reports MTU %u for %s -> %s, below its RoCE packets of %u bytes "
                           "(RoCE ignores it: the loss persists)",
                           point.c_str(), router.c_str(), v.mtu, src.c_str(), dst.c_str(), v.largest);
}

}  // namespace roceshark::glue
