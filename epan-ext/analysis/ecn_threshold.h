// SPDX-License-Identifier: GPL-2.0-or-later
// The ECN marking threshold of one hop and priority, as its packets show it
// (docs/multipoint.md#ecn-marking-thresholds): each ECN-capable packet's
// queueing on the hop against whether the hop marked it CE. A switch that
// marks like RED/WRED (DCQCN's Kmin/Kmax) marks nothing below its onset, a
// share that rises with the queue above it, and every packet from its full
// marking point on.
//
// Counts per queueing bucket (the Histogram's, at most 1/32 of their value
// wide), so adding a packet is O(1) and memory is bounded by the largest
// queueing seen. Too few samples or marks give "not enough evidence", never
// a guess.
#pragma once
#include <cstdint>
#include <optional>
#include <vector>

namespace roceshark::hop {

struct EcnEstimate {
  enum class State : uint8_t {
    not_enough,    // fewer than kMinSamples packets, or marks but fewer than kMinMarked on the ramp or past it
    never_marked,  // enough packets, none marked here
    marks,         // onset_ns (and full_ns when seen) estimated
  };
  State state = State::not_enough;
  uint64_t samples = 0, marked = 0;
  uint64_t ramp_marked = 0;         // marked below the full point: what places the onset
  uint64_t max_unmarked_ns = 0;     // the largest queueing seen with no mark
  uint64_t onset_ns = 0;            // marks: where marking starts (Kmin-like)
  std::optional<uint64_t> full_ns;  // marks: every packet queued above it was marked (Kmax-like), if marks went past it
};

// "not enough evidence", "never marked", "marks": the views print it as it is.
const char* state_name(EcnEstimate::State s);

class EcnThreshold {
 public:
  static constexpr uint64_t kMinSamples = 50;
  static constexpr uint64_t kMinMarked = 20;

  void add(uint64_t queue_ns, bool marked);
  EcnEstimate estimate() const;
  uint64_t samples() const { return samples_; }
  // Unmarked packets queued in the buckets above the one holding `ns`: at
  // least that many queued beyond it.
  uint64_t unmarked_above(uint64_t ns) const;
  // The queueing at least `n` unmarked packets reached (their bucket's
  // lower edge, so within 1/32 below), or 0 when fewer were unmarked.
  uint64_t unmarked_depth(uint64_t n) const;

 private:
  std::vector<uint32_t> all_, marked_;  // per Histogram bucket, grown to the highest used
  uint64_t samples_ = 0, marks_ = 0, max_unmarked_ns_ = 0;
  bool any_unmarked_ = false;
};

// Queueing as bytes in a queue drained at `gbps`.
inline uint64_t queue_bytes(uint64_t ns, double gbps) { return static_cast<uint64_t>(static_cast<double>(ns) * gbps / 8.0 + 0.5); }

}  // namespace roceshark::hop
