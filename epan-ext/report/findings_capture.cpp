// SPDX-License-Identifier: GPL-2.0-or-later
// Findings about hops' queueing, the capture itself and the hosts:
// microbursts, clocks, merged points, malformed PFC frames, DCBX
// announcements, RNR waits and mirror copies.
#include "epan-ext/decode/aeth.h"
#include "epan-ext/report/findings_builder.h"
#include "epan-ext/common/text_table.h"

namespace roceshark::triage::detail {
namespace {

const Evidence* find(const Builder& b, Clue c, uint32_t x, uint32_t y) {
  const auto it = b.s.evidence.items().find({c, x, y, 0});
  return it == b.s.evidence.items().end() ? nullptr : &it->second;
}

void microbursts(Builder& b) {
  for (const auto& [k, row] : b.s.hops.hops()) {
    if (!row.bursts) continue;
    const std::string hop = b.hop(k.first, k.second);
    Finding& f = b.add(kind("microburst"), Severity::warning, hop);
    f.where.hop = hop;
    f.where.point = b.point(k.second);
    f.title = "Microbursts between " + b.point(k.first) + " and " + b.point(k.second) + ": " +
              std::to_string(row.bursts) + (row.bursts == 1 ? " burst" : " bursts") + ", queueing up to " +
              duration(row.queue_ns.max());
    f.detail = "packets waited more than " + duration(b.a.config().microburst_ns) +
               " above the hop's minimum latency (" + duration(row.queue_ns.max()) + " at most)";
    f.fix = "Incast or a burst into the egress port towards " + b.point(k.second) +
            ": check that ECN marks before the queue builds that far (a lower ECN threshold on that queue), and "
            "spread the load (ECMP hashing over more QPs or source ports).";
    for (const hop::EcnMismatch& m : b.ecn)
      if (m.place.from == k.first && m.place.to == k.second)
        f.fix += " This hop's ECN marking starts later than " + b.hop(m.reference.from, m.reference.to) +
                 "'s on priority " + std::to_string(m.place.priority) + ": see ecn_threshold_mismatch.";
    Builder::evidence(f, {find(b, Clue::burst, k.first, k.second)},
                      checks::evidence_filter(f.kind, {{"point", std::to_string(k.second)},
                                                       {"prev_point", std::to_string(k.first)}}));
  }
}

void clocks(Builder& b) {
  std::map<std::pair<uint32_t, uint32_t>, std::set<uint32_t>> frames;
  std::map<std::pair<uint32_t, uint32_t>, TimeSpan> when;
  const bool synced = b.a.config().clock_mode == ClockMode::synced;
  if (synced)
    for (const auto& s : b.s.hops.skews()) {
      frames[{std::min(s.a, s.b), std::max(s.a, s.b)}].insert(s.frame);
      when[{std::min(s.a, s.b), std::max(s.a, s.b)}].add(s.ts_ns);
    }
  const auto [lo, hi] = b.s.evidence.of(Clue::negative);
  for (auto it = lo; it != hi; ++it) {
    const uint32_t x = std::get<1>(it->first), y = std::get<2>(it->first);
    for (uint32_t fr : it->second.first()) frames[{std::min(x, y), std::max(x, y)}].insert(fr);
    when[{std::min(x, y), std::max(x, y)}].add(it->second.when());
  }
  for (const auto& [k, fr] : frames) {
    const std::string place = b.point(k.first) + "|" + b.point(k.second);
    Finding& f = b.add(kind("clock_skew"), Severity::warning, place);
    f.where.hop = b.hop(k.first, k.second);
    f.title = "Clocks of " + b.point(k.first) + " and " + b.point(k.second) + " disagree";
    f.detail = "traffic both ways, or latencies below zero, show the two points' timestamps are not in sync: "
               "their hop latencies are wrong";
    for (const auto& e : b.s.hops.clock_estimates())
      if (std::min(e.a, e.b) == k.first && std::max(e.a, e.b) == k.second && e.proven())
        f.detail = "offset " + std::to_string(e.offset_ns) + " ns (+/- " + std::to_string(e.uncertainty_ns) +
                   " ns) from " + std::to_string(e.samples) + " samples: the hop latencies between them are off";
    f.fix = "Synchronise the capture points (PTP on the taps or capture NICs), or analyse with -o roce.clock:estimate "
            "so the offsets are estimated from the traffic.";
    f.frames.assign(fr.begin(), fr.end());
    if (f.frames.size() > Evidence::kFrames) f.frames.resize(Evidence::kFrames);
    f.evidence = fr.size();
    f.when = when[k];
    f.filter = checks::evidence_filter(f.kind);
  }
}

void merged(Builder& b) {
  const auto [lo, hi] = b.s.evidence.of(Clue::merged);
  for (auto it = lo; it != hi; ++it) {
    const uint32_t point = std::get<1>(it->first);
    Finding& f = b.add(kind("merged_points"), Severity::warning, b.point(point));
    f.where.point = b.point(point);
    f.title = "Two capture places recorded as one point: " + b.point(point);
    f.detail = "a flow's TTL flips back and forth at this point: its statistics mix two places";
    f.fix = "Merge per-tap files with mergecap -I none (so each tap keeps its own interface), or tell the points "
            "apart with -o roce.point_key:erspan or vlan. A SPAN session mirroring a port's ingress and egress "
            "records two places by design: its copies are told apart as mirror duplicates, but per-point "
            "statistics mix both sides; mirror one direction, or the port on each side, where you can.";
    Builder::evidence(f, {&it->second}, checks::evidence_filter(f.kind, {{"point", std::to_string(point)}}));
  }
}

void bad_pfc(Builder& b) {
  const auto [lo, hi] = b.s.evidence.of(Clue::bad_pfc);
  for (auto it = lo; it != hi; ++it) {
    const uint32_t point = std::get<1>(it->first);
    Finding& f = b.add(kind("bad_pfc_frames"), Severity::warning, b.point(point));
    f.where.point = b.point(point);
    f.title = "Malformed PFC frames at " + b.point(point);
    f.detail = std::to_string(it->second.count) +
               " PFC frames with reserved bits set, to a non-standard address, or truncated";
    f.fix = "Find the sender by its source MAC and update or reconfigure its firmware: receivers may ignore such "
            "pauses (a runt or a wrong address) or act on them differently.";
    Builder::evidence(f, {&it->second}, checks::evidence_filter(f.kind, {{"point", std::to_string(point)}}));
  }
}

void dcbx(Builder& b) {
  using DKind = qos::DcbxFinding::Kind;
  for (const auto& e : b.s.qos.dcbx()) {
    for (const auto& d : e.findings) {
      const std::string mac = mac_to_string(e.announcement.mac);
      const std::string who = mac_label(b.a, e.announcement.mac), device = mac_device(b.a, e.announcement.mac);
      const std::string place = e.point_name + "|" + mac + "|" + std::to_string(static_cast<int>(d.kind)) + "|" +
                                std::to_string(d.priority) + "|" + std::to_string(d.dscp);
      const checks::Kind row = qos::check_of(d.kind).row;
      Finding& f = b.add(row, Severity::warning, place);
      f.where.point = e.point_name;
      f.where.mac = mac;
      f.where.mac_name = b.a.mac_name(e.announcement.mac);
      if (d.kind != DKind::max_frame_below_roce) f.where.priority = d.priority;
      if (d.kind == DKind::app_disagrees_with_policy || d.kind == DKind::app_disagrees_with_traffic)
        f.where.dscp = d.dscp;
      f.title = std::string(qos::announced_in(d.kind)) + " at " + e.point_name + " from " + who + ": " + d.text;
      f.detail = "announced in " + std::to_string(e.repeats) + (e.repeats == 1 ? " LLDP frame" : " LLDP frames");
      switch (d.kind) {
        case DKind::pfc_off_on_roce_priority:
          f.fix = "Enable PFC on priority " + std::to_string(d.priority) + " on the port or NIC " + device +
                  " (or make it willing to accept the switch's DCBX configuration).";
          break;
        case DKind::max_frame_below_roce:
          f.detail += "; a port that enforces it drops every longer frame, and the QPs behind them stall in "
                      "retries";
          f.fix = "Raise the MTU of the port or NIC " + device + " until it takes frames of " +
                  cell::grouped(d.largest_frame) +
                  " bytes (as captured), and check every port of the path: a RoCE path MTU of 4096 needs an "
                  "interface MTU of at least 4,200 bytes. Or lower the RoCE path MTU on the hosts. If the port "
                  "already carries such frames, correct what its LLDP announces.";
          break;
        case DKind::ets_roce_no_bandwidth:
          f.fix = "Give traffic class " + std::to_string(d.announced) + " of the port or NIC " + device +
                  " an ETS bandwidth share for RoCE priority " + std::to_string(d.priority) +
                  " (what the fabric plans, often 50% or more): a class with 0% gets only what the others leave.";
          break;
        case DKind::ets_cnp_shared:
          f.fix = "On the port or NIC " + device + ", put the CNP priority " + std::to_string(d.priority) +
                  " in a strict-priority traffic class or one of its own, so CNPs reach the senders ahead of the "
                  "traffic they are meant to slow down.";
          break;
        case DKind::ets_differs_between_ports:
          f.fix = "Make ETS agree on every port of the path: map priority " + std::to_string(d.priority) +
                  " to the same traffic class with the same share on the port or NIC " + device +
                  " as on the first port (or make the NIC willing to take the switch's ETS).";
          break;
        default:
          f.fix = "Make the APP table of the port or NIC " + device + " map DSCP " + std::to_string(d.dscp) +
                  " to the priority the policy and the traffic use (" + std::to_string(d.priority) + ").";
      }
      f.frames = {e.first_frame};
      f.evidence = e.repeats;
      f.when = e.when;
      f.filter = checks::evidence_filter(f.kind, {{"mac", mac}});
    }
  }
}

void rnr(Builder& b) {
  const auto [items, streams] = b.gather(Clue::rnr);
  if (items.empty()) return;
  Finding& f = b.add(kind("rnr"), Severity::note, "");
  f.impact = b.rnr(streams);
  Builder::evidence(f, items, checks::evidence_filter(f.kind, {{"streams", checks::one_of(streams)}}));
  f.title = "Receiver not ready (RNR NAK) on " + streams_text(streams);
  f.detail = "the receivers had no receive buffer posted; the senders waited " + duration(f.impact.stall_ns) +
             " in RNR timers (an application matter, not the fabric's)";
  f.fix = "Post receive buffers ahead of the traffic (a deeper receive queue or SRQ), or raise the RNR retry timer "
          "the receiver advertises if waits are expected.";
}

// Error NAKs end their QP: the job on it fails, whatever the fabric does.
void nak_errors(Builder& b) {
  std::map<uint32_t, std::pair<std::vector<const Evidence*>, std::set<uint32_t>>> by_code;
  const auto [lo, hi] = b.s.evidence.of(Clue::nak_error);
  for (auto it = lo; it != hi; ++it) {
    auto& [items, points] = by_code[std::get<1>(it->first)];
    items.push_back(&it->second);
    points.insert(std::get<2>(it->first));
  }
  for (const auto& [code, entry] : by_code) {
    const auto nak = static_cast<NakCode>(code);
    const std::string name = nak_name(nak);
    Finding& f = b.add(kind("nak_error"), Severity::warning, name);
    f.where.point = b.points(entry.second);
    Builder::evidence(f, entry.first, checks::evidence_filter(f.kind, {{"nak", name}}));
    f.title = "QPs ended by a " + name + " NAK on " + streams_text({f.where.streams.begin(), f.where.streams.end()});
    f.detail = "the responder refused a request and moved the QP to the error state: nothing more flows on it";
    switch (nak) {
      case NakCode::remote_access_error:
        f.fix = "The responder rejected an RDMA access: a wrong rkey, an address outside the memory region, or "
                "missing access rights (remote read/write/atomic) on it. Check the application's memory "
                "registration and the keys it exchanges.";
        break;
      case NakCode::invalid_request:
        f.fix = "The responder cannot serve the request (an opcode or length it does not support, or QP "
                "attributes that disagree, e.g. the maximum message size or atomics): compare both ends' QP "
                "setup.";
        break;
      default:
        f.fix = "The responder's NIC failed the operation: check its kernel log and NIC health counters.";
        break;
    }
  }
}

void duplicates(Builder& b) {
  const auto [lo, hi] = b.s.evidence.of(Clue::duplicate);
  for (auto it = lo; it != hi; ++it) {
    const uint32_t point = std::get<1>(it->first);
    Finding& f = b.add(kind("mirror_duplicates"), Severity::note, b.point(point));
    f.where.point = b.point(point);
    f.title = "Mirror copies at " + b.point(point) + ": packets recorded twice";
    f.detail = "the SPAN session records both directions of a port, or two ports, so packets appear twice; "
               "the analysis discounts the copies";
    f.fix = "Mirror one direction per session (or one port) if the copies get in the way; the statistics are not "
            "affected.";
    Builder::evidence(f, {&it->second}, checks::evidence_filter(f.kind, {{"point", std::to_string(point)}}));
  }
}

}  // namespace

void add_capture_findings(Builder& b) {
  microbursts(b);
  clocks(b);
  merged(b);
  bad_pfc(b);
  dcbx(b);
  rnr(b);
  nak_errors(b);
  duplicates(b);
}

}  // namespace roceshark::triage::detail
