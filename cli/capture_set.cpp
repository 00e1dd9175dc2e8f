// SPDX-License-Identifier: GPL-2.0-or-later
#include "cli/capture_set.h"

#include <algorithm>
#include <cstdlib>
#include <string_view>

namespace roceshark::cli {

CaptureSet::CaptureSet(const std::vector<std::string>& paths, Joining how) {
  // ROCESHARK_READER=wiretap: every file through libwiretap, for a user who
  // suspects the mapped reader (and for the tests that compare the two).
  const char* env = std::getenv("ROCESHARK_READER");
  const auto reading = env && std::string_view(env) == "wiretap" ? CaptureReader::Reading::wiretap_only
                                                                 : CaptureReader::Reading::mapped_if_possible;
  std::vector<std::unique_ptr<CaptureReader>> readers;
  for (const std::string& path : paths) readers.push_back(std::make_unique<CaptureReader>(path, reading));
  files_ = std::make_unique<FileMerge<CaptureReader, Record>>(std::move(readers), how);
}

bool CaptureSet::next(Record& r) {
  const Record* got = files_->next();
  if (got) r = *got;
  return got;
}

RecordSource::Position CaptureSet::position() {
  Position p;
  for (size_t i = 0; i < files_->size(); ++i) {
    CaptureReader& f = files_->source(i);
    if (!f.size()) return {};
    p.total += f.size();
    p.done += files_->ended(i) ? f.size() : std::min(f.read_so_far(), f.size());
  }
  return p;
}

const char* CaptureSet::interface_name(uint32_t point) {
  const auto [file, interface] = files_->interface_of(point);
  return files_->source(file).interface_name(interface);
}

}  // namespace roceshark::cli
