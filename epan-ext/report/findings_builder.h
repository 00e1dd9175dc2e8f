// SPDX-License-Identifier: GPL-2.0-or-later
// What the findings_*.cpp files share while they turn the statistics into
// findings: the per-QP costs, impact sums and the evidence helpers.
#pragma once
#include <cstdint>
#include <deque>
#include <initializer_list>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "epan-ext/common/text_table.h"
#include "epan-ext/report/findings.h"

namespace roceshark::triage::detail {

class Builder {
 public:
  Builder(const ReportStats& s, const AnalysisFacts& a);

  const ReportStats& s;
  const AnalysisFacts& a;
  const qos::Policy& policy;
  // Hops whose ECN marking differs from another's of the same priority.
  const std::vector<hop::EcnMismatch> ecn;
  // The mismatches on hops that touch `point` on `priority`.
  std::vector<const hop::EcnMismatch*> ecn_at(uint32_t point, uint8_t priority) const;

  std::string point(uint32_t p) const { return a.point_name(p); }
  std::string hop(uint32_t from, uint32_t to) const { return point(from) + " -> " + point(to); }
  std::string points(const std::set<uint32_t>& ids) const;  // "leaf-1, nic-b"
  // Loss recovery of these connections' QPs.
  Impact loss(const std::set<uint32_t>& streams) const;
  // Timer recovery only.
  Impact timeouts(const std::set<uint32_t>& streams) const;
  // PFC stall of these connections' QPs, anywhere.
  Impact pause(const std::set<uint32_t>& streams) const;
  // PFC stall one (point, MAC, priority) caused.
  Impact pause(const pfc::PfcRow& row) const;
  // RNR waits (the receiver, not the fabric).
  Impact rnr(const std::set<uint32_t>& streams) const;

  Finding& add(Kind k, Severity sev, const std::string& place);
  // Every evidence item of one clue, and the connections they are about.
  struct Gathered {
    std::vector<const Evidence*> items;
    std::set<uint32_t> streams;
  };
  Gathered gather(Clue c) const;
  // ... per hop, for a clue keyed (from, to, what changed): the keys too.
  struct HopGathered : Gathered {
    std::vector<uint64_t> keys;
  };
  std::map<std::pair<uint32_t, uint32_t>, HopGathered> gather_hops(Clue c) const;
  // How many frames several items hold.
  static uint64_t count(const std::vector<const Evidence*>& items);
  // The evidence of several items, merged.
  static void evidence(Finding& f, std::initializer_list<const Evidence*> items, std::string filter);
  static void evidence(Finding& f, const std::vector<const Evidence*>& items, std::string filter);

  // The DSCP RoCE should carry: 26 when that is lossless, else the first that is.
  int lossless_dscp() const;
  std::string lossless_priorities() const;

  Findings finish();
  // The connections the findings of these kinds so far are about.
  std::set<uint32_t> streams_of(std::initializer_list<Kind> kinds) const;

  uint64_t span_ns = 0, qps = 0;

 private:
  Impact sum(const std::set<uint32_t>& streams, uint64_t (*cost)(const QpImpact&)) const;
  // The point where a cost shows most (a timer wait upstream of a pause
  // reads as a plain resend downstream); ties go to the one stalled most.
  static const QpImpact& most(const std::vector<const QpImpact*>& points, uint64_t (*cost)(const QpImpact&));
  static uint64_t stalled(const QpImpact& q) { return q.stalled.total(); }
  void share(Impact& i) const;

  std::deque<Finding> list_;  // add() hands out references: they must stay put
  std::map<uint32_t, std::vector<const QpImpact*>> by_flow_;  // request flow -> every point that saw it
  std::map<uint32_t, std::vector<uint32_t>> stream_flows_;    // connection -> its request flows
};

using cell::duration;
std::string streams_text(const std::set<uint32_t>& streams);  // "stream 0", "streams 0, 2"

void add_ecn_findings(Builder& b);  // ECN marking thresholds compared per hop
void add_scheduling_findings(Builder& b);  // CNPs queued like data, RoCE starved behind best-effort
void add_pfc_findings(Builder& b);
void add_qos_findings(Builder& b);
void add_vlan_findings(Builder& b);
void add_mtu_findings(Builder& b);
// Whether a hop's (from, to) losses are explained by their size (an MTU):
// before the loss findings, the losses it explains are not theirs.
bool size_explains(const Builder& b, std::pair<uint32_t, uint32_t> hop, const hop::SizeSplit& s);
void add_loss_findings(Builder& b);
void add_capture_findings(Builder& b);  // clocks, merged points, bad frames, DCBX, RNR, mirror copies

}  // namespace roceshark::triage::detail
