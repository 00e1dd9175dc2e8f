// SPDX-License-Identifier: GPL-2.0-or-later
// The partial reports of one job read back as the capture files they were
// made of: every shard of every file exactly once, checked before anything
// is read, then each file's records in its own order and the files merged
// as reading them merges them (cli/file_merge.h), numbered and named the
// same. The analysis of the merge is the analysis of the whole.
#pragma once
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cli/batch.h"
#include "cli/partial_file.h"
#include "epan-ext/common/preferences.h"

namespace roceshark::cli {

class PartialSet {
 public:
  // Throws PartialError naming the file: unreadable, truncated or corrupt;
  // made of other inputs, options or roceshark; a shard duplicated or
  // missing.
  explicit PartialSet(const std::vector<std::string>& paths);
  ~PartialSet();

  // The -o preferences the partials were made with.
  const std::vector<std::string>& options() const { return files_.front()->manifest().options; }
  // Every frame's record, in batches, as read_all gives a capture file's;
  // throws PartialError when a record or checksum turns out bad.
  void read(const prefs::Settings& settings, const std::function<void(Batch&)>& analyse);
  // Why input files were cut short, in the order reading them reports it.
  const std::vector<std::string>& errors() const { return errors_; }
  // Packets the live captures of a monitor's periods dropped.
  uint64_t drops() const;

 private:
  void segments();
  std::vector<std::unique_ptr<PartialFile>> files_;
  // Per input file: the trailers of its shards, shard by shard.
  std::vector<std::vector<std::pair<const PartialFile*, const FileTrailer*>>> shards_;
  std::vector<std::string> errors_;
};

}  // namespace roceshark::cli
