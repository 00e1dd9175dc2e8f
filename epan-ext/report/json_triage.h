// SPDX-License-Identifier: GPL-2.0-or-later
// The `triage` section of the JSON report: findings, health, the per-QP
// timeline and the summary (docs/report-schema.json).
#pragma once
#include "epan-ext/common/json_writer.h"
#include "epan-ext/report/triage.h"

namespace roceshark::triage {

void write_triage(JsonWriter& w, const Triage& t, const ReportStats& s, const AnalysisFacts& a);

}  // namespace roceshark::triage
