// SPDX-License-Identifier: GPL-2.0-or-later
// Several files' records read as one, each file's interfaces its own
// capture points: what `mergecap -I none` would write. Records come in time
// order across the files (a tie goes to the earlier file; within a file,
// its own order); file k's interface i is point (interfaces of the files
// before k) + i. The one rule for capture files (CaptureSet) and for the
// partial reports made of them (PartialSet), so a merge orders and numbers
// exactly as reading the files does.
//
// Or, concatenated, one capture cut in pieces (a ring buffer's files,
// editcap -c), as `mergecap -a` joins them: each file after the one
// before, every file's interface i the same point i.
#pragma once
#include <cstddef>
#include <cstdint>
#include <exception>
#include <memory>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace roceshark::cli {

// Source: `bool next(Rec&)` in its file's order (false at the end; an
// exception ends it there, its what() kept in errors()), `uint32_t
// interfaces()`, the interfaces it described before its first packet.
// Rec: a `ts_ns` and an `interface`; a record's bytes stay valid until its
// source's next call.
enum class Joining : uint8_t { interleave, concatenate };

template <class Source, class Rec>
class FileMerge {
 public:
  explicit FileMerge(std::vector<std::unique_ptr<Source>> sources, Joining how = Joining::interleave)
      : how_(how) {
    uint32_t first = 0;
    for (auto& s : sources) {
      File& f = files_.emplace_back();
      f.source = std::move(s);
      f.first = first;
      f.count = f.source->interfaces();
      first += f.count;
    }
    next_late_ = first;
  }

  // The next record of all the files, its interface made a point; null when
  // all have ended. `file` is the file it came from.
  Rec* next(size_t* file = nullptr) {
    size_t best = SIZE_MAX;
    if (how_ == Joining::concatenate) {
      // The file being read gave its record last time (or none yet).
      for (; current_ < files_.size(); ++current_) {
        refill(files_[current_]);
        if (files_[current_].has) {
          best = current_;
          break;
        }
      }
    } else {
      // Every file holds its next record, except the one returned last
      // time: its bytes stayed valid until now.
      for (size_t i = 0; i < files_.size(); ++i)
        if (!files_[i].has || i == last_) refill(files_[i]);
      for (size_t i = 0; i < files_.size(); ++i)
        if (files_[i].has && (best == SIZE_MAX || files_[i].pending.ts_ns < files_[best].pending.ts_ns)) best = i;
    }
    last_ = best;
    if (best == SIZE_MAX) return nullptr;
    if (file) *file = best;
    out_ = files_[best].pending;
    out_.interface = point_of(best, out_.interface);
    return &out_;
  }

  // The file and interface of a point that is an interface.
  std::pair<size_t, uint32_t> interface_of(uint32_t point) const {
    if (how_ == Joining::concatenate) return {last_ == SIZE_MAX ? 0 : last_, point};  // the file being read names it
    if (const auto it = late_points_.find(point); it != late_points_.end())
      return {size_t(it->second >> 32), uint32_t(it->second)};
    for (size_t i = files_.size(); i-- > 0;)
      if (point >= files_[i].first) return {i, point - files_[i].first};
    return {0, point};
  }
  Source& source(size_t i) { return *files_[i].source; }
  size_t size() const { return files_.size(); }
  bool ended(size_t i) const { return files_[i].ended; }
  uint32_t declared(size_t i) const { return files_[i].count; }
  const std::vector<std::string>& errors() const { return errors_; }

 private:
  struct File {
    std::unique_ptr<Source> source;
    Rec pending{};
    bool has = false;  // `pending` holds its next record
    bool ended = false;
    uint32_t first = 0;  // its first point
    uint32_t count = 0;  // interfaces known when it was opened
  };

  void refill(File& f) {
    if (f.ended) return;
    try {
      f.has = f.source->next(f.pending);
    } catch (const std::exception& e) {
      errors_.emplace_back(e.what());
      f.has = false;
    }
    f.ended = !f.has;
  }

  // Interfaces a pcapng file describes only after its first packets: after
  // every file's declared ones, numbered as they appear (one file keeps its
  // own numbers, as tshark does).
  uint32_t point_of(size_t file, uint32_t interface) {
    if (how_ == Joining::concatenate) return interface;
    const File& f = files_[file];
    if (interface < f.count || files_.size() == 1) return f.first + interface;
    const uint64_t key = uint64_t(file) << 32 | interface;
    const auto [it, added] = late_.try_emplace(key, next_late_);
    if (added) late_points_.emplace(next_late_++, key);
    return it->second;
  }

  const Joining how_;
  std::vector<File> files_;
  Rec out_{};
  size_t last_ = SIZE_MAX;
  size_t current_ = 0;  // concatenated: the file being read
  std::unordered_map<uint64_t, uint32_t> late_;         // file << 32 | interface -> point
  std::unordered_map<uint32_t, uint64_t> late_points_;  // and back
  uint32_t next_late_ = 0;
  std::vector<std::string> errors_;
};

}  // namespace roceshark::cli
