// SPDX-License-Identifier: GPL-2.0-or-later
// The limits that bound the analysis's memory on hostile captures
// (docs/analysis.md, "Limits"). A frame past one is counted, flagged once
// and not analysed; reports say which limit was reached and the health
// verdict is INCOMPLETE.
#pragma once
#include <array>
#include <cstddef>
#include <cstdint>
#include <string_view>
#include <utility>

#include "epan-ext/common/config.h"

namespace roceshark {

enum class LimitKind : uint8_t { none, flows, points, flow_points, pfc_ports };
inline constexpr size_t kLimitKinds = 5;

struct LimitInfo {
  std::string_view name;        // report's `limits[].name`
  std::string_view preference;  // roce.*
  std::string_view beyond;      // what was not analysed: "RoCE packet(s) of further flows"
};

inline const LimitInfo& limit_info(LimitKind k) {
  static constexpr std::array<LimitInfo, kLimitKinds> kInfo = {{
      {"", "", ""},
      {"max_flows", "roce.max_flows", "RoCE packet(s) of further flows"},
      {"max_points", "roce.max_points", "RoCE and PFC frame(s) at further capture points"},
      {"max_flow_points", "roce.max_flow_points", "RoCE packet(s) of further (flow, capture point) pairs"},
      {"max_pfc_ports", "roce.max_pfc_ports", "PFC frame(s) from further pausing ports"},
  }};
  return kInfo[static_cast<size_t>(k)];
}

inline uint64_t limit_value(const Config& c, LimitKind k) {
  switch (k) {
    case LimitKind::none: return 0;
    case LimitKind::flows: return c.max_flows;
    case LimitKind::points: return c.max_points;
    case LimitKind::flow_points: return c.max_flow_points;
    case LimitKind::pfc_ports: return c.max_pfc_ports;
  }
  return 0;
}

// Frames past each limit.
using LimitCounts = std::array<uint64_t, kLimitKinds>;

// Frames past each limit, and which have had their first one flagged.
class LimitNotes {
 public:
  // A frame past `k`: whether it is the first.
  bool first(LimitKind k) {
    ++counts_[static_cast<size_t>(k)];
    return !std::exchange(noted_[static_cast<size_t>(k)], true);
  }
  const LimitCounts& counts() const { return counts_; }

 private:
  std::array<bool, kLimitKinds> noted_{};
  LimitCounts counts_{};
};

// Internal caps (docs/analysis.md, "Internal caps"): fixed bounds, with no
// preference, on the few structures a hostile capture could otherwise grow
// and whose overflow can change a verdict. Reached, a cap is a limit as the
// ones above are: reports list it and the health verdict is INCOMPLETE.
enum class Cap : uint8_t { dcbx, pause_windows, copies, suspects, nak_resends };
inline constexpr size_t kCaps = 5;

struct CapInfo {
  std::string_view name;  // report's `limits[].name`
  uint64_t value;         // the cap
  std::string_view what;  // "distinct DCBX announcements kept"
  std::string_view past;  // what passing it did
};

inline constexpr std::array<CapInfo, kCaps> kCapInfo = {{
    {"cap_dcbx", 1024, "distinct DCBX announcements kept",
     "announcements past it that had findings were not judged in the triage"},
    {"cap_pause_windows", 64, "live pause windows per (point, priority)",
     "the oldest window was dropped before every packet it held was attributed to it"},
    {"cap_copies", 16, "copies of one packet matched across points",
     "further copies of a packet were not matched across points"},
    {"cap_suspects", 64, "losses per flow that an ACK may yet prove tap misses",
     "the oldest stayed a loss, unchecked against the ACKs that could prove it a tap miss"},
    {"cap_nak_resends", 65536, "resends kept for a NAK taken back",
     "a NAK taken back found its resends let go, so they still count as loss signs"},
}};
constexpr const CapInfo& cap_info(Cap c) { return kCapInfo[static_cast<size_t>(c)]; }

// How often each cap was passed.
using CapCounts = std::array<uint64_t, kCaps>;

}  // namespace roceshark
