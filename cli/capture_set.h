// SPDX-License-Identifier: GPL-2.0-or-later
// Several capture files read as one, each file's interfaces its own capture
// points: what `mergecap -I none` would write, without writing it. Records
// come in time order across the files (a tie goes to the earlier file);
// file k's interface i is point (interfaces of the files before k) + i.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

#include "cli/capture_reader.h"
#include "cli/record_source.h"

namespace roceshark::cli {

class CaptureSet final : public RecordSource {
 public:
  // Opens every file first: throws std::runtime_error naming the one that
  // cannot be opened.
  explicit CaptureSet(const std::vector<std::string>& paths);

  // The next packet record of all the files; false when all have ended. A
  // file that fails part-way ends there, its error kept in errors(); the
  // others go on.
  bool next(Record& r) override;
  const char* interface_name(uint32_t point) override;
  const std::vector<std::string>& errors() const override { return errors_; }
  // The files' sizes summed, when every one's is known.
  Position position() override;

 private:
  struct Source {
    std::unique_ptr<CaptureReader> reader;
    Record pending;
    bool has = false;     // `pending` holds its next record
    bool ended = false;
    uint32_t first = 0;   // its first point
    uint32_t count = 0;   // interfaces known when it was opened
  };
  void refill(Source& s);
  uint32_t point_of(size_t source, uint32_t interface);

  std::vector<Source> sources_;
  size_t last_ = SIZE_MAX;  // the source whose record next() returned last
  // Interfaces a pcapng file describes only after its first packets: after
  // every file's declared ones, numbered as they appear (one file keeps its
  // own numbers, as tshark does).
  std::unordered_map<uint64_t, uint32_t> late_;         // source << 32 | interface -> point
  std::unordered_map<uint32_t, uint64_t> late_points_;  // and back
  uint32_t next_late_ = 0;
  std::vector<std::string> errors_;
};

}  // namespace roceshark::cli
