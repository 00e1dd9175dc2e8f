// SPDX-License-Identifier: GPL-2.0-or-later
// Findings from frame sizes: a hop that loses every frame above some
// length and passes the shorter ones has an MTU below the RoCE frames.
//
// The header budget of a RoCE packet above its payload (the path MTU):
// IPv6 40 (IPv4 20), UDP 8, BTH 12, RETH 16 and ImmDt 4 (a WRITE ONLY with
// immediate carries both), ICRC 4: 84 bytes over IPv6, 64 over IPv4. The
// interface (IP) MTU must be at least path MTU + 84; the Ethernet header
// (14, 18 tagged) and FCS (4) come on top where a switch counts them.
#include "epan-ext/findings_builder.h"
#include "epan-ext/text_table.h"

namespace roceshark::triage::detail {

namespace {

constexpr uint32_t kRoceHeaders = 84;

}  // namespace

// The size explains a hop's losses when enough of them, and most, are
// longer than any frame that crossed it.
bool size_explains(const hop::SizeSplit& s, const Config& cfg) {
  return s.largest_passed && s.above >= cfg.mtu_min_lost && s.above * 2 > s.lost;
}

void add_mtu_findings(Builder& b) {
  for (const auto& [k, s] : b.s.hops.sizes()) {
    if (!size_explains(s, b.a.config())) continue;
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
    f.filter = checks::evidence_filter(f.kind, {{"point", std::to_string(k.first)}});
    f.title = "MTU between " + from + " and " + to + ": frames of " + cell::grouped(s.smallest_above) +
              " bytes and more are lost, " + cell::grouped(s.largest_passed) + " bytes and less pass";
    f.detail = std::to_string(s.above) + " of the " + std::to_string(s.lost) + " packets lost on this hop (" +
               streams_text(streams) + ") were longer than any frame that crossed it: largest passed " +
               cell::grouped(s.largest_passed) + " bytes, smallest lost " + cell::grouped(s.smallest_above) + " bytes (at " + from +
               ")" +
               (!pmtu ? ""
                : cm_frame ? "; the QPs' path MTU is " + std::to_string(pmtu) + " (from CM REQ frame " +
                                 std::to_string(cm_frame) + ")"
                           : "; the QPs' path MTU is " + std::to_string(pmtu) + " (from their FIRST/MIDDLE segments)");
    const std::string need = pmtu ? "RoCE path MTU " + std::to_string(pmtu) + " needs an interface (IP) MTU of at least " +
                                        cell::grouped(pmtu + kRoceHeaders) + " bytes (" + std::to_string(pmtu) +
                                        " + 84 bytes of IPv6, UDP, BTH, RETH, ImmDt and ICRC headers; " +
                                        cell::grouped(pmtu + kRoceHeaders - 20) + " over IPv4)"
                                  : "The interface (IP) MTU must exceed the RoCE path MTU by 84 bytes of headers";
    f.fix = "A port between " + from + " and " + to + " has an MTU below these frames and drops them. " + need +
            " on every port of the path: set the interface MTU to at least that (" +
            (pmtu == 4096 ? std::string("4,200 is the usual setting, ") : std::string()) +
            "9,000 or more on a jumbo fabric), counting 18 bytes of Ethernet header and 4 of FCS more on switches "
            "whose MTU is the whole frame; or lower the QPs' path MTU (it follows the NIC netdev's MTU) to one "
            "every hop carries.";
  }
}

}  // namespace roceshark::triage::detail
