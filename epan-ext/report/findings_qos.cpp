// SPDX-License-Identifier: GPL-2.0-or-later
// Findings from the marking: QoS checks, rewrites between points, ECN-CE
// that no CNP answers.
#include <algorithm>

#include "epan-ext/report/findings_builder.h"

namespace roceshark::triage::detail {
namespace {

using qos::Check;

// One check failing, over every point it fails at.
struct Failing {
  std::set<uint32_t> points, streams;
  std::vector<const Evidence*> items;
  uint64_t count = 0;
};

// The marking counts of these connections' flows at these points.
struct Marking {
  std::map<int, uint64_t> dscp, pcp, priority, cnp_dscp, cnp_pcp;
};

Marking marking(const Builder& b, const Failing& f) {
  Marking m;
  const auto add = [](std::map<int, uint64_t>& to, const qos::ValueCounts& c) {
    for (auto [v, n] : c.by_count()) to[v] += n;
  };
  for (const auto& [k, r] : b.s.qos.rows()) {
    if (!f.points.contains(std::get<1>(k)) || !f.streams.contains(r.stream)) continue;
    add(m.dscp, r.dscp), add(m.pcp, r.pcp), add(m.priority, r.priority);
    add(m.cnp_dscp, r.cnp_dscp), add(m.cnp_pcp, r.cnp_pcp);
  }
  return m;
}

// The most common value that `pick` accepts, or -2.
template <typename Pred>
int dominant(const std::map<int, uint64_t>& counts, Pred pick) {
  int best = -2;
  uint64_t most = 0;
  for (auto [v, n] : counts)
    if (pick(v) && n > most) best = v, most = n;
  return best;
}

std::string pcp_text(int pcp) { return pcp < 0 ? "untagged" : "PCP " + std::to_string(pcp); }

std::string values(const std::map<int, uint64_t>& counts, const char* what) {
  std::string s;
  for (auto [v, n] : counts) s += (s.empty() ? "" : ", ") + (v < 0 ? std::string("untagged") : what + std::to_string(v));
  return s;
}

// The hop where these connections' marking is rewritten before reaching
// one of these points, if the capture shows one.
std::string rewritten_before(const Builder& b, const Failing& f) {
  const auto [lo, hi] = b.s.evidence.of(Clue::remark);
  for (auto it = lo; it != hi; ++it) {
    const auto& [key, e] = *it;
    if (!f.points.contains(std::get<2>(key))) continue;
    for (uint32_t st : e.streams)
      if (f.streams.contains(st)) return b.point(std::get<1>(key)) + " and " + b.point(std::get<2>(key));
  }
  return {};
}

Finding& open(Builder& b, Kind k, Severity sev, const Failing& f) {
  Finding& x = b.add(k, sev, b.points(f.points));
  x.where.point = b.points(f.points);
  Builder::evidence(x, f.items, checks::evidence_filter(k, {{"points", checks::one_of(f.points)}}));
  return x;
}

std::string fix_rewrite(const std::string& hop) {
  return "The senders mark RoCE correctly: the marking is rewritten between " + hop +
         ". Fix that rewrite (see its finding) and this goes with it.";
}

void lossy_class(Builder& b, const Failing& fl) {
  const Marking m = marking(b, fl);
  const bool by_pcp = b.policy.trust == qos::Trust::pcp;
  const int value = by_pcp ? dominant(m.pcp, [&](int v) { return !b.policy.lossless(static_cast<uint8_t>(v < 0 ? 0 : v)); })
                           : dominant(m.dscp, [&](int v) { return !b.policy.lossless(b.policy.dscp_priority[v & 63]); });
  const int prio = by_pcp ? std::max(value, 0) : (value >= 0 ? b.policy.dscp_priority[value & 63] : -1);
  Finding& f = open(b, kind("dscp_not_lossless"), Severity::error, fl);
  if (!by_pcp && value >= 0) f.where.dscp = value;
  f.where.priority = prio;
  f.impact = b.loss(fl.streams);
  const std::string marked = by_pcp ? pcp_text(value) : "DSCP " + std::to_string(value);
  f.title = "RoCE in a lossy class at " + b.points(fl.points) + ": " + marked + " -> priority " +
            std::to_string(prio) + " (lossless: " + b.lossless_priorities() + ")";
  f.detail = std::to_string(fl.count) + " RoCE packets of " + streams_text(fl.streams) + " are queued in priority " +
             std::to_string(prio) + ", which has no PFC under the policy";
  const int d = b.lossless_dscp();
  if (const std::string hop = rewritten_before(b, fl); !hop.empty()) {
    f.detail += "; they leave the sender marked right and are rewritten between " + hop;
    f.fix = fix_rewrite(hop);
  } else if (by_pcp) {
    f.fix = "Tag RoCE with a lossless PCP (" + b.lossless_priorities() +
            ") at the senders (the NIC's VLAN egress priority for RoCE), or enable PFC on priority " +
            std::to_string(prio) + " on every port of the path.";
  } else {
    f.fix = "Mark RoCE with DSCP " + std::to_string(d) + " (priority " +
            std::to_string(b.policy.dscp_priority[static_cast<size_t>(d)]) +
            ", lossless) at the senders (the NIC's RoCE traffic class, e.g. rdma_cm ToS " + std::to_string(d << 2 | 2) +
            " = DSCP " + std::to_string(d) + " with ECT(0)), or map DSCP " + std::to_string(value) +
            " to a lossless priority with PFC enabled on every switch port of the path; check whether a firmware "
            "upgrade or reboot reset the QoS maps.";
  }
}

void pcp_mismatch(Builder& b, const Failing& fl) {
  const Marking m = marking(b, fl);
  const int pcp = dominant(m.pcp, [](int) { return true; });
  const int dscp = dominant(m.dscp, [](int) { return true; });
  const int want = dscp >= 0 ? b.policy.dscp_priority[dscp & 63] : -1;
  Finding& f = open(b, kind("pcp_mismatch"), Severity::warning, fl);
  f.where.dscp = dscp;
  f.where.priority = pcp;
  f.impact = b.loss(fl.streams);
  f.title = "PCP and DSCP disagree at " + b.points(fl.points) + ": " + pcp_text(pcp) + ", DSCP " +
            std::to_string(dscp) + " (priority " + std::to_string(want) + ")";
  f.detail = std::to_string(fl.count) + " packets of " + streams_text(fl.streams) +
             " land in different queues on ports that trust PCP and on ports that trust DSCP";
  if (const std::string hop = rewritten_before(b, fl); !hop.empty()) {
    f.detail += "; the DSCP is rewritten between " + hop + ", the PCP is not";
    f.fix = fix_rewrite(hop);
  } else {
    f.fix = "Make the senders tag RoCE with PCP " + std::to_string(want) +
            " (the NIC's VLAN egress priority for the RoCE traffic class), or set every switch port on the path to "
            "the same trust mode (the policy trusts " + qos::trust_name(b.policy.trust) + ").";
  }
}

void ecn_off(Builder& b, const Failing& fl) {
  Finding& f = open(b, kind("ecn_not_capable"), Severity::warning, fl);
  f.impact = b.pause(fl.streams);
  f.title = "RoCE data without ECN (Not-ECT) at " + b.points(fl.points);
  f.detail = std::to_string(fl.count) + " packets of " + streams_text(fl.streams) +
             " cannot be ECN-marked: DCQCN cannot slow these senders, so congestion ends in PFC pauses";
  f.fix = "Enable ECN and DCQCN on the sending NICs (the RoCE ToS must carry ECT(0), e.g. ToS 106; mlx5: "
          "/sys/class/net/<if>/ecn/roce_rp/enable/<prio> = 1), and check that no device on the way clears the ECN "
          "bits.";
}

void cnp_class(Builder& b, const Failing& fl) {
  const Marking m = marking(b, fl);
  Finding& f = open(b, kind("cnp_class"), Severity::warning, fl);
  const int dscp = dominant(m.cnp_dscp, [&](int v) { return v != b.policy.cnp_dscp; });
  if (dscp >= 0) f.where.dscp = dscp;
  std::string seen = values(m.cnp_dscp, "DSCP ");
  if (!m.cnp_pcp.empty()) seen += " / " + values(m.cnp_pcp, "PCP ");
  f.title = "CNPs in the wrong class at " + b.points(fl.points) + ": " + seen + ", expected DSCP " +
            std::to_string(b.policy.cnp_dscp) + " / priority " + std::to_string(b.policy.cnp_priority);
  f.detail = std::to_string(fl.count) + " CNPs of " + streams_text(fl.streams) +
             " queue behind data (or are dropped), so DCQCN learns of congestion late";
  f.fix = "Set the receivers' CNP marking to DSCP " + std::to_string(b.policy.cnp_dscp) + " and priority " +
          std::to_string(b.policy.cnp_priority) +
          " (mlx5: /sys/class/net/<if>/ecn/roce_np/cnp_dscp and cnp_802p_prio) and give that class strict "
          "priority on the switches.";
}

// The VLAN ids (kUntagged without a tag) of the flows whose marking changed
// at these points: packets per id, and the ids they started with. Only
// those flows, so another flow's (or the other direction's) VLAN is not
// taken for a change.
struct FlowVlans {
  std::map<int, uint64_t> packets;
  std::set<int> first;
};

FlowVlans changed_flows_vlans(const Builder& b, const Failing& fl) {
  FlowVlans out;
  for (const auto& [k, vio] : b.s.qos.violations()) {
    const auto& [check, point, stream, flow] = k;
    if (check != Check::inconsistent_marking || !fl.points.contains(point)) continue;
    const auto it = b.s.qos.rows().find({stream, point, flow});
    if (it == b.s.qos.rows().end()) continue;
    for (auto [v, c] : it->second.vlan.by_count()) out.packets[v] += c;
    out.first.insert(it->second.first_vlan);
  }
  return out;
}

std::string vlans_text(const std::set<int>& vlans) {
  std::map<int, uint64_t> m;
  for (int v : vlans) m[v] = 1;
  return values(m, "VLAN ");
}

std::string counted(const std::map<int, uint64_t>& counts, const char* what) {
  std::string s;
  for (auto [v, n] : counts)
    s += (s.empty() ? "" : ", ") + (v < 0 ? std::string("untagged") : what + std::to_string(v)) + " (" +
         std::to_string(n) + " packets)";
  return s;
}

void inconsistent(Builder& b, const Failing& fl) {
  const Marking m = marking(b, fl);
  const FlowVlans fv = changed_flows_vlans(b, fl);
  const std::map<int, uint64_t>& vlans = fv.packets;
  const std::string at = b.points(fl.points);
  const std::string remark_fix =
      "A sender or a device changed the RoCE marking mid-run: compare the NIC QoS settings (trust mode, RoCE "
      "ToS) of the senders and the switch QoS policies with their intended values; a reboot, driver reload or "
      "firmware change can reset them.";
  Finding& f = open(b, kind("inconsistent_marking"), Severity::warning, fl);
  f.impact = b.loss(fl.streams);
  if (vlans.size() < 2) {
    f.title = "RoCE marking changes during the capture at " + at + " (" + values(m.dscp, "DSCP ") + ")";
    f.detail = std::to_string(fl.count) + " packets of " + streams_text(fl.streams) +
               " differ from the marking their connection started with";
    f.fix = remark_fix;
    return;
  }
  // One connection in two VLANs at one point: the packets came in through
  // ports with different VLAN configurations.
  const std::string first = vlans_text(fv.first);
  f.title = "RoCE of one connection in several VLANs at " + at + " (" + values(vlans, "VLAN ") + ")";
  f.detail = std::to_string(fl.count) + " packets of " + streams_text(fl.streams) +
             " are in another VLAN than their connection's first packets there (" + first + "): " +
             counted(vlans, "VLAN ");
  if (m.dscp.size() > 1) f.detail += "; the DSCP changed too (" + values(m.dscp, "DSCP ") + ")";
  f.fix = "The same QP reaches " + at + " in more than one VLAN, so its packets came through ports configured "
          "differently: typically the members of one LAG or MLAG bundle (or two ECMP paths), one member port with "
          "another access VLAN, native VLAN or VLAN mapping. Give every member port upstream of " + at +
          " the same VLAN configuration (access VLAN, trunk allowed and native VLANs, VLAN translation), RoCE in " +
          first + " as the connection began; packets in another VLAN can miss the RoCE VLAN's PFC and QoS "
          "settings, or be dropped where that VLAN is not allowed." + (m.dscp.size() > 1 ? " " + remark_fix : "");
}

void checks(Builder& b) {
  std::map<Check, Failing> by_check;
  const auto [lo, hi] = b.s.evidence.of(Clue::qos);
  for (auto it = lo; it != hi; ++it) {
    const auto& [key, e] = *it;
    Failing& f = by_check[static_cast<Check>(std::get<1>(key))];
    f.points.insert(std::get<2>(key));
    f.streams.insert(e.streams.begin(), e.streams.end());
    f.items.push_back(&e);
    f.count += e.count;
  }
  for (const auto& [check, f] : by_check) {
    switch (check) {
      case Check::dscp_not_lossless: lossy_class(b, f); break;
      case Check::pcp_mismatch: pcp_mismatch(b, f); break;
      case Check::ecn_not_capable: ecn_off(b, f); break;
      case Check::cnp_class: cnp_class(b, f); break;
      case Check::inconsistent_marking: inconsistent(b, f); break;
    }
  }
}

void remarks(Builder& b) {
  for (const auto& [k, h] : b.gather_hops(Clue::remark)) {
    const auto lossless = [&](uint8_t dscp, int pcp) { return b.policy.lossless(b.policy.priority_of(dscp, pcp)); };
    bool into_lossy = false, dscp_changed = false;
    std::string what;
    for (uint64_t key : h.keys) {
      const Remark r = Remark::of(key);
      into_lossy = into_lossy || (lossless(r.old_dscp, r.old_pcp) && !lossless(r.new_dscp, r.new_pcp));
      std::string one;
      if (r.old_dscp != r.new_dscp) {
        dscp_changed = true;
        one = "DSCP " + std::to_string(r.old_dscp) + " -> " + std::to_string(r.new_dscp);
      }
      if (r.old_pcp != r.new_pcp) one += (one.empty() ? "" : ", ") + pcp_text(r.old_pcp) + " -> " + pcp_text(r.new_pcp);
      if (what.find(one) == std::string::npos) what += (what.empty() ? "" : "; ") + one;
    }
    const std::string hop = b.hop(k.first, k.second);
    Finding& f = b.add(kind("dscp_remarked"), into_lossy ? Severity::error : Severity::warning, hop);
    f.where.hop = hop;
    f.where.point = b.point(k.second);
    f.where.dscp = Remark::of(h.keys.front()).new_dscp;
    if (into_lossy) f.impact = b.loss(h.streams);
    f.title = std::string(dscp_changed ? "DSCP" : "PCP") + " rewritten between " + b.point(k.first) + " and " +
              b.point(k.second) + ": " + what;
    f.detail = streams_text(h.streams) + (into_lossy ? ": the new marking puts RoCE in a lossy class downstream"
                                                     : ": the new marking still maps to a lossless priority");
    const int d = b.lossless_dscp();
    f.fix = "A device between " + b.point(k.first) + " and " + b.point(k.second) +
            " rewrites the RoCE marking: typically an ingress port not set to trust DSCP (it re-marks to the port "
            "default), a QoS or ACL rewrite rule, or QoS maps reset by a firmware upgrade or reboot. Set the ports "
            "between to trust DSCP and remove the rewrite, so RoCE keeps DSCP " + std::to_string(d) +
            " (priority " + std::to_string(b.policy.dscp_priority[static_cast<size_t>(d)]) + ", lossless) end to end.";
    Builder::evidence(f, h.items, checks::evidence_filter(f.kind, {{"point", std::to_string(k.second)},
                                                                   {"prev_point", std::to_string(k.first)}}));
  }
}

// DCQCN's notification point is a NIC setting: the engine flags the
// response that shows a receiver got a QP's first CE mark and sent no CNP
// (Verdict::cnp_missing). One finding per receiver; its evidence is that
// response and the QP's CE-marked requests.
void ce_without_cnp(Builder& b) {
  struct Receiver {
    std::vector<const Evidence*> items;
    std::set<uint32_t> flows, streams, points;
    uint64_t responses = 0, marks = 0;
  };
  std::map<std::string, Receiver> by_receiver;
  std::map<uint32_t, Receiver*> flagged;  // request flow -> its receiver
  for (auto [it, end] = b.s.evidence.of(Clue::ce_without_cnp); it != end; ++it) {
    const auto& [c, flow, point, x] = it->first;
    Receiver& r = by_receiver[b.a.flow_key(flow).dst.to_string()];
    r.items.push_back(&it->second);
    r.responses += it->second.count;
    r.flows.insert(flow);
    r.streams.insert(it->second.streams.begin(), it->second.streams.end());
    r.points.insert(point);
    flagged[flow] = &r;
  }
  for (auto [it, end] = b.s.evidence.of(Clue::ce); it != end; ++it) {
    const auto& [c, flow, point, x] = it->first;
    const auto f = flagged.find(flow);
    if (f == flagged.end()) continue;
    f->second->items.push_back(&it->second);
    f->second->marks += it->second.count;
    f->second->points.insert(point);
  }
  for (const auto& [addr, r] : by_receiver) {
    // Its CNPs on QPs of its own that were not flagged. (Plain references:
    // clang's C++20 cannot capture structured bindings.)
    const std::string& to = addr;
    const std::set<uint32_t>& mine = r.flows;
    const bool partly = std::any_of(b.s.evidence.cnp_answered().begin(), b.s.evidence.cnp_answered().end(),
                                    [&](uint32_t flow) {
                                      return !mine.contains(flow) && b.a.flow_key(flow).dst.to_string() == to;
                                    });
    Finding& f = b.add(kind("ce_without_cnp"), Severity::warning, addr);
    f.where.point = b.points(r.points);
    f.impact = b.pause(r.streams);
    Builder::evidence(f, r.items,
                      checks::evidence_filter(f.kind, {{"streams", checks::one_of(r.streams)},
                                                       {"points", checks::one_of(r.points)}}));
    f.title = "ECN-CE marks but no CNP from receiver " + addr +
              (partly ? " on " + streams_text(r.streams) + " (it answers its other QPs)"
                      : " (its DCQCN notification point is off)");
    f.detail = std::to_string(r.marks) + " CE-marked requests to " + addr + " (" + streams_text(r.streams) +
               "); it acknowledged them (" + std::to_string(r.responses) + " response" + (r.responses == 1 ? "" : "s") +
               " " + std::to_string(kCnpDeadlineNs / 1000) + " us or more after the first mark) and sent no CNP";
    f.fix = partly ? "Receiver " + addr + " sends CNPs for its other QPs but not for these: check that its NIC's "
                     "DCQCN notification point is enabled for these QPs' priority (mlx5: "
                     "/sys/class/net/<if>/ecn/roce_np/enable/<prio> = 1), that these QPs are on a port or "
                     "function with it on, and that their CNPs are not dropped before the capture point."
                   : "Enable the DCQCN notification point on " + addr +
                         "'s NIC for the RoCE priority (mlx5: /sys/class/net/<if>/ecn/roce_np/enable/<prio> = 1), so "
                         "it answers ECN-CE with CNPs; without them the senders never slow down and congestion "
                         "ends in PFC pauses.";
  }
}

// A hop that clears ECN: CE marks upstream never reach the receiver, or
// ECT packets cannot be marked downstream, so congestion ends in pauses.
void bleaching(Builder& b) {
  for (const auto& [k, h] : b.gather_hops(Clue::ecn_bleached)) {
    const std::string hop = b.hop(k.first, k.second);
    Finding& f = b.add(kind("ecn_bleached"), Severity::warning, hop);
    f.where.hop = hop;
    f.where.point = b.point(k.second);
    f.impact = b.pause(h.streams);
    Builder::evidence(f, h.items, checks::evidence_filter(f.kind, {{"point", std::to_string(k.second)},
                                                                  {"prev_point", std::to_string(k.first)}}));
    f.title = "ECN cleared between " + b.point(k.first) + " and " + b.point(k.second);
    f.detail = std::to_string(f.evidence) + " packets of " + streams_text(h.streams) + " were ECN-capable or CE at " +
               b.point(k.first) + " and arrive at " + b.point(k.second) +
               " without it: congestion marks are lost, so receivers send no CNPs";
    f.fix = "A device between " + b.point(k.first) + " and " + b.point(k.second) +
            " resets the ECN bits of RoCE: a QoS or ACL policy rewriting the whole traffic class (not only DSCP), "
            "or ECN disabled on a tunnel or router hop. Keep the ECN field end to end, so DCQCN slows senders "
            "down before PFC has to pause them.";
  }
}

}  // namespace

void add_qos_findings(Builder& b) {
  remarks(b);
  bleaching(b);
  checks(b);
  ce_without_cnp(b);
}

}  // namespace roceshark::triage::detail
