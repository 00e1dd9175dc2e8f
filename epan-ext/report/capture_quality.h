// SPDX-License-Identifier: GPL-2.0-or-later
// What the capture itself got wrong, said once beside the findings: not the
// network's doing, but it bounds how far the figures can be trusted
// (docs/analysis.md, "Time that runs backwards").
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "epan-ext/analysis/analysis_facts.h"

namespace roceshark::triage {

struct QualityNote {
  std::string point;  // the capture point's name; empty: the whole capture
  std::string kind;   // clock_back, clock_rebased
  uint64_t count = 0;
  std::string text;
};

std::vector<QualityNote> capture_quality(const AnalysisFacts& a);

}  // namespace roceshark::triage
