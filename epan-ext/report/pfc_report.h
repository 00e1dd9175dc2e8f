// SPDX-License-Identifier: GPL-2.0-or-later
// The text of `tshark -q -z roce,pfc[,filter]`.
#pragma once
#include <string>

#include "epan-ext/analysis/analysis_facts.h"
#include "epan-ext/report/pfc_stats.h"

namespace roceshark::pfc {

std::string format_pfc_report(const PfcStats& stats, const AnalysisFacts& a, const std::string& filter);

}  // namespace roceshark::pfc
