// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/analysis/besteffort.h"

#include <algorithm>

namespace roceshark {

namespace hop {
namespace {

// A frame's time on the wire beyond its captured bytes: FCS, preamble, gap.
constexpr uint64_t kWireOverhead = 24;

}  // namespace

void BestEffort::cross(const CrossPacket& p, int64_t ts) {
  copies_.expire(p.ts_ns > window_ns_ ? p.ts_ns - window_ns_ : 0);
  copies_.trim(kMaxCopies);
  const uint64_t id = p.identity();
  Copy* c = copies_.find(id);
  if (!c) {
    copies_.insert(id, p.ts_ns) = {p.point, ts};
    return;
  }
  if (c->point == p.point) return;  // a second copy at one point: a mirror's, not a hop
  const std::pair<uint32_t, uint32_t> key{c->point, p.point};
  const int64_t latency = ts - c->ts;
  *c = {p.point, ts};  // its next hop starts here
  if (latency < 0) return;  // clocks not synced: RoCE's own matching says so
  Hop& h = hops_[key];
  h.be_min_latency = std::min(h.be_min_latency, latency);
  push(h, p.ts_ns, 0, p.frame_len + kWireOverhead, static_cast<uint64_t>(latency - h.be_min_latency));
}

Starvation BestEffort::roce(uint32_t from, uint32_t to, uint64_t ts_ns, uint32_t frame_len, uint64_t queue_ns,
                            bool judge, double gbps) {
  const auto it = hops_.find({from, to});
  if (it == hops_.end()) return {};
  Hop& h = it->second;
  Starvation s = judge && queue_ns ? this->judge(h, ts_ns, queue_ns, gbps) : Starvation{};
  push(h, ts_ns, frame_len + kWireOverhead, 0, 0);
  if (s.be_share_pct) s.enough = ++starved_[{from, to}] == kMinEvidence;
  return s;
}

void BestEffort::push(Hop& h, uint64_t ts_ns, uint64_t roce_bytes, uint64_t be_bytes, uint64_t be_wait_ns) {
  while (!h.marks.empty() && (h.marks.size() >= kMaxMarks || h.marks.front().ts_ns + window_ns_ < ts_ns))
    h.marks.pop_front();
  Mark m = h.marks.empty() ? Mark{} : h.marks.back();
  m.ts_ns = ts_ns;
  m.roce_bytes += roce_bytes;
  m.be_bytes += be_bytes;
  m.be_frames += be_bytes ? 1 : 0;
  m.be_wait_ns += be_wait_ns;
  h.marks.push_back(m);
}

Starvation BestEffort::judge(const Hop& h, uint64_t ts_ns, uint64_t queue_ns, double gbps) const {
  if (gbps <= 0 || queue_ns > ts_ns) return {};
  const uint64_t t0 = ts_ns - queue_ns;
  // The totals when the wait began: the last mark at or before it. None:
  // the marks start later, and the wait is not covered.
  const auto after = std::partition_point(h.marks.begin(), h.marks.end(), [t0](const Mark& m) { return m.ts_ns <= t0; });
  if (after == h.marks.begin()) return {};
  const Mark &a = *(after - 1), &b = h.marks.back();
  const uint64_t be = b.be_bytes - a.be_bytes, roce = b.roce_bytes - a.roce_bytes, frames = b.be_frames - a.be_frames;
  if (frames < 3) return {};
  const double fill = static_cast<double>(be + roce) * 8.0 / gbps / static_cast<double>(queue_ns);
  const uint64_t share = be * 100 / (be + roce), be_wait = (b.be_wait_ns - a.be_wait_ns) / frames;
  if (fill * 100 < kMinFillPct || share <= share_pct_ || be_wait * 4 > queue_ns) return {};
  return {static_cast<uint8_t>(share), static_cast<uint8_t>(std::min(fill * 100, 255.0)), be_wait};
}

}  // namespace hop
}  // namespace roceshark
