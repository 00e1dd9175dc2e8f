// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/report/qos_stats.h"

#include <algorithm>

namespace roceshark::qos {
namespace {

bool same_finding(const DcbxFinding& a, const DcbxFinding& b) {
  return a.kind == b.kind && a.priority == b.priority && a.dscp == b.dscp && a.announced == b.announced;
}

bool same_findings(const std::vector<DcbxFinding>& a, const std::vector<DcbxFinding>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), same_finding);
}

}  // namespace

void ValueCounts::add_new(int value) {
  auto it = std::lower_bound(counts_.begin(), counts_.end(), value,
                             [](const std::pair<int, uint64_t>& e, int v) { return e.first < v; });
  if (it == counts_.end() || it->first != value) it = counts_.insert(it, {value, 0});
  ++it->second;
  last_ = static_cast<size_t>(it - counts_.begin());
}

std::vector<std::pair<int, uint64_t>> ValueCounts::by_count() const {
  auto out = counts_;
  std::stable_sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
  return out;
}

void QosStats::add(const TapRecord& r) {
  if (r.dcbx) {
    add_dcbx(r.dcbx->frame, r.ts_ns, r.facts->point_name(r.dcbx->announcement.point), r.dcbx->announcement,
             r.dcbx->findings);
    return;
  }
  if (!r.verdict) return;  // a PFC frame: not RoCE
  const Verdict& v = *r.verdict;
  if (v.untracked() || v.truncated || v.flow == kNoId) {
    ++untracked_;
    return;
  }
  // UD datagrams (CM MADs on QP1) carry whatever class the CM uses: not checked, not counted.
  if (v.role != Role::request && v.role != Role::response && v.role != Role::cnp) return;
  // A mirror copy is the same packet twice: counting it would double its marking.
  if (v.seq == SeqClass::duplicate) {
    ++duplicates_;
    return;
  }

  auto [it, added] = last_rows_.try_emplace(rows_, v.flow, {v.stream, v.point, v.flow});
  QosRow& row = it->second;
  if (added) {
    row.stream = v.stream;
    row.flow = r.facts->flow_key(v.flow);
    row.point_name = r.facts->point_name(v.point);
  }
  const PacketSummary& p = v.pkt;
  const int pcp = p.pcp < 0 ? kUntagged : p.pcp;
  if (v.role == Role::cnp) {
    ++row.cnps;
    row.cnp_dscp.add(p.dscp);
    row.cnp_pcp.add(pcp);
  } else {
    ++(v.role == Role::request ? row.requests : row.responses);
    row.dscp.add(p.dscp);
    row.pcp.add(pcp);
    const int vlan = p.pcp < 0 ? kUntagged : int{p.vlan_id};
    if (row.vlan.empty()) row.first_vlan = vlan;
    row.vlan.add(vlan);
    row.priority.add(v.qos.priority);
    if (v.role != Role::response) row.ecn.add(p.ecn & 3);
  }
  learning_ += v.qos.learning;

  for (size_t c = 0; c < kChecks; ++c) {
    const Check check = static_cast<Check>(c);
    if (!(v.qos.failed & bit(check))) continue;
    auto [vit, fresh] = violations_.try_emplace({check, v.point, v.stream, v.flow});
    QosViolation& vio = vit->second;
    if (fresh) {
      vio.stream = v.stream;
      vio.flow = row.flow;
      vio.point_name = row.point_name;
      vio.first_frame = v.frame;
    }
    ++vio.packets;
  }
}

void QosStats::add_dcbx(uint32_t frame, uint64_t ts_ns, const std::string& point_name, const DcbxAnnouncement& a,
                        std::vector<DcbxFinding> findings) {
  // LLDP repeats itself every few seconds: keep each distinct announcement once.
  for (DcbxEntry& e : dcbx_) {
    if (e.announcement == a && same_findings(e.findings, findings)) {
      ++e.repeats;
      e.when.add(ts_ns);
      return;
    }
  }
  if (dcbx_.size() >= kMaxDcbx) {
    ++dcbx_dropped_;
    dcbx_dropped_findings_ += !findings.empty();
    return;
  }
  dcbx_.push_back({frame, 1, {ts_ns, ts_ns}, point_name, a, std::move(findings)});
}

}  // namespace roceshark::qos
