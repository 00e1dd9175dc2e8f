// SPDX-License-Identifier: GPL-2.0-or-later
// Findings about how a hop's egress schedules its classes, where the
// capture shows it: CNPs queued like data (epan-ext/analysis/cnp_queueing.h), and
// RoCE waiting while best-effort takes the port (epan-ext/analysis/besteffort.h).
#include <cstdio>

#include "epan-ext/analysis/besteffort.h"
#include "epan-ext/analysis/cnp_queueing.h"
#include "epan-ext/report/findings_builder.h"

namespace roceshark::triage::detail {
namespace {

// CNPs that queue at a hop like the data: DCQCN's rate cut reaches the
// sender only after the queue it reports has grown on.
void cnp_queueing(Builder& b) {
  for (const auto& [k, h] : b.gather_hops(Clue::cnp_queued)) {
    const std::string hop = b.hop(k.first, k.second);
    Finding& f = b.add(kind("cnp_queued"), Severity::warning, hop);
    f.where.hop = hop;
    f.where.point = b.point(k.second);
    f.impact = b.pause(h.streams);
    Builder::evidence(f, h.items, checks::evidence_filter(f.kind, {{"point", std::to_string(k.second)},
                                                                  {"prev_point", std::to_string(k.first)}}));
    f.title = "CNPs queue behind RoCE data between " + b.point(k.first) + " and " + b.point(k.second);
    f.detail = std::to_string(f.evidence) + " CNPs waited on the hop at least half as long as the RoCE data that "
               "queued " + duration(hop::CnpQueueing::kMinDataQueueNs) + " or more there just before them: they "
               "share the data's queue, so each rate cut reaches the sender late";
    f.fix = "Give CNPs a strict-priority class of their own on the egress port towards " + b.point(k.second) +
            " (and on every port of the path): classify the CNP DSCP (48 by default on mlx5: "
            "/sys/class/net/<if>/ecn/roce_np/cnp_dscp) into their own priority and traffic class (e.g. priority 6), "
            "and make that class strict priority in ETS, not a weighted share with RoCE data.";
  }
}

// RoCE starved behind best-effort: reported with kMinEvidence selected
// packets or more, so one unlucky wait is not a finding.
void besteffort_first(Builder& b) {
  for (const auto& [k, h] : b.gather_hops(Clue::starved_by_besteffort)) {
    if (Builder::count(h.items) < hop::BestEffort::kMinEvidence) continue;  // selected packets
    const StarvedHop& sh = b.s.evidence.starved().at(k);
    const std::string hop = b.hop(k.first, k.second), to = b.point(k.second), prio = std::to_string(sh.priority);
    Finding& f = b.add(kind("starved_by_besteffort"), Severity::warning, hop);
    f.where.hop = hop;
    f.where.point = to;
    f.where.priority = sh.priority;
    f.impact = b.pause(h.streams);
    Builder::evidence(f, h.items, checks::evidence_filter(f.kind, {{"point", std::to_string(k.second)},
                                                                  {"prev_point", std::to_string(k.first)}}));
    f.title = "RoCE waits behind best-effort traffic between " + b.point(k.first) + " and " + to;
    f.detail = std::to_string(f.evidence) + " RoCE packets (priority " + prio + ") waited on the hop, up to " +
               duration(sh.max_wait_ns) + ", while best-effort traffic took up to " +
               std::to_string(sh.max_share_pct) + "% of the full link towards " + to +
               " and itself waited at most " + duration(sh.max_be_wait_ns) + " on average: the port serves "
               "best-effort ahead of RoCE. Packets a captured pause held are not counted; a pause of priority " +
               prio + " that no tap captured would look the same.";
    f.fix = "On the egress port towards " + to + " (and every port of the path): take best-effort out of strict "
            "priority and give RoCE's traffic class (priority " + prio + ") an ETS share that covers its load, "
            "at least " + std::to_string(100 - b.a.config().besteffort_share_pct) + "% (e.g. mlnx_qos --tcbw, "
            "or the switch's ETS/DWRR queue weights); check that the RoCE DSCP maps to that class's queue.";
  }
}

}  // namespace

void add_scheduling_findings(Builder& b) {
  cnp_queueing(b);
  besteffort_first(b);
}

}  // namespace roceshark::triage::detail
