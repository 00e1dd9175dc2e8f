// SPDX-License-Identifier: GPL-2.0-or-later
// Findings from ECN marking compared hop by hop: a queue whose marking
// threshold sits above the others' of its class (epan-ext/analysis/ecn_compare.h).
#include <cstdio>

#include "epan-ext/report/findings_builder.h"

namespace roceshark::triage::detail {
namespace {

std::string bytes(uint64_t b) {
  char s[32];
  if (b >= 1'000'000) std::snprintf(s, sizeof s, "%.2f MB", static_cast<double>(b) / 1e6);
  else std::snprintf(s, sizeof s, "%.0f KB", static_cast<double>(b) / 1e3);
  return s;
}

// "20.1 us (251 KB)": queueing, and what it holds at the hop's link speed.
std::string depth(uint64_t ns, double gbps) { return duration(ns) + " (" + bytes(hop::queue_bytes(ns, gbps)) + ")"; }

std::string marking(const hop::EcnEstimate& e, double gbps) {
  if (e.state != hop::EcnEstimate::State::marks)
    return "never marked, with queueing up to " + depth(e.max_unmarked_ns, gbps);
  return "marks from " + depth(e.onset_ns, gbps) +
         (e.full_ns ? ", every packet from " + depth(*e.full_ns, gbps) : std::string());
}

}  // namespace

void add_ecn_findings(Builder& b) {
  for (const hop::EcnMismatch& m : b.ecn) {
    const hop::EcnPlace& p = m.place;
    const std::string hop = b.hop(p.from, p.to), ref = b.hop(m.reference.from, m.reference.to);
    const double gbps = b.a.config().gbps(p.to), ref_gbps = b.a.config().gbps(m.reference.to);
    const std::string prio = std::to_string(p.priority);
    const auto it = b.s.evidence.items().find({Clue::ecn_unmarked, p.from, p.to, p.priority});
    const Evidence* ev = it == b.s.evidence.items().end() ? nullptr : &it->second;
    Finding& f = b.add(kind("ecn_threshold_mismatch"), Severity::warning, hop + "|" + prio);
    f.where.hop = hop;
    f.where.point = b.point(p.to);
    f.where.priority = p.priority;
    f.impact = b.pause(ev ? ev->streams : std::set<uint32_t>{});
    const bool never = m.here.state != hop::EcnEstimate::State::marks;
    f.title = (never ? "No ECN marking on priority " + prio + " between " + b.point(p.from) + " and " + b.point(p.to) +
                           ", though it queues up to " + depth(m.here.max_unmarked_ns, gbps)
                     : "ECN marking on priority " + prio + " between " + b.point(p.from) + " and " + b.point(p.to) +
                           " starts at " + depth(m.here.onset_ns, gbps)) +
              "; " + ref + " marks from " + depth(m.there.onset_ns, ref_gbps);
    f.detail = hop + ": " + std::to_string(m.here.samples) + " ECN-capable packets, " +
               std::to_string(m.here.marked) + " marked; " + std::to_string(m.unmarked) + " queued more than " +
               duration(m.beyond_ns) + " unmarked (" + ref + "'s onset plus roce.ecn_onset_tolerance_us). " + ref +
               ": " + std::to_string(m.there.samples) + " ECN-capable packets, " + marking(m.there, ref_gbps);
    const std::string kmax = m.there.full_ns ? " and the max threshold (Kmax) near " + bytes(hop::queue_bytes(*m.there.full_ns, ref_gbps)) : "";
    f.fix = "Give the priority " + prio + " queue of the egress port towards " + b.point(p.to) +
            " the WRED/ECN thresholds the " + ref + " queue has: the ECN min threshold (Kmin) near " +
            bytes(hop::queue_bytes(m.there.onset_ns, ref_gbps)) + kmax +
            ", with ECN marking enabled on that queue (the WRED/ECN profile of the lossless class, "
            "per queue and per port alike). " +
            (never ? "It marks nothing, so the queue fills until PFC pauses the link instead of DCQCN slowing the senders."
                   : "Marking that starts this late lets the queue reach PFC XOFF before DCQCN slows the senders.");
    Builder::evidence(f, {ev}, checks::evidence_filter(f.kind, {{"point", std::to_string(p.to)},
                                                              {"prev_point", std::to_string(p.from)},
                                                              {"priority", prio}}));
  }
}

}  // namespace roceshark::triage::detail
