// SPDX-License-Identifier: GPL-2.0-or-later
// The common case read without a copy: an uncompressed pcap (us or ns) or
// pcapng file is memory-mapped, and each record's bytes are a pointer into
// the mapping (issue 36). Anything else, or anything unusual in such a
// file (a second section, a timestamp offset or a binary resolution, a
// simple or obsolete packet block, ERF, a bad length, a truncated end),
// is left to libwiretap: CaptureReader then reads the file through it,
// from the record where this reader stopped, so both give the same records
// and libwiretap gives its own errors.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cli/capture_reader.h"

namespace roceshark::cli {

class MappedCapture {
 public:
  // Null when the file is not one this reader takes (not a regular file,
  // compressed, another format, a header it does not know).
  static std::unique_ptr<MappedCapture> open(const std::string& path);
  ~MappedCapture();
  MappedCapture(const MappedCapture&) = delete;
  MappedCapture& operator=(const MappedCapture&) = delete;

  enum class Next { record, end, unusual };
  // The next packet record; `unusual` when libwiretap must take over (no
  // record is returned then, and none will be).
  Next next(Record& r);
  uint32_t interfaces() const { return declared_; }  // described before the first packet
  const char* interface_name(uint32_t id) const;
  uint64_t packets() const { return packets_; }  // returned so far
  uint64_t position() const { return pos_; }      // bytes of the file read so far

 private:
  struct Interface {
    decode::LinkType link = decode::LinkType::other;
    uint64_t div = 1'000'000, mult = 1'000;  // ticks to ns: ticks / div seconds, (ticks % div) * mult ns
    std::string name;                        // if_name, else if_description
    bool named = false;                      // either was given: else "unknown"
  };
  MappedCapture(const uint8_t* base, size_t size) : base_(base), size_(size) {}
  bool header();
  Next next_pcap(Record& r);
  Next next_pcapng(Record& r);
  bool interface_block(const uint8_t* body, size_t len);
  uint32_t u32(const uint8_t* p) const;
  uint16_t u16(const uint8_t* p) const;

  const uint8_t* base_;
  size_t size_;
  size_t pos_ = 0;
  size_t dropped_ = 0;  // pages below it were let go
  bool pcapng_ = false, swapped_ = false;
  bool ns_ = false;  // classic pcap in ns
  std::vector<Interface> ifaces_;
  uint32_t declared_ = 0;
  uint64_t packets_ = 0;
};

}  // namespace roceshark::cli
