// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/analysis/pfc_analyzer.h"

#include <algorithm>

namespace roceshark::pfc {

uint8_t PfcAnalyzer::wrong_class(Point& pt) {
  if (!(pt.roce & ~pt.pfc)) return 0;  // every RoCE priority here has PFC
  const auto fresh = static_cast<uint8_t>(pt.pfc & ~pt.roce & ~pt.wrong_reported);
  pt.wrong_reported |= fresh;
  return fresh;
}

bool PfcAnalyzer::admit_port(uint32_t point, const Mac& mac) {
  if (ports_.contains({point, mac})) return true;
  if (ports_.size() >= cfg_.max_pfc_ports) return false;
  ports_.insert({point, mac});
  return true;
}

PauseVerdict& PfcAnalyzer::process(const PauseFrame& f, LimitKind beyond, bool first) {
  PauseVerdict& v = last_ = {};
  v.frame = f.frame;
  v.point = f.point;
  v.src = f.src;
  if (beyond != LimitKind::none) {
    v.beyond = beyond, v.first_beyond = first;
    return v;
  }
  const auto captured = static_cast<uint8_t>((1u << f.captured) - 1u);
  v.enabled = static_cast<uint8_t>(f.enable & 0xFF & captured);
  v.reserved_bits = (f.enable & 0xFF00) != 0;
  v.nonstandard_dst = f.dst != kPfcDestination;
  v.truncated = f.captured < 8;
  v.runt = f.wire_len < kMinFrame;
  // 802.3 annex 31B: MAC control frames go to 01:80:C2:00:00:01 or to the
  // receiving station itself (unicast); receivers drop runts.
  v.ignored = v.runt || (v.nonstandard_dst && (f.dst[0] & 0x01));
  if (v.ignored) {
    const double speed = tracker_.gbps(f.point);
    for (uint8_t p = 0; p < 8; ++p)
      if (v.enabled & (1u << p)) v.pause_ns[p] = quanta_to_ns(f.quanta[p], speed);
    return v;
  }

  uint8_t new_episodes = 0;
  tracker_.on_pause(f, v, new_episodes);
  const auto xoff = static_cast<uint8_t>(v.enabled & ~v.xon);
  Point& pt = point(f.point);
  pt.pfc |= xoff;
  pfc_anywhere_ |= xoff;
  v.wrong_class_first = wrong_class(pt);
  v.wrong_class_roce = static_cast<uint8_t>(pt.roce & ~pt.pfc);

  for (uint8_t p = 0; p < 8; ++p) {
    if (!(new_episodes & (1u << p))) continue;
    const auto bit = static_cast<uint8_t>(1u << p);
    if (!pt.signalled || f.ts_ns - pt.last_signal_ns > cfg_.ecn_window_ns) {
      v.no_ecn |= bit;
      uint64_t k = 0;
      for (uint8_t b : f.src) k = k << 8 | b;
      if (no_ecn_reported_.insert(k << 11 | uint64_t{f.point} << 3 | p).second) v.no_ecn_first |= bit;
    }
  }
  return v;
}

PfcAnalyzer::Point& PfcAnalyzer::point(uint32_t id) {
  if (!last_point_.at || last_point_.id != id) last_point_.id = id, last_point_.at = &points_[id];
  return *last_point_.at;
}

PacketPfc PfcAnalyzer::on_roce(const RoceSighting& r) {
  PacketPfc out;
  out.priority = r.priority;
  Point& pt = point(r.point);
  if (r.congestion) {
    pt.signalled = true;
    pt.last_signal_ns = r.ts_ns;
  }
  const auto bit = static_cast<uint8_t>(1u << r.priority);
  if (r.data) {
    pt.roce |= bit;
    out.wrong_class_pfc = wrong_class(pt);
    const Hold h = tracker_.on_packet(r.point, r.src, r.dst, r.priority, r.ts_ns, r.frame_len, r.flow);
    out.held = h.held;
    out.unattributed = h.unattributed;
    out.pause_frame = h.pause_frame;  // of the pause it was released from, held or unattributed
    out.stall_ns = h.stall_ns;
  }
  if (r.loss_evidence && !(pfc_anywhere_ & bit) && !(pt.lossy_reported & bit)) {
    pt.lossy_reported |= bit;
    out.lossy_first = true;
  }
  return out;
}

}  // namespace roceshark::pfc
