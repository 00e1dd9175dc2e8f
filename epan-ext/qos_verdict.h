// SPDX-License-Identifier: GPL-2.0-or-later
// What the QoS checks concluded about one RoCE packet (stored in Verdict).
#pragma once
#include <cstddef>
#include <cstdint>

namespace roceshark::qos {

// The checks, in filter-name order: roce.qos.<name>.
enum class Check : uint8_t { dscp_not_lossless, pcp_mismatch, ecn_not_capable, cnp_class, inconsistent_marking };
inline constexpr size_t kChecks = 5;
constexpr uint8_t bit(Check c) { return static_cast<uint8_t>(1u << static_cast<unsigned>(c)); }
const char* check_name(Check c);  // "dscp_not_lossless", ...

struct QosVerdict {
  uint8_t failed = 0;           // bit(Check) for every check this packet fails
  uint8_t first = 0;            // the failures that start a (flow, check, point): they get the expert info
  uint8_t priority = 0;         // the priority the fabric gives the packet under the trust mode
  bool pcp_skipped = false;     // untagged: the PCP check does not apply
  bool learning = false;        // learned mode, too few packets to judge yet
};

}  // namespace roceshark::qos
