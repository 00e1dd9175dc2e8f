// SPDX-License-Identifier: GPL-2.0-or-later
#include "cli/capture_set.h"

#include <algorithm>
#include <cstdlib>
#include <exception>
#include <string_view>

namespace roceshark::cli {

CaptureSet::CaptureSet(const std::vector<std::string>& paths) {
  // ROCESHARK_READER=wiretap: every file through libwiretap, for a user who
  // suspects the mapped reader (and for the tests that compare the two).
  const char* env = std::getenv("ROCESHARK_READER");
  const auto how = env && std::string_view(env) == "wiretap" ? CaptureReader::Reading::wiretap_only
                                                             : CaptureReader::Reading::mapped_if_possible;
  uint32_t first = 0;
  for (const std::string& path : paths) {
    Source& s = sources_.emplace_back();
    s.reader = std::make_unique<CaptureReader>(path, how);
    s.first = first;
    s.count = s.reader->interfaces();
    first += s.count;
  }
  next_late_ = first;
}

void CaptureSet::refill(Source& s) {
  if (s.ended) return;
  try {
    s.has = s.reader->next(s.pending);
  } catch (const std::exception& e) {
    errors_.emplace_back(e.what());
    s.has = false;
  }
  s.ended = !s.has;
}

bool CaptureSet::next(Record& r) {
  // Every source holds its next record, except the one returned last time:
  // its bytes stayed valid until now.
  for (size_t i = 0; i < sources_.size(); ++i)
    if (!sources_[i].has || i == last_) refill(sources_[i]);
  size_t best = SIZE_MAX;
  for (size_t i = 0; i < sources_.size(); ++i)
    if (sources_[i].has && (best == SIZE_MAX || sources_[i].pending.ts_ns < sources_[best].pending.ts_ns)) best = i;
  last_ = best;
  if (best == SIZE_MAX) return false;
  r = sources_[best].pending;
  r.interface = point_of(best, r.interface);
  return true;
}

uint32_t CaptureSet::point_of(size_t source, uint32_t interface) {
  const Source& s = sources_[source];
  if (interface < s.count || sources_.size() == 1) return s.first + interface;
  const uint64_t key = uint64_t(source) << 32 | interface;
  const auto [it, added] = late_.try_emplace(key, next_late_);
  if (added) late_points_.emplace(next_late_++, key);
  return it->second;
}

RecordSource::Position CaptureSet::position() {
  Position p;
  for (const Source& s : sources_) {
    if (!s.reader->size()) return {};
    p.total += s.reader->size();
    p.done += s.ended ? s.reader->size() : std::min(s.reader->read_so_far(), s.reader->size());
  }
  return p;
}

const char* CaptureSet::interface_name(uint32_t point) {
  if (const auto it = late_points_.find(point); it != late_points_.end())
    return sources_[it->second >> 32].reader->interface_name(uint32_t(it->second));
  for (size_t i = sources_.size(); i-- > 0;)
    if (point >= sources_[i].first) return sources_[i].reader->interface_name(point - sources_[i].first);
  return "unknown";
}

}  // namespace roceshark::cli
