// SPDX-License-Identifier: GPL-2.0-or-later
// Findings from loss: RoCE in a lossy queue, loss between points,
// corruption, transport timer recovery, and loss with no cause found.
#include <algorithm>

#include "epan-ext/report/findings_builder.h"

namespace roceshark::triage::detail {
namespace {

// roce.seq.retransmission is on every kind of resend, RNR retries too
// (is_loss_sign in verdict.cpp).

// mlnx_qos's --pfc argument enabling one priority.
std::string pfc_vector(uint32_t prio) {
  std::string v;
  for (uint32_t p = 0; p < 8; ++p) v += std::string(p ? "," : "") + (p == prio ? "1" : "0");
  return v;
}

// One finding per priority, over the points it shows at; losses that bad
// ICRCs or an MTU explain are not a lossy queue (PFC would not stop them).
void lossy_queues(Builder& b) {
  struct Priority {
    std::set<uint32_t> points, streams;
    std::vector<const Evidence*> items;
    uint64_t count = 0;
  };
  const std::set<uint32_t> corrupted = b.streams_of({kind("icrc_bad"), kind("mtu_mismatch")});
  std::map<uint32_t, Priority> by_priority;
  const auto [lo, hi] = b.s.evidence.of(Clue::lossy);
  for (auto it = lo; it != hi; ++it) {
    const auto& [key, e] = *it;
    std::set<uint32_t> streams;
    for (uint32_t st : e.streams)
      if (!corrupted.contains(st)) streams.insert(st);
    if (streams.empty()) continue;
    Priority& p = by_priority[std::get<2>(key)];
    p.points.insert(std::get<1>(key));
    p.streams.insert(streams.begin(), streams.end());
    p.items.push_back(&e);
    p.count += e.count;
  }
  // Where multi-point matching saw the packets go missing.
  std::map<uint32_t, std::string> lost_at;
  for (const auto& [k, st] : b.s.hops.flow_losses())
    if (st.lost) lost_at.emplace(b.a.flow_stream(k.flow), b.hop(k.from, k.to));
  for (const auto& [prio, p] : by_priority) {
    const std::string where = b.points(p.points);
    Finding& f = b.add(kind("lossy_queue"), Severity::error, std::to_string(prio));
    f.where.point = where;
    f.where.priority = static_cast<int>(prio);
    for (uint32_t st : p.streams)
      if (lost_at.contains(st)) f.where.hop = lost_at.at(st);
    f.impact = b.loss(p.streams);
    f.title = "RoCE in a lossy queue: packets of priority " + std::to_string(prio) +
              " are lost and no PFC pause was seen for that priority" +
              (f.where.hop.empty() ? "" : " (lost between " + f.where.hop + ")");
    f.detail = std::to_string(p.count) + " loss signs (sequence NAKs, resends) on " + streams_text(p.streams) + " at " +
               where + "; a lossless queue pauses before it drops";
    f.fix = "Give RoCE a lossless class end to end: enable PFC on priority " + std::to_string(prio) +
            " on every switch port and NIC of the path (NIC: mlnx_qos -i <if> --pfc " + pfc_vector(prio) +
            "; the switch: PFC on that priority on each port), or mark RoCE into the "
            "priority that has PFC (the policy's lossless priorities: " + b.lossless_priorities() +
            ", e.g. map DSCP " + std::to_string(b.lossless_dscp()) + " to priority " +
            std::to_string(b.policy.dscp_priority[static_cast<size_t>(b.lossless_dscp())]) +
            "); check whether a firmware upgrade or reboot reset the switch QoS maps.";
    Builder::evidence(f, p.items, checks::evidence_filter(f.kind, {{"points", checks::one_of(p.points)},
                                                                   {"priority", std::to_string(prio)}}));
  }
}

void hop_losses(Builder& b) {
  struct Hop {
    uint64_t lost = 0;
    std::set<uint32_t> streams, frames;
    TimeSpan when;
  };
  std::map<std::pair<uint32_t, uint32_t>, Hop> hops;
  for (const auto& [k, st] : b.s.hops.flow_losses()) {
    if (!st.lost) continue;
    Hop& h = hops[{k.from, k.to}];
    h.lost += st.lost;
    h.streams.insert(b.a.flow_stream(k.flow));
    h.frames.insert(st.first_loss_frame);
    h.when.add(st.when);
  }
  // Losses the MTU finding explains by their size are its own.
  for (const auto& [k, sz] : b.s.hops.sizes())
    if (size_explains(b, k, sz) && hops.contains(k)) hops[k].lost -= sz.above;
  for (const auto& [k, h] : hops) {
    if (!h.lost) continue;
    const std::string hop = b.hop(k.first, k.second);
    Finding& f = b.add(kind("hop_loss"), Severity::error, hop);
    f.where.hop = hop;
    f.where.point = b.point(k.first);
    f.where.streams.assign(h.streams.begin(), h.streams.end());
    f.impact = b.loss(h.streams);
    f.title = std::to_string(h.lost) + (h.lost == 1 ? " packet" : " packets") + " lost between " +
              b.point(k.first) + " and " + b.point(k.second);
    f.detail = "seen at " + b.point(k.first) + ", never at " + b.point(k.second) + " (" + streams_text(h.streams) +
               "); the frames are marked roce.hop.lost_after on a second pass (tshark -2, the GUI)";
    f.fix = "A device between " + b.point(k.first) + " and " + b.point(k.second) +
            " drops RoCE: read its drop counters for the RoCE queue. Buffer or WRED drops in the RoCE class mean "
            "PFC is off (or its headroom too small) on that queue; CRC or symbol errors mean a bad link or optic.";
    f.frames.assign(h.frames.begin(), h.frames.end());
    if (f.frames.size() > Evidence::kFrames) f.frames.resize(Evidence::kFrames);
    f.evidence = h.lost;
    f.when = h.when;
    f.filter = checks::evidence_filter(f.kind, {{"point", std::to_string(k.first)}});
  }
}

void corruption(Builder& b) {
  std::map<uint32_t, std::vector<const Evidence*>> by_point;
  const auto [lo, hi] = b.s.evidence.of(Clue::icrc);
  for (auto it = lo; it != hi; ++it) by_point[std::get<2>(it->first)].push_back(&it->second);
  for (const auto& [point, items] : by_point) {
    std::set<uint32_t> streams;
    for (const Evidence* e : items) streams.insert(e->streams.begin(), e->streams.end());
    Finding& f = b.add(kind("icrc_bad"), Severity::error, b.point(point));
    f.where.point = b.point(point);
    f.impact = b.loss(streams);
    Builder::evidence(f, items, checks::evidence_filter(f.kind, {{"point", std::to_string(point)}}));
    f.title = "Corrupted RoCE packets (bad ICRC) at " + b.point(point);
    f.detail = std::to_string(f.evidence) + " packets of " + streams_text(streams) +
               " arrive with a wrong ICRC; the receiver drops them silently";
    f.fix = "The packets are damaged before " + b.point(point) +
            ": check the links and optics upstream (FEC, CRC and symbol error counters; reseat or replace the "
            "cable or transceiver). A device that rewrites invariant header fields breaks the ICRC too.";
  }
}

// NAKs for packets that arrived out of order: the receiver does not place
// out of order, and every reordering costs a go-back-N.
void reorder_naks(Builder& b) {
  const auto [items, streams] = b.gather(Clue::reorder_nak);
  if (items.empty()) return;
  Finding& f = b.add(kind("reorder_nak"), Severity::warning, "");
  f.impact = b.loss(streams);
  Builder::evidence(f, items, checks::evidence_filter(f.kind, {{"streams", checks::one_of(streams)}}));
  f.title = "Reordering makes the receiver NAK on " + streams_text(streams) + ": recovery with nothing lost";
  f.detail = "sequence-error NAKs for packets that had arrived out of order (adaptive routing or packet spraying), "
             "and the go-back-N resends they forced";
  f.fix = "The receiving NIC does not place packets out of order, so each reordering costs a NAK and a resend of "
          "the window: enable out-of-order data placement on the NICs where they support it (the vendor's "
          "adaptive-routing / out-of-order QP setting), or keep adaptive routing and packet spraying off this "
          "RoCE priority on the switches.";
}

// Late originals on connections whose receivers never NAKed a reordering:
// adaptive routing is on and absorbed. Worth knowing, nothing to recover.
void reordering(Builder& b) {
  const std::set<uint32_t> naked = b.gather(Clue::reorder_nak).streams;
  std::set<uint32_t> streams;
  std::vector<const Evidence*> items;
  for (const Evidence* e : b.gather(Clue::reorder).items) {
    if (std::ranges::any_of(e->streams, [&](uint32_t st) { return naked.contains(st); })) continue;
    streams.insert(e->streams.begin(), e->streams.end());
    items.push_back(e);
  }
  if (items.empty()) return;
  Finding& f = b.add(kind("reordering"), Severity::note, "");
  Builder::evidence(f, items, checks::evidence_filter(f.kind, {{"streams", checks::one_of(streams)}}));
  f.title = "Reordering tolerated on " + streams_text(streams) + ": packets arrived out of order, none lost";
  f.detail = std::to_string(f.evidence) +
             " late originals (adaptive routing or packet spraying) that the receivers placed without a NAK: "
             "not loss, and no recovery";
  f.fix = "Nothing to fix while the receiving NICs place packets out of order. Keep out-of-order placement "
          "enabled on every NIC these QPs use: one without it NAKs each reordering and resends the window "
          "(the reorder_nak finding). -z roce,hops names the hop where the reordering first appears.";
}

// The streams whose losses a finding so far explains.
std::set<uint32_t> explained_losses(const Builder& b) {
  return b.streams_of({kind("lossy_queue"), kind("dscp_not_lossless"), kind("dscp_remarked"), kind("pcp_mismatch"),
                       kind("inconsistent_marking"), kind("hop_loss"), kind("icrc_bad"), kind("mtu_mismatch"),
                       kind("vlan_changed")});
}

void timeouts(Builder& b) {
  const auto [items, streams] = b.gather(Clue::timeout);
  if (items.empty()) return;
  // A stream whose losses a finding above explains has its timer waits in
  // that finding's impact: counted here too, the symptom would outrank its cause.
  const std::set<uint32_t> explained = explained_losses(b);
  std::set<uint32_t> own, theirs;
  for (uint32_t st : streams) (explained.contains(st) ? theirs : own).insert(st);
  Finding& f = b.add(kind("timeout_retransmission"), Severity::error, "");
  f.impact = b.timeouts(own);
  f.impact.counted_elsewhere = own.empty();
  Builder::evidence(f, items, checks::evidence_filter(f.kind, {{"streams", checks::one_of(streams)}}));
  f.title = "Transport timer retransmissions on " + streams_text(streams);
  f.detail = "losses no NAK reported (tail drops, lost ACKs or NAKs, or a pause longer than the timer): the QPs "
             "sat idle " + duration(b.timeouts(streams).timeout_ns) + " waiting for the timer";
  if (!theirs.empty())
    f.detail += "; the losses of " + streams_text(theirs) + " are explained above, and their stall is counted there";
  f.fix = "Every timer expiry idles the QP for the whole timeout. Find what was lost (see the loss and PFC "
          "findings) and fix that first; on a lossless fabric also lower the QP's transport timeout (the "
          "'timeout' QP attribute, 4.096 us x 2^n) so a rare loss costs less, keeping it above the longest "
          "expected pause.";
}

void unexplained(Builder& b) {
  const std::set<uint32_t> explained = explained_losses(b);
  // The loss signs the engine gave (is_loss_sign), on streams nothing above explains.
  std::set<uint32_t> streams;
  std::vector<const Evidence*> items;
  const auto [lo, hi] = b.s.evidence.of(Clue::loss);
  for (auto it = lo; it != hi; ++it) {
    bool unexplained = false;
    for (uint32_t st : it->second.streams)
      if (!explained.contains(st)) unexplained = true, streams.insert(st);
    if (unexplained) items.push_back(&it->second);
  }
  if (streams.empty()) return;
  Finding& f = b.add(kind("loss"), Severity::error, "");
  f.where.streams.assign(streams.begin(), streams.end());
  f.impact = b.loss(streams);
  Builder::evidence(f, items, checks::evidence_filter(f.kind, {{"streams", checks::one_of(streams)}}));
  f.title = "Packet loss and go-back-N recovery on " + streams_text(streams) + ", cause not seen in this capture";
  f.detail = "sequence-error NAKs and resends with no lossy class, rewrite or corruption to explain them";
  f.fix = "Something on the path drops RoCE in its lossless class: read the discard counters of the switches on "
          "the path for the RoCE queue, or capture at more points (the triage then names the hop that loses "
          "them).";
}

}  // namespace

void add_loss_findings(Builder& b) {
  reorder_naks(b);
  reordering(b);
  hop_losses(b);
  corruption(b);
  lossy_queues(b);
  timeouts(b);
  unexplained(b);
}

}  // namespace roceshark::triage::detail
