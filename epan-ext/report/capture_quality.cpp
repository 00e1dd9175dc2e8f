// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/report/capture_quality.h"

#include <algorithm>
#include <unordered_set>

#include "epan-ext/common/printable.h"
#include "epan-ext/report/findings_builder.h"

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

std::vector<QualityNote> clock_steps(const AnalysisFacts& a) {
  using triage::detail::duration;
  std::vector<QualityNote> out;
  const PointClock& clock = a.clock();
  if (clock.rebased())
    out.push_back({"", "clock_rebased", 1,
                   "the capture is stamped past the year 2116: its first frame is counted as " +
                       duration(PointClock::kRebasedStartNs) + " after 1970 and the rest from there"});
  for (const auto& [point, s] : clock.steps()) {
    const std::string name = a.point_name(point);
    std::string text = name + "'s timestamps went back " + std::to_string(s.back) + (s.back == 1 ? " time" : " times") +
                       " (the longest step " + duration(s.largest_ns) + ", first at frame " +
                       std::to_string(s.first_frame) + ")";
    if (s.stretches)
      text += "; " + std::to_string(s.stretches) + (s.stretches == 1 ? " step" : " steps") + " over " +
              duration(PointClock::kHoldNs) +
              " started a new stretch, laid right after the one before: durations across a step are not known";
    if (s.stretches < s.back) text += "; shorter steps were held at the latest time until the stamps caught up";
    out.push_back({name, "clock_back", s.back, text});
  }
  return out;
}

std::vector<QualityNote> path_order_unmatched(const AnalysisFacts& a) {
  const Config& c = a.config();
  std::string names;
  uint64_t n = 0;
  for (size_t i = 0; i < c.path_order_names.size(); ++i)
    if (i >= c.path_order.size() || c.path_order[i] == UINT32_MAX)
      names += (n++ ? ", " : "") + printable(c.path_order_names[i]);
  if (!n) return {};
  return {{"", "path_order_unmatched", n,
           "roce.path_order names " + names + (n == 1 ? ", which no capture point" : ", which no capture points") +
               " of this capture has: the hops there take their direction from the traffic, not from the "
               "order given; check the names against the points -z roce,hops lists"}};
}

std::vector<QualityNote> names_unmatched(const AnalysisFacts& a) {
  const Config& c = a.config();
  std::unordered_set<std::string> taken;
  for (uint32_t p : a.points()) taken.insert(a.point_name(p));
  std::vector<QualityNote> out;
  auto note = [&](const char* kind, const std::string& pref, std::string list, uint64_t n, const std::string& then) {
    out.push_back({"", kind, n,
                   pref + " gives " + list + (n == 1 ? ", which no capture point" : ", which no capture points") +
                       " of this capture took" + then,
                   true});
  };
  std::string list;
  uint64_t n = 0;
  for (const auto& [key, name] : c.naming.names)
    if (!taken.contains(name)) list += (n++ ? ", " : "") + printable(key) + "=" + printable(name);
  if (n) note("point_names_unmatched", "roce.point_names", list, n, ": check the keys against roce.point_key and the points -z roce,hops lists");
  list.clear(), n = 0;
  for (const auto& [name, gbps] : c.point_gbps_by_name)
    if (!taken.contains(name)) list += (n++ ? ", " : "") + printable(name);
  if (n)
    note("point_link_gbps_unmatched", "roce.point_link_gbps", list, n,
         ": a point meant by one of them, misspelt, is taken at roce.link_gbps (" + std::to_string(uint64_t(c.link_gbps)) + " Gb/s)");
  return out;
}

bool quality_warns(const std::vector<QualityNote>& notes) {
  return std::any_of(notes.begin(), notes.end(), [](const QualityNote& q) { return !q.settings_only; });
}

std::vector<QualityNote> capture_quality(const ReportStats& s, const AnalysisFacts& a) {
  std::vector<QualityNote> out = tap_misses(s.hops, a);
  for (QualityNote& n : clock_steps(a)) out.push_back(std::move(n));
  for (QualityNote& n : path_order_unmatched(a)) out.push_back(std::move(n));
  for (QualityNote& n : names_unmatched(a)) out.push_back(std::move(n));
  return out;
}

}  // namespace roceshark
