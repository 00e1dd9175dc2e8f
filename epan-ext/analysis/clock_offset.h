// SPDX-License-Identifier: GPL-2.0-or-later
// Clock offsets between capture points, from traffic seen both ways
// (NTP-style minimum delay). For points p and q and a connection whose
// packets cross p then q in one direction and q then p in the other, with
// d = t_q - t_p in raw timestamps:
//   one way:   d = latency + offset   >= offset
//   other way: d = -latency' + offset <= offset
// so the offset lies between the other way's largest d and this way's
// smallest; the estimate is the middle, the uncertainty half the width.
// The same two directions also say which point is upstream, clocks or not.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "epan-ext/common/config.h"

namespace roceshark::hop {

class ClockEstimator {
 public:
  explicit ClockEstimator(const Config& cfg) : cfg_(cfg) {}

  // A transmission of `flow` seen at points a and b (a != b), raw times.
  // True the first time the pair's bounds exclude zero: traffic both ways
  // proves their clocks differ, whatever the hop latencies.
  bool observe(uint32_t a, uint64_t ta_ns, uint32_t b, uint64_t tb_ns, uint32_t flow, uint32_t reverse);
  // +1: `up` is upstream of `down` for `flow`; -1: the other way round; 0: not known from traffic.
  int order(uint32_t up, uint32_t down, uint32_t flow) const;
  // The offset of `point`'s clock from the reference point's (the lowest point id), or 0 when unknown.
  int64_t offset(uint32_t point) const;

  struct Estimate {
    uint32_t a, b;            // b's clock minus a's
    int64_t offset_ns;
    int64_t uncertainty_ns;
    uint64_t samples;
    bool proven() const { return offset_ns - uncertainty_ns > 0 || offset_ns + uncertainty_ns < 0; }
  };
  std::vector<Estimate> estimates() const;
  std::optional<Estimate> estimate(uint32_t a, uint32_t b) const;

 private:
  struct Spread {
    int64_t min = INT64_MAX, max = INT64_MIN;
    uint64_t n = 0;
  };
  struct Pair {
    std::map<uint32_t, Spread> by_flow;  // d = t_q - t_p for p < q
    int64_t lo = INT64_MIN, hi = INT64_MAX;  // the offset's bounds so far
    uint64_t samples = 0;
    bool proven = false;  // the bounds once excluded zero
  };
  static uint64_t key(uint32_t p, uint32_t q) { return uint64_t{p} << 32 | q; }
  const Pair* pair(uint32_t a, uint32_t b) const;

  const Config& cfg_;
  std::map<uint64_t, Pair> pairs_;                  // p < q
  std::map<uint32_t, uint32_t> reverse_of_;         // flow -> reverse flow
  uint32_t reference_ = UINT32_MAX;
};

}  // namespace roceshark::hop
