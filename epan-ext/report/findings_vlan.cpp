// SPDX-License-Identifier: GPL-2.0-or-later
// Findings from the VLAN tag between points: stripped, added or re-tagged.
// The tag carries the PCP, so where ports trust PCP the priority changes
// with it; where they trust DSCP it is harmless to the queueing.
#include "epan-ext/report/findings_builder.h"
#include "epan-ext/analysis/vlan_change.h"

namespace roceshark::triage::detail {
namespace {

using hop::VlanChange;

std::string what_changed(const VlanChange& c, bool trust_pcp) {
  if (c.after.tagged() || !c.before.tagged()) return c.before.text() + " -> " + c.after.text();
  return "PCP " + std::to_string(c.before.pcp) + " lost" + (trust_pcp ? ", the next hop trusts PCP" : "") +
         " (was " + c.before.text() + ")";
}

std::string fix(const VlanChange& c, const std::string& from, const std::string& to, bool trust_pcp) {
  const std::string between = "A port between " + from + " and " + to;
  const std::string keep = trust_pcp ? " The policy trusts PCP, so the priority changes with the tag: keep RoCE "
                                       "tagged with its lossless PCP end to end, or trust DSCP on every port so the "
                                       "priority no longer depends on the tag."
                                     : " The policy trusts DSCP, so the queueing keeps RoCE's priority; ports that "
                                       "trust PCP (often the NIC's or a host-facing port's default) would not.";
  if (std::string_view(c.verb()) == "stripped")
    return between + " forwards RoCE untagged: an access port, or a trunk whose native (untagged) VLAN is the RoCE "
                     "VLAN " + std::to_string(c.before.vid) + ". Carry VLAN " + std::to_string(c.before.vid) +
           " tagged on every trunk of the path." + keep;
  if (std::string_view(c.verb()) == "added")
    return between + " tags RoCE that arrived untagged (an access or native VLAN on one side, a tagged trunk on "
                     "the other), with its default priority as PCP. Use the same VLAN mode on both sides, or set "
                     "that port's DSCP-to-PCP map so the new tag carries the lossless PCP." + keep;
  return between + " translates the VLAN or rewrites the tag (VLAN mapping, QinQ, a VLAN rewrite rule). Keep RoCE "
                   "in one VLAN end to end, or check that the new VLAN's ports have the same PFC and QoS settings." +
         keep;
}

}  // namespace

void add_vlan_findings(Builder& b) {
  const bool trust_pcp = b.policy.trust == qos::Trust::pcp;
  for (const auto& [k, h] : b.gather_hops(Clue::vlan)) {
    bool into_lossy = false;
    std::string what;
    for (uint64_t key : h.keys) {
      const VlanChange c = VlanChange::of(key);
      const auto lossless = [&](const hop::VlanTag& t) { return b.policy.lossless(b.policy.priority_of(0, t.pcp)); };
      into_lossy = into_lossy || (trust_pcp && lossless(c.before) && !lossless(c.after));
      const std::string one = what_changed(c, trust_pcp);
      if (what.find(one) == std::string::npos) what += (what.empty() ? "" : "; ") + one;
    }
    const VlanChange first = VlanChange::of(h.keys.front());
    const std::string from = b.point(k.first), to = b.point(k.second), hop = b.hop(k.first, k.second);
    Finding& f = b.add(kind("vlan_changed"), into_lossy ? Severity::error : Severity::warning, hop);
    f.where.hop = hop;
    f.where.point = to;
    f.where.streams.assign(h.streams.begin(), h.streams.end());
    if (into_lossy) f.impact = b.loss(h.streams);
    Builder::evidence(f, h.items, checks::evidence_filter(f.kind, {{"point", std::to_string(k.second)},
                                                                   {"prev_point", std::to_string(k.first)}}));
    f.title = std::string("VLAN tag ") + first.verb() + " between " + from + " and " + to + ": " + what;
    f.detail = std::to_string(f.evidence) + " packets of " + streams_text(h.streams) +
               (into_lossy ? ": under the policy's trust pcp they fall into a lossy priority downstream"
                           : trust_pcp ? ": under the policy's trust pcp their priority changes with the tag"
                                       : ": the policy trusts DSCP, so their priority is kept");
    f.fix = fix(first, from, to, trust_pcp);
  }
}

}  // namespace roceshark::triage::detail
