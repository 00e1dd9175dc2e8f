// SPDX-License-Identifier: GPL-2.0-or-later
// When a finding's evidence was seen: the analysis' time of its first and
// last frame (docs/triage.md, "When").
#pragma once
#include <algorithm>
#include <cstdint>

namespace roceshark::triage {

struct TimeSpan {
  uint64_t first_ns = UINT64_MAX, last_ns = 0;
  bool empty() const { return first_ns > last_ns; }
  void add(uint64_t first, uint64_t last) {
    first_ns = std::min(first_ns, first);
    last_ns = std::max(last_ns, last);
  }
  void add(uint64_t ns) { add(ns, ns); }
  void add(const TimeSpan& s) {
    if (!s.empty()) add(s.first_ns, s.last_ns);
  }
};

// `t` from `origin` (the capture's start), 0 before it.
inline uint64_t since(uint64_t t, uint64_t origin) { return t - std::min(t, origin); }

}  // namespace roceshark::triage
