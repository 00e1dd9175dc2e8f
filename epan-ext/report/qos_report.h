// SPDX-License-Identifier: GPL-2.0-or-later
// The text of `tshark -q -z roce,qos[,filter]`: the policy in force, the
// marking each flow used at each point, the violations per check, and DCBX.
#pragma once
#include <string>

#include "epan-ext/analysis/analysis_facts.h"
#include "epan-ext/analysis/qos_checker.h"
#include "epan-ext/common/qos_policy.h"
#include "epan-ext/report/qos_stats.h"

namespace roceshark::qos {

// `policy` is the one in force (Checker::policy()); `learned` is only read
// when policy.mode is learned; `names` names the DCBX ports' MACs.
std::string format_qos_report(const QosStats& stats, const Policy& policy, const Checker::Learned& learned,
                              const std::string& filter, const AnalysisFacts& names = no_facts());

// "26:1200 0:3"; PCP as "3:1200 untagged:3", ECN as "ECT(0):1200 Not-ECT:3"; "-" when empty.
enum class ValueKind : uint8_t { number, pcp, ecn };
std::string format_counts(const ValueCounts& c, ValueKind kind);
// "req:17 resp:4 cnp:2": the roles a row's packets had.
std::string format_roles(const QosRow& r);
// The field that marks a check's failing packets: roce.qos.dscp_not_lossless.
std::string check_field(Check c);

}  // namespace roceshark::qos
