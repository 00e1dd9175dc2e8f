// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/report/capture_quality.h"

namespace roceshark {

std::vector<QualityNote> tap_misses(const hop::HopStats& s, const AnalysisFacts& a) {
  std::vector<QualityNote> out;
  for (const auto& [point, n] : s.missed()) {
    const std::string name = a.point_name(point);
    out.push_back({name, "tap_missed_copies", n,
                   name + "'s tap missed " + std::to_string(n) + (n == 1 ? " copy" : " copies") +
                       " that the responder acknowledged and nobody resent: not a network loss, but its "
                       "counts are lower bounds"});
  }
  return out;
}

std::vector<QualityNote> capture_quality(const ReportStats& s, const AnalysisFacts& a) { return tap_misses(s.hops, a); }

}  // namespace roceshark
