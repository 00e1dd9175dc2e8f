// SPDX-License-Identifier: GPL-2.0-or-later
// Partial reports on disk (docs/partial-format.md): what `roceshark partial`
// decoded of one shard of a set of capture files, record by record, for
// `roceshark merge` on any machine. A file is written beside its name and
// renamed when whole; a reader checks its frame, version and checksums and
// names the file in every error.
#pragma once
#include <cstdint>
#include <cstdio>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cli/batch.h"
#include "epan-ext/decode/crc32.h"
#include "epan-ext/decode/frame_decoder.h"

namespace roceshark::cli {

struct PartialError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// What every partial of one job shares, but for `shard` and `files`.
struct Manifest {
  std::string roceshark;             // the version that wrote it
  std::vector<std::string> options;  // -o roce.NAME:VALUE as given, in order
  struct Input {
    std::string path;  // as given on the command line
    uint64_t size = 0;
    std::string fingerprint;  // crc32 of its size, first and last 64 KiB (capture_fingerprint)
    bool operator==(const Input&) const = default;
  };
  std::vector<Input> inputs;  // the whole set, in command-line order
  bool concatenate = false;        // the inputs are one capture in pieces (roceshark -a)
  uint32_t shard = 0, shards = 1;  // host-pair shard K of N
  std::vector<uint32_t> files;     // the inputs this partial read, ascending
  // A monitor's period (roceshark monitor --partials): segment `segment`
  // of the one input, a stream the monitor read (its fingerprint the run's
  // id); the segments concatenate, and the last says so (in its trailer,
  // since only its end knows).
  bool segmented = false, last_segment = false;
  uint32_t segment = 0;
};

// One file's records, as FileMerge reads them.
struct PartialRecord {
  decode::Kind kind = decode::Kind::not_ours;
  uint32_t number = 0;     // the frame's number in its file, from 1
  uint32_t interface = 0;  // its file's interface id
  uint32_t wire_len = 0;
  uint64_t ts_ns = 0;
  std::span<const uint8_t> payload;  // the record (record_codec.h); empty for not_ours
  const std::string* origin = nullptr;  // the partial report it was read from
};

// What a partial says of one input file once it was read.
struct FileTrailer {
  uint32_t file = 0;        // index into Manifest::inputs
  uint64_t offset = 0, length = 0;  // its records' bytes in the partial
  uint32_t crc = 0;
  uint32_t frames = 0;      // frames in the file, every one counted
  uint32_t declared_interfaces = 0;  // described before its first packet
  std::vector<std::string> interface_names;  // by id, as Wireshark names them
  std::string error;        // why it was cut short; "" when read to the end
  uint64_t drops = 0;       // packets a live capture dropped (a monitor's period)
};

std::string capture_fingerprint(const std::string& path, uint64_t& size);

class PartialWriter {
 public:
  // Throws PartialError when `path` cannot be written.
  PartialWriter(std::string path, const Manifest& m);
  ~PartialWriter();  // unfinished: the temporary file is removed
  PartialWriter(const PartialWriter&) = delete;
  PartialWriter& operator=(const PartialWriter&) = delete;

  void begin_file(uint32_t file);
  void record(const PartialRecord& r);
  void item(const Batch& b, const Batch::Item& it);  // a batch's record, encoded
  void end_file(FileTrailer t);  // offset, length and crc are filled in here
  // The trailer and footer written, flushed, renamed into place; a
  // segment says there whether it is its run's last.
  void finish(bool last_segment = false);

 private:
  void put(const void* p, size_t n);
  std::string path_, tmp_;
  bool segmented_ = false;
  std::FILE* f_ = nullptr;
  uint64_t at_ = 0;
  uint64_t file_start_ = 0;
  Crc32 file_crc_;
  uint32_t last_number_ = 0;  // the record before, in this file
  uint64_t last_ts_ = 0;
  std::vector<FileTrailer> trailers_;
  std::string head_;  // magic, version and manifest: checked with the trailer
  std::string buf_, payload_;
};

class PartialFile {
 public:
  // Maps the file and checks its frame: throws PartialError naming it.
  explicit PartialFile(std::string path);
  ~PartialFile();
  PartialFile(const PartialFile&) = delete;
  PartialFile& operator=(const PartialFile&) = delete;

  const std::string& path() const { return path_; }
  const Manifest& manifest() const { return manifest_; }
  const std::vector<FileTrailer>& trailers() const { return trailers_; }

  // One file's records in file order; its checksum is checked when it ends.
  class Cursor {
   public:
    Cursor(const PartialFile& p, const FileTrailer& t);
    bool next(PartialRecord& r);  // throws PartialError on a malformed record or checksum
   private:
    const PartialFile& p_;
    std::span<const uint8_t> bytes_;
    size_t at_ = 0;
    uint32_t expected_crc_;
    Crc32 crc_;
    bool done_ = false;
    uint32_t number_ = 0;  // the record before
    uint64_t ts_ = 0;
    size_t dropped_ = 0;   // bytes before this are given back to the kernel
  };

 private:
  PartialError bad(const std::string& why) const;
  std::string path_;
  const uint8_t* map_ = nullptr;
  size_t size_ = 0;
  Manifest manifest_;
  std::vector<FileTrailer> trailers_;
};

}  // namespace roceshark::cli
