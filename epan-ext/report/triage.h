// SPDX-License-Identifier: GPL-2.0-or-later
// `tshark -q -z roce,triage[,filter]`: the ranked findings, the health
// baseline and a one-paragraph summary (docs/triage.md). The same triage
// is the `triage` section of `-z roce,report`.
#pragma once
#include <string>

#include "epan-ext/report/health.h"

namespace roceshark::triage {

struct Triage {
  Findings findings;
  Health health;
  std::string summary;
};

Triage make_triage(const ReportStats& s, const AnalysisFacts& a);

}  // namespace roceshark::triage

namespace roceshark {
// `a` is null when the file had nothing the engine looks at.
std::string format_triage_report(const ReportStats& s, const AnalysisFacts* a, const std::string& filter);
// The same text, of a triage already made.
std::string format_triage(const triage::Triage& t, const std::string& filter);
}  // namespace roceshark
