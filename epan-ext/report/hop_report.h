// SPDX-License-Identifier: GPL-2.0-or-later
// The text of `tshark -q -z roce,hops[,filter]`.
#pragma once
#include <string>

#include "epan-ext/report/hop_stats.h"

namespace roceshark::hop {

std::string format_hop_report(const HopStats& stats, const std::string& filter);

}  // namespace roceshark::hop
