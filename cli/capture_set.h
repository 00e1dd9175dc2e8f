// SPDX-License-Identifier: GPL-2.0-or-later
// Several capture files read as one, as `mergecap -I none` would merge them
// (cli/file_merge.h), without writing it.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cli/capture_reader.h"
#include "cli/file_merge.h"
#include "cli/record_source.h"

namespace roceshark::cli {

class CaptureSet final : public RecordSource {
 public:
  // Opens every file first: throws std::runtime_error naming the one that
  // cannot be opened.
  explicit CaptureSet(const std::vector<std::string>& paths, Joining how = Joining::interleave);

  // The next packet record of all the files; false when all have ended. A
  // file that fails part-way ends there, its error kept in errors(); the
  // others go on.
  bool next(Record& r) override;
  const char* interface_name(uint32_t point) override;
  const std::vector<std::string>& errors() const override { return files_->errors(); }
  // The files' sizes summed, when every one's is known.
  Position position() override;
  CaptureReader& file(size_t i) { return files_->source(i); }
  uint32_t declared_interfaces(size_t i) const { return files_->declared(i); }

 private:
  std::unique_ptr<FileMerge<CaptureReader, Record>> files_;
};

}  // namespace roceshark::cli
