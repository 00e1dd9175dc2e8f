// SPDX-License-Identifier: GPL-2.0-or-later
#include <epan/addr_resolv.h>

#include <memory>
#include <string>

#include "plugins/roce.h"

namespace roceshark::glue {
namespace {
// A MAC's name as Wireshark resolves it (-N m, -n; the personal and global
// ethers files, the manufacturer database): "" when resolution is off or
// knows no name (get_ether_name then gives the MAC itself).
std::string ether_name(const Mac& m) {
  const char* name = get_ether_name(m.data());
  if (!name) return {};
  std::string s = name;
  return s == mac_to_string(m) ? std::string() : s;
}

// The engine and the sink it emits to: the log later passes and taps read.
struct Session {
  explicit Session(const Config& cfg) : analyzer(cfg, &events) { analyzer.name_macs(ether_name); }
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
