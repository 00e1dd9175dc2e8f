// SPDX-License-Identifier: GPL-2.0-or-later
// The text of `tshark -q -z roce,qp[,filter]`.
#pragma once
#include <string>

#include "epan-ext/report/qp_stats.h"

namespace roceshark {

std::string format_qp_report(const QpStats& stats, const std::string& filter);

}  // namespace roceshark
