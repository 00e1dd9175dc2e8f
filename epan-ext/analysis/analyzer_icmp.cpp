// SPDX-License-Identifier: GPL-2.0-or-later
// ICMP "too big" messages as MTU evidence (epan-ext/decode/icmp.h).
#include <algorithm>

#include "epan-ext/analysis/analyzer.h"

namespace roceshark {
namespace {

constexpr size_t kMaxIcmpReports = 256;  // distinct router/MTU/flow triples; a hostile capture can't grow it further

}  // namespace

icmp::Verdict Analyzer::process(const icmp::TooBig& m) {
  timer_.at(m.point, m.frame, m.ts_ns);  // the tap's time; the message itself is not timed
  icmp::Verdict v;
  v.frame = m.frame, v.point = m.point, v.mtu = m.mtu;
  if (!timer_.admit_point(m.point)) return v;
  // The quoted packet is a RoCE packet the router saw; with the QP, its
  // flow, else every flow of the host pair.
  v.largest = m.quoted_len;
  uint32_t one = kNoId;
  std::span<const uint32_t> flows;
  if (m.has_bth) {
    one = flows_.find({m.src, m.dst, m.dest_qp});
    if (one != kNoId) flows = {&one, 1};
  } else {
    flows = flows_.between(m.src, m.dst);
  }
  for (uint32_t f : flows) {
    v.largest = std::max(v.largest, flows_[f].largest_ip);
    if (v.stream == kNoId) v.flow = f, v.stream = flows_[f].stream;  // the first with a connection
  }
  // An MTU every RoCE packet of the flow fits in explains no loss of it (a
  // message about other traffic of the pair, or one a router sent for a
  // tunnel's overhead it then carried); no MTU at all (a pre-RFC 1191
  // router) says no size; a flow the capture never saw has no loss here
  // to explain, nor a connection to place it on.
  v.below = m.mtu && m.mtu < v.largest && v.stream != kNoId;
  const icmp::Report r{m.reporter, m.src, m.dst, m.mtu, m.has_bth, m.has_bth ? m.dest_qp : 0, m.frame};
  auto it = std::find(icmp_reports_.begin(), icmp_reports_.end(), r);
  if (it == icmp_reports_.end() && icmp_reports_.size() < kMaxIcmpReports) it = icmp_reports_.insert(it, r);
  if (it == icmp_reports_.end()) return v;
  v.report = static_cast<uint32_t>(it - icmp_reports_.begin());
  if (v.below) it->largest = std::max(it->largest, v.largest);
  return v;
}

}  // namespace roceshark
