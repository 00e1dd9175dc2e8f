// SPDX-License-Identifier: GPL-2.0-or-later
#include <memory>

#include "plugins/roce.h"

namespace roceshark::glue {
namespace {
// The engine and the sink it emits to: the log later passes and taps read.
struct Session {
  explicit Session(const Config& cfg) : analyzer(cfg, &events) {}
  EventLog events;
  StoredAnalysis analyzer;  // later passes and the GUI show frames again
};
std::unique_ptr<Session> current;
}  // namespace

StoredAnalysis& session() {
  if (!current) current = std::make_unique<Session>(Config{});
  return current->analyzer;
}

const EventLog& session_events() {
  session();
  return current->events;
}

void session_reset(const Config& cfg) {
  current = std::make_unique<Session>(cfg);
}

void session_drop() { current.reset(); }

}  // namespace roceshark::glue
