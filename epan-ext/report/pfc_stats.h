// SPDX-License-Identifier: GPL-2.0-or-later
// `-z roce,pfc` aggregation, fed by the `roce` tap. Frame counts and QP
// stalls come from the tapped frames; pause time, longest pause and storms
// from the engine's episodes, and propagations, settled at draw time: each
// counts only if the filter selected its frame (an episode's first, the
// frame that found a propagation), so a filter applies to all of them.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <unordered_map>
#include <vector>

#include "epan-ext/analysis/event_log.h"
#include "epan-ext/report/frame_set.h"
#include "epan-ext/analysis/tap_record.h"

namespace roceshark::pfc {

struct StalledQp {
  uint64_t held_packets = 0;
  uint64_t stall_ns = 0;
};

struct PfcRow {
  uint32_t point = 0;
  Mac mac{};
  uint8_t priority = 0;
  uint64_t frames = 0, xoff = 0, xon = 0;
  uint64_t no_ecn = 0;       // pauses that started with no ECN-CE or CNP before them
  uint64_t propagated = 0;   // pauses that followed a storm at another point
  bool wrong_class = false;
  uint64_t unattributed = 0;  // packets released after its pauses whose sides point both ways
  std::map<uint32_t, StalledQp> qps;  // by request flow
};

// One row's pause episodes summed, as every view shows them.
struct PauseSummary {
  uint64_t paused_ns = 0, longest_ns = 0, storms = 0, chatter = 0;
};

class PfcStats {
 public:
  void add(const TapRecord& r);
  void clear() { *this = PfcStats{}; }
  using Key = std::tuple<uint32_t, Mac, uint8_t>;
  const std::map<Key, PfcRow>& rows() const { return rows_; }
  uint64_t span_ns() const { return seen_ ? last_ns_ - first_ns_ : 0; }
  uint64_t first_ns() const { return first_ns_; }
  uint64_t bad_frames() const { return bad_frames_; }
  uint64_t lossy_findings() const { return lossy_; }
  // PFC frames past each limit: not analysed.
  const LimitCounts& beyond() const { return beyond_; }
  // Takes in the log's episodes and propagations.
  void settle(const EventLog& log, const FrameSet& selected);
  // Pause episodes by row, in time order.
  const std::map<Key, std::vector<Episode>>& episodes() const { return episodes_; }
  PauseSummary summary(const Key& k) const;
  const std::vector<Propagation>& propagations() const { return propagations_; }

 private:
  std::map<Key, PfcRow> rows_;
  std::unordered_map<uint32_t, Key> by_frame_;  // PFC frame -> its row, for the packets it held
  bool seen_ = false;
  uint64_t first_ns_ = 0, last_ns_ = 0;
  uint64_t bad_frames_ = 0;  // reserved bits, odd destination or truncated
  uint64_t lossy_ = 0;
  LimitCounts beyond_{};
  std::map<Key, std::vector<Episode>> episodes_;
  std::vector<Propagation> propagations_;
};

}  // namespace roceshark::pfc
