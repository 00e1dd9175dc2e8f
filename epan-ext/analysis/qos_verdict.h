// SPDX-License-Identifier: GPL-2.0-or-later
// What the QoS checks concluded about one RoCE packet (stored in Verdict).
#pragma once
#include <cstddef>
#include <cstdint>
#include <iterator>

#include "epan-ext/common/checks.h"

namespace roceshark::qos {

// The checks, as bits of a verdict. Their names, fields and expert infos
// are their catalogue rows' (kind_of).
enum class Check : uint8_t { dscp_not_lossless, pcp_mismatch, ecn_not_capable, cnp_class, inconsistent_marking };
inline constexpr checks::Kind kCheckKinds[] = {checks::kind("dscp_not_lossless"), checks::kind("pcp_mismatch"),
                                               checks::kind("ecn_not_capable"), checks::kind("cnp_class"),
                                               checks::kind("inconsistent_marking")};
inline constexpr size_t kChecks = std::size(kCheckKinds);
constexpr checks::Kind kind_of(Check c) { return kCheckKinds[static_cast<size_t>(c)]; }
constexpr uint8_t bit(Check c) { return static_cast<uint8_t>(1u << static_cast<unsigned>(c)); }
inline const char* check_name(Check c) { return checks::kind_name(kind_of(c)); }  // "dscp_not_lossless", ...

struct QosVerdict {
  uint8_t failed = 0;           // bit(Check) for every check this packet fails
  uint8_t first = 0;            // the failures that start a (flow, check, point): they get the expert info
  uint8_t priority = 0;         // the priority the fabric gives the packet under the trust mode
  bool pcp_skipped = false;     // untagged: the PCP check does not apply
  bool learning = false;        // learned mode, too few packets to judge yet
  bool operator==(const QosVerdict&) const = default;
};

}  // namespace roceshark::qos
