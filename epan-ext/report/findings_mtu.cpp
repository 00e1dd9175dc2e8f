// SPDX-License-Identifier: GPL-2.0-or-later
// Findings from frame sizes: a hop that loses every frame above some
// length and passes the shorter ones has an MTU below the RoCE frames; a
// router that says so in ICMP (fragmentation needed, packet too big) names
// itself and its MTU, from one capture point.
//
// The header budget of a RoCE packet above its payload (the path MTU):
// IPv6 40 (IPv4 20), UDP 8, BTH 12, RETH 16 and ImmDt 4 (a WRITE ONLY with
// immediate carries both), ICRC 4: 84 bytes over IPv6, 64 over IPv4. The
// interface (IP) MTU must be at least path MTU + 84; the Ethernet header
// (14, 18 tagged) and FCS (4) come on top where a switch counts them.
#include <algorithm>
#include <cstdio>

#include "epan-ext/report/findings_builder.h"
#include "epan-ext/common/text_table.h"

namespace roceshark::triage::detail {

namespace {

constexpr uint32_t kRoceHeaders = 84;

// What the interface MTU must be, on every port: the fix of both kinds of evidence.
std::string mtu_needed(uint32_t pmtu) {
  const std::string need = pmtu ? "RoCE path MTU " + std::to_string(pmtu) + " needs an interface (IP) MTU of at least " +
                                      cell::grouped(pmtu + kRoceHeaders) + " bytes (" + std::to_string(pmtu) +
                                      " + 84 bytes of IPv6, UDP, BTH, RETH, ImmDt and ICRC headers; " +
                                      cell::grouped(pmtu + kRoceHeaders - 20) + " over IPv4)"
                                : "The interface (IP) MTU must exceed the RoCE path MTU by 84 bytes of headers";
  return need + " on every port of the path: set the interface MTU to at least that (" +
         (pmtu == 4096 ? std::string("4,200 is the usual setting, ") : std::string()) +
         "9,000 or more on a jumbo fabric), counting 18 bytes of Ethernet header and 4 of FCS more on switches "
         "whose MTU is the whole frame; or lower the QPs' path MTU (it follows the NIC netdev's MTU) to one "
         "every hop carries.";
}

std::string pmtu_text(uint32_t pmtu, uint32_t cm_frame) {
  if (!pmtu) return "";
  return "; the QPs' path MTU is " + std::to_string(pmtu) +
         (cm_frame ? " (from CM REQ frame " + std::to_string(cm_frame) + ")" : " (from their FIRST/MIDDLE segments)");
}

// A hop finding, and what the ICMP messages that join it need.
struct HopFinding {
  Finding* f;
  std::set<uint32_t> streams, points;
  std::string filter() const {
    return checks::evidence_filter(f->kind, {{"points", checks::one_of(points)},
                                             {"place", "roce.qp.stream " + checks::one_of(streams)}});
  }
};

// "10.0.0.1 -> 10.0.0.2 QP 0x000162", or the host pair when the quote stopped before the BTH.
std::string flow_text(const icmp::Report& r) {
  std::string s = r.src.to_string() + " -> " + r.dst.to_string();
  if (!r.has_qp) return s;
  char qp[16];
  std::snprintf(qp, sizeof qp, " QP 0x%06x", r.qp);
  return s + qp;
}

// "a", "a and b", "a, b and c".
std::string listed(const std::vector<std::string>& items) {
  std::string s;
  for (size_t i = 0; i < items.size(); ++i) s += (i ? (i + 1 == items.size() ? " and " : ", ") : "") + items[i];
  return s;
}

// One router's messages not explained by a hop finding: the router is what
// to fix, so it is one finding however many flows and MTUs it reported.
struct RouterMessages {
  std::vector<const Evidence*> items;
  std::set<uint32_t> points, streams, mtus;
  std::vector<std::string> flows, towards;
  uint64_t count = 0;
  uint32_t first_frame = UINT32_MAX, largest = 0, pmtu = 0, cm_frame = kNoFrame;
  bool v6 = false;
};

void add_router_finding(Builder& b, const std::string& router, const RouterMessages& m) {
  Finding& f = b.add(kind("mtu_mismatch"), Severity::error, "router " + router);
  f.where.point = b.points(m.points);
  f.where.streams.assign(m.streams.begin(), m.streams.end());
  f.impact = b.loss(m.streams);
  // The streams cannot tell two routers about one flow apart; the router's address can.
  Builder::evidence(f, m.items,
                    checks::evidence_filter(f.kind, {{"points", checks::one_of(m.points)},
                                                     {"place", (m.v6 ? "ipv6.src == " : "ip.src == ") + router}}));
  std::vector<std::string> mtus;
  for (uint32_t mtu : m.mtus) mtus.push_back(cell::grouped(mtu));
  const std::string flows = listed(m.flows);
  f.title = "router " + router + " reports MTU " + listed(mtus) + " for " + flows +
            ", below the frames RoCE sends (IP packets of " + cell::grouped(m.largest) + " bytes)";
  f.detail = std::to_string(m.count) + " ICMP fragmentation-needed / packet-too-big message(s) from " + router +
             " at " + b.points(m.points) + " (first in frame " + std::to_string(m.first_frame) +
             ") quote RoCE packets of " + flows + (m.streams.empty() ? "" : " (" + streams_text(m.streams) + ")") +
             ": the router drops those above " + cell::grouped(*m.mtus.begin()) +
             " bytes. RoCE NICs ignore these messages (a QP's path MTU is fixed when it connects), so the loss "
             "persists" + pmtu_text(m.pmtu, m.cm_frame);
  f.fix = "Router " + router + " forwards at most " + cell::grouped(*m.mtus.begin()) + " bytes towards " +
          listed(m.towards) + ". " + mtu_needed(m.pmtu);
}

// ICMP fragmentation-needed / packet-too-big about RoCE: extra evidence of
// the hop finding about the same connections, else a finding of the router
// (one capture point is enough).
void add_icmp_findings(Builder& b, std::vector<HopFinding>& hops) {
  struct Group {
    std::vector<const Evidence*> items;
    std::set<uint32_t> points;
  };
  std::map<uint32_t, Group> by_report;
  for (auto [it, end] = b.s.evidence.of(Clue::mtu_mismatch); it != end; ++it) {
    Group& g = by_report[std::get<1>(it->first)];
    g.items.push_back(&it->second);
    g.points.insert(std::get<2>(it->first));
  }
  std::map<std::string, RouterMessages> routers;
  for (const auto& [id, g] : by_report) {
    const icmp::Report& r = b.a.icmp_report(id);
    std::set<uint32_t> streams;
    uint32_t pmtu = 0, cm_frame = kNoFrame;
    for (uint32_t flow : b.a.flows_between(r.src, r.dst)) {
      if (r.has_qp && b.a.flow_key(flow).qp != r.qp) continue;
      if (b.a.flow_stream(flow) != kNoId) streams.insert(b.a.flow_stream(flow));
      if (b.a.path_mtu(flow) > pmtu) pmtu = b.a.path_mtu(flow), cm_frame = b.a.path_mtu_cm_frame(flow);
    }
    const uint64_t count = Builder::count(g.items);
    const std::string router = r.reporter.to_string(), flow = flow_text(r);
    HopFinding* joined = nullptr;
    for (HopFinding& h : hops)
      for (uint32_t s : streams) joined = h.streams.contains(s) ? &h : joined;
    if (joined) {
      Finding& f = *joined->f;
      std::set<uint32_t> frames(f.frames.begin(), f.frames.end());
      for (const Evidence* e : g.items) {
        frames.insert(e->first().begin(), e->first().end());
        f.when.add(e->when());
      }
      f.frames.assign(frames.begin(), frames.end());
      if (f.frames.size() > Evidence::kFrames) f.frames.resize(Evidence::kFrames);
      f.evidence += count;
      joined->points.insert(g.points.begin(), g.points.end());
      f.filter = joined->filter();
      f.detail += "; router " + router + " reports MTU " + cell::grouped(r.mtu) + " for " + flow +
                  " (ICMP, first in frame " + std::to_string(r.first_frame) + ")";
      continue;
    }
    RouterMessages& m = routers[router];
    m.items.insert(m.items.end(), g.items.begin(), g.items.end());
    m.points.insert(g.points.begin(), g.points.end());
    m.streams.insert(streams.begin(), streams.end());
    m.mtus.insert(r.mtu);
    if (std::find(m.flows.begin(), m.flows.end(), flow) == m.flows.end()) m.flows.push_back(flow);
    if (std::find(m.towards.begin(), m.towards.end(), r.dst.to_string()) == m.towards.end())
      m.towards.push_back(r.dst.to_string());
    m.count += count;
    m.first_frame = std::min(m.first_frame, r.first_frame);
    m.largest = std::max(m.largest, r.largest);
    if (pmtu > m.pmtu) m.pmtu = pmtu, m.cm_frame = cm_frame;
    m.v6 = r.reporter.len == 16;
  }
  for (const auto& [router, m] : routers) add_router_finding(b, router, m);
}

// The smallest LLDP maximum frame size announced at either end of the hop
// that its lost frames exceed and the frames that crossed it fit (the
// announcement counts the 4-byte FCS, the capture does not), or 0.
uint32_t lldp_limit(const Builder& b, std::pair<uint32_t, uint32_t> hop, const hop::SizeSplit& s) {
  constexpr uint32_t kFcs = 4;
  uint32_t limit = 0;
  for (const qos::DcbxEntry& e : b.s.qos.dcbx()) {
    const uint32_t m = e.announcement.max_frame_size;
    if (!m || (e.announcement.point != hop.first && e.announcement.point != hop.second)) continue;
    if (s.smallest_above + kFcs > m && s.largest_passed + kFcs <= m && (!limit || m < limit)) limit = m;
  }
  return limit;
}

}  // namespace

// The size explains a hop's losses when enough of them, and most, are
// longer than any frame that crossed it; or when every one is, and LLDP on
// the hop's link announces a maximum frame size between the two: then one
// such loss is enough. Small frames lost too, and no LLDP: not the size.
bool size_explains(const Builder& b, std::pair<uint32_t, uint32_t> hop, const hop::SizeSplit& s) {
  if (!s.largest_passed || !s.above) return false;
  if (s.above >= b.a.config().mtu_min_lost && s.above * 2 > s.lost) return true;
  return s.above == s.lost && lldp_limit(b, hop, s);
}

void add_mtu_findings(Builder& b) {
  std::vector<HopFinding> hops;
  for (const auto& [k, s] : b.s.hops.sizes()) {
    if (!size_explains(b, k, s)) continue;
    std::set<uint32_t> streams;
    uint32_t pmtu = 0, cm_frame = kNoFrame;  // the largest path MTU, and the CM REQ that gave it
    for (uint32_t flow : s.flows) {
      streams.insert(b.a.flow_stream(flow));
      if (b.a.path_mtu(flow) > pmtu) pmtu = b.a.path_mtu(flow), cm_frame = b.a.path_mtu_cm_frame(flow);
    }
    const std::string from = b.point(k.first), to = b.point(k.second), hop = b.hop(k.first, k.second);
    Finding& f = b.add(kind("mtu_mismatch"), Severity::error, hop);
    f.where.hop = hop;
    f.where.point = from;
    f.where.streams.assign(streams.begin(), streams.end());
    f.impact = b.loss(streams);
    f.frames = s.frames;
    f.evidence = s.above;
    f.when = s.when;
    f.title = "MTU between " + from + " and " + to + ": frames of " + cell::grouped(s.smallest_above) +
              " bytes and more are lost, " + cell::grouped(s.largest_passed) + " bytes and less pass";
    f.detail = std::to_string(s.above) + " of the " + std::to_string(s.lost) + " packets lost on this hop (" +
               streams_text(streams) + ") were longer than any frame that crossed it: largest passed " +
               cell::grouped(s.largest_passed) + " bytes, smallest lost " + cell::grouped(s.smallest_above) + " bytes (at " + from +
               ")" + pmtu_text(pmtu, cm_frame);
    if (const uint32_t limit = lldp_limit(b, k, s))
      f.detail += "; LLDP on this link announces a maximum frame size of " + cell::grouped(limit) +
                  " bytes (FCS included), between the two";
    f.fix = "A port between " + from + " and " + to + " has an MTU below these frames and drops them. " + mtu_needed(pmtu);
    hops.push_back({&f, streams, {k.first}});
    f.filter = hops.back().filter();
  }
  add_icmp_findings(b, hops);
}

}  // namespace roceshark::triage::detail
