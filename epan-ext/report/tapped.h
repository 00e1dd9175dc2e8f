// SPDX-License-Identifier: GPL-2.0-or-later
// What one listener on the roce tap has gathered: its statistics, the
// frames its filter selected, and the engine and event log they came from.
// Every view (-z roce,..., the GUI triage window) keeps one, so that every
// view counts the events learned after their frames were tapped the same
// way: only if the filter selected those frames (docs/multipoint.md).
#pragma once
#include "epan-ext/report/frame_set.h"
#include "epan-ext/analysis/tap_record.h"

namespace roceshark {

template <typename Stats>
struct Tapped {
  Stats stats;
  FrameSet selected;
  const AnalysisFacts* facts = nullptr;  // null until a record came: a file with nothing of ours
  const EventLog* events = nullptr;

  void add(const TapRecord& r) {
    facts = r.facts;
    events = r.events;
    selected.add(r.frame());
    stats.add(r);
  }
  // Before rendering: the engine's end-of-capture events, then the log.
  void settle() {
    if constexpr (requires { stats.settle(*events, selected); }) {
      if (facts) facts->finish();
      if (events) stats.settle(*events, selected);
    }
  }
  void clear() { *this = {}; }  // a new file gets a new engine and log
};

}  // namespace roceshark
