// SPDX-License-Identifier: GPL-2.0-or-later
// The report as Prometheus metric families (docs/monitoring.md): a view
// like the others, of plain data, which `roceshark monitor` hands to the
// Prometheus client library to serve or write. Counts are the report's;
// names follow Prometheus' conventions (roceshark_ prefix, base units,
// _total on counters); labels are points, hops, priorities, checks and
// severities, never QPs or hosts, which change with every job.
#pragma once
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "epan-ext/report/report_stats.h"
#include "epan-ext/report/triage.h"

namespace roceshark::metrics {

enum class Type : uint8_t { counter, gauge, histogram };

using Labels = std::vector<std::pair<std::string, std::string>>;

struct Sample {
  Labels labels;
  double value = 0;  // counters and gauges
  // Histograms: counts at or below each of kLatencyBounds, their sum and count.
  std::vector<uint64_t> buckets;
  double sum = 0;
  uint64_t count = 0;
};

struct Family {
  std::string name, help;
  Type type = Type::gauge;
  std::vector<Sample> samples;
};

// roceshark_hop_latency_seconds' bucket bounds, in seconds.
inline constexpr double kLatencyBounds[] = {1e-6, 2e-6, 5e-6, 1e-5, 2e-5, 5e-5, 1e-4, 2e-4, 5e-4, 1e-3, 1e-2};

// The families of one report: counters of its counts, gauges of its health.
std::vector<Family> collect(const ReportStats& s, const AnalysisFacts& a, const triage::Triage& t);

// The health verdict as roceshark_health_status' label: pass, warn, fail, incomplete, no_data.
const char* verdict_label(triage::Grade g);

}  // namespace roceshark::metrics
