// SPDX-License-Identifier: GPL-2.0-or-later
// `roceshark monitor --baseline N`: each link's normal range, learned from
// the first N windows (or loaded from a saved baseline), and how far a
// window's value left it (docs/monitoring.md, "The baseline"). A window's
// values are its own: the growth of the counters in it, per point, hop or
// point and priority.
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "epan-ext/report/metrics.h"

namespace roceshark::monitor {

// One metric of one link in one window.
struct WindowValue {
  std::string metric;  // loss, hop_latency, paused, ce, pfc_rate
  metrics::Labels labels;
  double value = 0;
};

// The window's values, from the carried families at its end (`now`) and at
// the window before. A link with nothing to measure in the window (no
// requests, no matched packet) has no value.
std::vector<WindowValue> window_values(const std::vector<metrics::Family>& now,
                                       const std::vector<metrics::Family>& before, double window_s);

struct Range {
  double low = 0, high = 0;
  double width = 0;  // what one unit of deviation is: the learned spread, at least the metric's floor
};

// A window value outside its range.
struct Drift {
  WindowValue v;
  Range range;
  double deviation = 0;  // ranges beyond: positive above `high`, negative below `low`
};

class Baseline {
 public:
  explicit Baseline(uint64_t windows = 0) : to_learn_(windows) {}
  bool learning() const { return to_learn_ > 0; }
  bool empty() const { return ranges_.empty(); }
  // A learning window widens the ranges; the last one fixes them.
  void learn(const std::vector<WindowValue>& values);
  void set(const std::string& metric, const metrics::Labels& labels, Range r) { ranges_[{metric, labels}] = r; }
  const std::map<std::pair<std::string, metrics::Labels>, Range>& ranges() const { return ranges_; }

  // Each value's deviation, for roceshark_baseline_deviation, and those
  // outside their range. Links the baseline never saw are not judged.
  metrics::Family deviations(const std::vector<WindowValue>& values, std::vector<Drift>& drifts) const;

  // {"schema":"roceshark-baseline","version":1,"ranges":[...]}: the file --save-baseline writes.
  std::string to_json() const;

 private:
  uint64_t to_learn_;
  std::map<std::pair<std::string, metrics::Labels>, Range> ranges_;
};

// "loss at leaf-1: 0.12 % (normal 0-0.001 %, 4.1 ranges above)"
std::string drift_text(const Drift& d);

}  // namespace roceshark::monitor
