// SPDX-License-Identifier: GPL-2.0-or-later
// Findings from PFC: storms, chatter, propagation, pauses before ECN, PFC on the
// wrong class.
#include <algorithm>
#include <cstdio>

#include "epan-ext/report/findings_builder.h"

namespace roceshark::triage::detail {
namespace {

// `mac` is the bare MAC (ids, filters); `who` and `device` its text with
// its name (mac_label, mac_device).
struct Row {
  const pfc::PfcRow& row;
  std::string point, mac, place, who, device, mac_name;
  Location where() const {
    Location l;
    l.point = point, l.mac = mac, l.mac_name = mac_name, l.priority = row.priority;
    return l;
  }
  std::string filter(Kind k) const {
    return checks::evidence_filter(k, {{"point", std::to_string(row.point)}, {"mac", mac},
                                       {"priority", std::to_string(row.priority)}});
  }
};

const Evidence* find(const Builder& b, Clue c, const pfc::PfcRow& r) {
  const auto it = b.s.evidence.items().find({c, r.point, r.priority, mac_key(r.mac)});
  return it == b.s.evidence.items().end() ? nullptr : &it->second;
}

std::set<uint32_t> held_streams(const Builder& b, const pfc::PfcRow& r) {
  std::set<uint32_t> out;
  for (const auto& [flow, q] : r.qps)
    if (q.held_packets) out.insert(b.a.flow_stream(flow));
  return out;
}

// A finding on a row's pauses: at the row, on the QPs they held, costing
// the row's pause stall.
Finding& held_finding(Builder& b, const Row& r, Kind k, Severity sev) {
  Finding& f = b.add(k, sev, r.place);
  f.where = r.where();
  const auto held = held_streams(b, r.row);
  f.where.streams.assign(held.begin(), held.end());
  f.impact = b.pause(r.row);
  return f;
}

// The points whose storms this row's pauses followed.
std::set<uint32_t> origins(const Builder& b, const pfc::PfcRow& row) {
  std::set<uint32_t> from;
  if (row.propagated)
    for (const auto& p : b.s.pfc.propagations())
      if (p.to_point == row.point) from.insert(p.from_point);
  return from;
}

// A storm or chatter finding's time is its episodes': from the first one's
// first pause frame to the end of the last one's last pause.
void storm(Builder& b, const Row& r, const std::vector<pfc::Episode>& eps) {
  uint64_t storms = 0, longest = 0, paused = 0;
  TimeSpan when;
  for (const auto& e : eps) {
    paused += e.paused_ns;
    if (!e.storm) continue;
    ++storms;
    when.add(e.start_ns, e.end_ns);
    longest = std::max(longest, e.end_ns - e.start_ns);
  }
  if (!storms) return;
  Finding& f = held_finding(b, r, kind("pfc_storm"), Severity::error);
  f.title = "PFC storm from " + r.who + " on priority " + std::to_string(r.row.priority) + " at " + r.point;
  f.detail = std::to_string(storms) + (storms == 1 ? " storm" : " storms") + ", the longest " + duration(longest) +
             "; the class was paused " + duration(paused) + " in all, holding " + std::to_string(f.impact.qps) +
             (f.impact.qps == 1 ? " QP" : " QPs") + " for " + duration(f.impact.stall_ns);
  f.fix = "The device " + r.device + " on the " + r.point + " link keeps priority " +
          std::to_string(r.row.priority) +
          " paused: a receiver that cannot drain (a stuck or slow host, PCIe back-pressure, a hung NIC) or a PFC "
          "deadlock. Find the NIC or port with this MAC and check its pause and discard counters (ethtool -S: "
          "rx_prio" + std::to_string(r.row.priority) + "_pause, tx_prio" + std::to_string(r.row.priority) +
          "_pause, rx_discards_phy). Enable the PFC watchdog (storm prevention) on the switch port facing it, so a "
          "stuck receiver is cut off instead of pausing the fabric.";
  if (const auto from = origins(b, r.row); !from.empty()) {
    f.detail += "; it followed the storm at " + b.points(from);
    f.fix = "This storm is the one at " + b.points(from) + " backing up (see the pause propagation finding): fix "
            "that one first. " + f.fix;
  }
  Builder::evidence(f, {find(b, Clue::storm, r.row)}, r.filter(f.kind));
  f.when = when;
}

// Episodes as long as a storm whose class was paused only part of the
// time: pauses on and off, traffic flowing between them (docs/pfc.md).
void chatter(Builder& b, const Row& r, const std::vector<pfc::Episode>& eps) {
  uint64_t n = 0, span = 0, paused = 0, frames = 0, longest = 0;
  TimeSpan when;
  for (const auto& e : eps) {
    if (!e.chatter) continue;
    when.add(e.start_ns, e.end_ns);
    ++n, span += e.end_ns - e.start_ns, paused += e.paused_ns, frames += e.frames;
    longest = std::max(longest, e.end_ns - e.start_ns);
  }
  if (!n) return;
  Finding& f = held_finding(b, r, kind("pfc_chatter"), Severity::warning);
  char share[64];
  std::snprintf(share, sizeof share, "%.1f%%", 100.0 * static_cast<double>(paused) / static_cast<double>(span));
  char rate[64];
  std::snprintf(rate, sizeof rate, "%.1f", static_cast<double>(frames) * 1e6 / static_cast<double>(span));
  f.title = "PFC pause chatter from " + r.who + " on priority " + std::to_string(r.row.priority) + " at " + r.point;
  f.detail = std::to_string(n) + (n == 1 ? " episode" : " episodes") + " of short pauses on and off, the longest " +
             duration(longest) + ": the class was paused " + share + " of the " + duration(span) + " (" +
             duration(paused) + "), " + std::to_string(frames) + " pause frames (" + rate +
             " per ms), traffic flowing between them: not a storm (under " +
             std::to_string(b.a.config().storm_share_pct) + "% paused)";
  f.fix = "The device " + r.device + " on the " + r.point + " link crosses its PFC XOFF threshold on priority " +
          std::to_string(r.row.priority) +
          " over and over: congestion that ECN does not slow down soon enough (ECN threshold above XOFF, DCQCN "
          "off), XOFF and XON thresholds too close together, or a receiver that drains in bursts (PCIe, interrupt "
          "moderation). Check the queue's ECN and PFC thresholds and the NIC's pause counters (ethtool -S: rx_prio" +
          std::to_string(r.row.priority) + "_pause, tx_prio" + std::to_string(r.row.priority) + "_pause).";
  Builder::evidence(f, {find(b, Clue::chatter, r.row)}, r.filter(f.kind));
  f.when = when;
}

// Pauses that follow a storm elsewhere start without ECN because the storm
// backs up into them, not because of this queue's thresholds.
void no_ecn(Builder& b, const Row& r) {
  if (!r.row.no_ecn || r.row.propagated) return;
  Finding& f = held_finding(b, r, kind("ecn_above_xoff"), Severity::warning);
  f.title = "Pauses with no ECN mark before them on priority " + std::to_string(r.row.priority) + " at " + r.point +
            " (ECN threshold likely above PFC XOFF)";
  f.detail = std::to_string(r.row.no_ecn) + (r.row.no_ecn == 1 ? " pause" : " pauses") + " from " + r.who +
             " began with no ECN-CE mark or CNP on this link in the " + duration(b.a.config().ecn_window_ns) +
             " before";
  f.fix = "Lower the ECN marking threshold (WRED/ECN min threshold, DCQCN Kmin) of the priority " +
          std::to_string(r.row.priority) + " queue on the switch port towards " + r.who +
          " below that queue's PFC XOFF threshold, so DCQCN slows the senders before PFC has to pause the link; "
          "check that ECN marking is enabled on that queue and DCQCN on the NICs.";
  // The hop at this point whose marking starts later than its class's
  // elsewhere: the threshold to lower.
  if (const auto late = b.ecn_at(r.row.point, r.row.priority); !late.empty()) {
    const hop::EcnMismatch& m = *late.front();
    f.where.hop = b.hop(m.place.from, m.place.to);
    f.title += ", at the hop " + f.where.hop;
    f.detail += "; on this priority the hop " + f.where.hop + " marks later than " +
                b.hop(m.reference.from, m.reference.to) + " (see ecn_threshold_mismatch)";
    f.fix = "Start with the hop " + f.where.hop + ", whose ECN threshold is above the other hops' (the "
            "ecn_threshold_mismatch finding gives both). " + f.fix;
  }
  Builder::evidence(f, {find(b, Clue::no_ecn, r.row)}, r.filter(f.kind));
}

void propagation(Builder& b, const Row& r) {
  if (!r.row.propagated) return;
  const std::set<uint32_t> from = origins(b, r.row);
  const std::string origin = b.points(from);
  Finding& f = held_finding(b, r, kind("pfc_propagation"), Severity::error);
  if (!from.empty()) f.where.hop = b.point(*from.begin()) + " -> " + r.point;
  f.title = "Pause propagation to " + r.point + " on priority " + std::to_string(r.row.priority) +
            (origin.empty() ? "" : " from the storm at " + origin);
  f.detail = std::to_string(r.row.propagated) + (r.row.propagated == 1 ? " pause" : " pauses") + " from " + r.who +
             " followed a storm elsewhere: the congestion is backing up towards the hosts";
  f.fix = "Fix the storm" + (origin.empty() ? std::string() : " at " + origin) +
          " first (see its finding); the pauses here are its head-of-line blocking spreading. Enable the PFC "
          "watchdog at the storm's port, and check that the PFC headroom of the ports between is sized for the "
          "cable length.";
  Builder::evidence(f, {find(b, Clue::propagation, r.row)}, r.filter(f.kind));
}

void wrong_class(Builder& b, const Row& r) {
  if (!r.row.wrong_class) return;
  Finding& f = b.add(kind("pfc_wrong_class"), Severity::warning, r.place);
  f.where = r.where();
  f.title = "PFC on priority " + std::to_string(r.row.priority) + " at " + r.point +
            ", while RoCE runs on priorities without PFC";
  f.detail = r.who + " pauses priority " + std::to_string(r.row.priority) +
             ", which carries no RoCE here; the RoCE traffic on this link is not protected";
  f.fix = "Enable PFC on the priority RoCE uses (the policy's lossless priorities: " + b.lossless_priorities() +
          ") on both ends of the " + r.point + " link, and disable it on priority " +
          std::to_string(r.row.priority) + " unless another lossless class needs it; or fix the DSCP-to-priority "
          "map so RoCE lands in the PFC class.";
  Builder::evidence(f, {find(b, Clue::wrong_class, r.row)}, r.filter(f.kind));
}

}  // namespace

void add_pfc_findings(Builder& b) {
  const auto& episodes = b.s.pfc.episodes();
  for (const auto& [key, row] : b.s.pfc.rows()) {
    const Row r{row,
                b.point(row.point),
                mac_to_string(row.mac),
                b.point(row.point) + "|" + mac_to_string(row.mac) + "|" + std::to_string(row.priority),
                mac_label(b.a, row.mac),
                mac_device(b.a, row.mac),
                b.a.mac_name(row.mac)};
    const auto it = episodes.find(key);
    if (it != episodes.end()) storm(b, r, it->second), chatter(b, r, it->second);
    no_ecn(b, r);
    propagation(b, r);
    wrong_class(b, r);
  }
}

}  // namespace roceshark::triage::detail
