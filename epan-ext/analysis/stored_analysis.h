// SPDX-License-Identifier: GPL-2.0-or-later
// An Analyzer that also keeps every result by frame, for front ends that
// show a frame again after the first pass (Wireshark's GUI and `tshark -2`
// read them back with find()). It costs about 40 bytes a RoCE frame, and
// as much again for a copy matched at a second point (verdict_store.h); a
// streaming front end uses the Analyzer alone and keeps none.
#pragma once
#include <cstdint>
#include <deque>
#include <optional>
#include <span>
#include <unordered_map>
#include <vector>

#include "epan-ext/analysis/analyzer.h"
#include "epan-ext/analysis/verdict_store.h"

namespace roceshark {

class StoredAnalysis : public Analyzer {
 public:
  using Analyzer::Analyzer;

  // The first pass: each frame is analysed once; given again (a frame
  // dissected twice), it gets its kept result.
  Verdict process(const PacketInfo& p);
  const pfc::PauseVerdict& process(const pfc::PauseFrame& f);
  const qos::DcbxVerdict& process(uint32_t frame, uint64_t ts_ns, const qos::DcbxAnnouncement& a);
  const icmp::Verdict& process(const icmp::TooBig& m);
  // Cross traffic leaves no result of its own (a copy seen twice at one point is ignored).
  void process(const CrossPacket& c) { Analyzer::process(c); }

  std::optional<Verdict> find(uint32_t frame) const;
  const pfc::PauseVerdict* find_pause(uint32_t frame) const;
  const qos::DcbxVerdict* find_dcbx(uint32_t frame) const;
  const icmp::Verdict* find_icmp(uint32_t frame) const;
  std::optional<hop::HopVerdict> find_hop(uint32_t frame) const { return hops_.find(frame); }
  std::span<const uint64_t> rtt_samples(const Verdict& v) const {
    return std::span(rtt_samples_).subspan(v.rtt_first, v.covered);
  }
  // The ICRC a packet with a bad one should have carried.
  std::optional<uint32_t> icrc_expected(uint32_t frame) const;
  // The analysis' time of a frame analysed before, stamped `ts_ns`: the
  // stamp unless the stamps ran backwards (point_clock.h).
  uint64_t analysis_ts(uint32_t frame, uint64_t ts_ns) const;

 private:
  // In frame order; deques never move what they hold.
  VerdictStore verdicts_;
  HopStore hops_;
  std::deque<pfc::PauseVerdict> pauses_;
  std::deque<qos::DcbxVerdict> dcbx_;
  std::deque<icmp::Verdict> icmp_;
  std::vector<uint64_t> rtt_samples_;
  std::unordered_map<uint32_t, uint32_t> icrc_expected_;  // bad ICRCs only
  std::unordered_map<uint32_t, uint64_t> retimed_;  // frames whose analysis' time is not their stamp
  void retime(uint32_t frame, uint64_t ts_ns) {
    if (latest_ts() != ts_ns) retimed_[frame] = latest_ts();
  }
};

}  // namespace roceshark
