// SPDX-License-Identifier: GPL-2.0-or-later
// `roceshark events`: the event list as NDJSON (one object a line) or TSV
// (a header line, then a row an event), for grep, jq and awk alike.
#pragma once
#include <vector>

#include "epan-ext/analysis/analysis_facts.h"
#include "epan-ext/common/json_writer.h"
#include "epan-ext/report/event_list.h"

namespace roceshark::events {

enum class Format { ndjson, tsv };

// The TSV columns, which are also the NDJSON keys.
inline constexpr const char* kColumns[] = {"time", "rel_s", "kind", "point", "src", "dst", "qp", "stream",
                                          "priority", "frames", "count", "duration_s", "detail"};

// "2023-11-14T22:13:20.000000590Z": nanoseconds, or microseconds when
// `ns` is false (the capture's stamps carry no more).
std::string iso_time(uint64_t ts_ns, bool ns);

// `list` in time order; `a` names points and flows (null: nothing of ours).
void write(const std::vector<Event>& list, uint64_t start_ns, bool ns, const AnalysisFacts* a, Format f,
           const TextOut& out);

}  // namespace roceshark::events
