// SPDX-License-Identifier: GPL-2.0-or-later
// The QoS policy RoCE traffic is checked against: how the fabric maps a
// packet's marking to a priority, which priorities are lossless (PFC), and
// how CNPs are marked. The defaults are the common NVIDIA/Mellanox lossless
// setup: RoCE DSCP 26 -> priority 3 (lossless), CNP DSCP 48 -> priority 6,
// "trust dscp" with its default map DSCP >> 3.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace roceshark::qos {

// Which marking the switch ports classify on.
enum class Trust : uint8_t { dscp, pcp };
// Check against the configured policy, or against the dominant marking of the capture.
enum class Mode : uint8_t { configured, learned };

inline constexpr uint8_t kRoceDscp = 26, kRocePriority = 3, kCnpDscp = 48, kCnpPriority = 6;

// The "trust dscp" default map: the DSCP's class selector bits.
constexpr std::array<uint8_t, 64> default_dscp_map() {
  std::array<uint8_t, 64> m{};
  for (size_t d = 0; d < m.size(); ++d) m[d] = static_cast<uint8_t>(d >> 3);
  return m;
}

constexpr uint8_t priority_bit(uint8_t priority) { return static_cast<uint8_t>(1u << (priority & 7u)); }

struct Policy {
  std::array<uint8_t, 64> dscp_priority = default_dscp_map();  // DSCP -> priority
  uint8_t lossless_mask = priority_bit(kRocePriority);          // bit p set: priority p is lossless
  uint8_t cnp_dscp = kCnpDscp;
  uint8_t cnp_priority = kCnpPriority;
  Trust trust = Trust::dscp;
  bool expect_ecn = true;  // RoCE data must be ECT(0)/ECT(1) (DCQCN on)
  Mode mode = Mode::configured;

  static Policy defaults() { return {}; }
  // The priority the fabric gives a packet: trust dscp -> map[dscp]; trust
  // pcp -> the PCP when tagged (pcp >= 0), else 0 (the port default).
  uint8_t priority_of(uint8_t dscp, int pcp) const;
  bool lossless(uint8_t priority) const { return priority < 8 && (lossless_mask >> priority & 1u); }
  bool operator==(const Policy&) const = default;
};

// Preference parsers. On bad input they return nullopt and set `error` to a
// sentence a user understands (it reaches Wireshark's preference dialog or
// tshark's -o error): bad input is never replaced by a default.
//
// "26:3,48:6": DSCP:priority overrides on top of DSCP >> 3; spaces allowed
// around every number; empty (or blank) = the default map.
std::optional<std::array<uint8_t, 64>> parse_dscp_map(std::string_view text, std::string& error);
// "3" or "0,3" -> bitmask; each 0..7, at least one, none twice.
std::optional<uint8_t> parse_priorities(std::string_view text, std::string& error);
// "dscp" | "pcp" (case-insensitive).
// "configured" | "learned" (case-insensitive).

// Only the entries that differ from DSCP >> 3, in DSCP order ("" or "10:0,26:4");
// parse_dscp_map reads it back to the same map.
std::string format_dscp_map(const std::array<uint8_t, 64>& map);
std::string format_priorities(uint8_t mask);  // "0,3"; "" for none
const char* trust_name(Trust t);              // "dscp", "pcp"
const char* mode_name(Mode m);                // "configured", "learned"

}  // namespace roceshark::qos
