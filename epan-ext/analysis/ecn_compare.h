// SPDX-License-Identifier: GPL-2.0-or-later
// Hops of one priority compared by their ECN marking
// (docs/multipoint.md#ecn-marking-thresholds). A fabric's queues of one
// class are meant to mark alike; the hop of each priority that marks
// earliest is the reference, and a hop is configured differently when its
// onset is more than the tolerance above the reference's, or when it lets
// ECN-capable packets queue that far beyond the reference's onset without
// marking any (enough of them that the reference would have marked some).
#pragma once
#include <array>
#include <compare>
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "epan-ext/analysis/ecn_threshold.h"

namespace roceshark::hop {

// One hop's queue for one priority.
struct EcnPlace {
  uint32_t from = 0, to = 0;
  uint8_t priority = 0;
  friend auto operator<=>(const EcnPlace&, const EcnPlace&) = default;
};

// A hop's estimate against the reference's: the queueing beyond which its
// unmarked packets are evidence, and whether they make it a mismatch.
struct EcnRule {
  uint64_t tolerance_ns;
  uint64_t limit(const EcnEstimate& ref) const { return ref.onset_ns + tolerance_ns; }
  bool mismatched(const EcnEstimate& here, const EcnEstimate& ref, uint64_t unmarked_beyond) const;
};

struct EcnMismatch {
  EcnPlace place, reference;
  EcnEstimate here, there;
  uint64_t beyond_ns = 0;  // the reference's onset plus the tolerance
  uint64_t unmarked = 0;   // ECN-capable packets queued beyond it here, unmarked
};

using EcnThresholds = std::map<EcnPlace, EcnThreshold>;
std::vector<EcnMismatch> ecn_mismatches(const EcnThresholds& hops, const EcnRule& rule);

// How far apart a fabric's hops of one priority mark, for the health
// baseline: the largest, over priorities, of how much later than the
// earliest-marking hop another hop marks, or (a hop that never marks) how
// far past that onset it let packets queue unmarked (as many as the
// finding needs, EcnThreshold::kMinMarked, not one outlier). Nullopt when no
// priority has a marking hop and another hop with enough packets to judge.
struct EcnSpread {
  uint64_t ns = 0;
  EcnPlace place, reference;
  bool never_marked = false;
};
std::optional<EcnSpread> ecn_spread(const EcnThresholds& hops);

// The engine's side: flags the packets that show a mismatch as they pass,
// from the estimates so far (recomputed as a hop's samples grow by a
// quarter, so a packet costs O(1) amortised).
class EcnWatch {
 public:
  explicit EcnWatch(uint64_t tolerance_ns) : rule_{tolerance_ns} {}
  // One ECN-capable packet's queueing on a hop, marked there or not; true
  // when it is evidence: unmarked, queued beyond another hop's onset plus
  // the tolerance, on a hop whose estimate so far is a mismatch.
  bool add(const EcnPlace& p, uint64_t queue_ns, bool marked);

 private:
  struct Hop {
    EcnThreshold t;
    EcnEstimate e;
    uint64_t next_estimate = EcnThreshold::kMinSamples;
  };
  // The earliest onset of another hop of this priority.
  const EcnEstimate* reference(const EcnPlace& p) const;
  // The two hops of a priority marking earliest, kept as estimates change.
  void rank(uint8_t priority);

  EcnRule rule_;
  std::map<EcnPlace, Hop> hops_;
  std::array<std::array<const std::pair<const EcnPlace, Hop>*, 2>, 8> earliest_{};
};

}  // namespace roceshark::hop
