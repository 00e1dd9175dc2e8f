// SPDX-License-Identifier: GPL-2.0-or-later
// One capture file, record by record, through Wireshark's libwiretap: any
// format Wireshark reads (pcap, pcapng, ERF, compressed files); "-" is the
// standard input.
#pragma once
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "epan-ext/decode/frame_decoder.h"

namespace roceshark::cli {

struct Record {
  std::span<const uint8_t> bytes;  // as captured
  uint32_t wire_len = 0;
  decode::LinkType link = decode::LinkType::other;
  uint32_t interface = 0;  // pcapng interface id, 0 for formats without
  uint64_t ts_ns = 0;
  bool tick = false;  // no packet: a live source's idle wait ended (cli/record_source.h)
};

class CaptureReader {
 public:
  // Uncompressed pcap and pcapng files are memory-mapped and read without a
  // copy (cli/mapped_capture.h), unless `how` says libwiretap only.
  enum class Reading { mapped_if_possible, wiretap_only };
  // Throws std::runtime_error naming the file and the reason; an empty
  // standard input is "the standard input is empty: nothing to read" (an
  // empty file is an empty capture, as tshark reads it).
  explicit CaptureReader(const std::string& path, Reading how = Reading::mapped_if_possible);
  ~CaptureReader();
  CaptureReader(const CaptureReader&) = delete;
  CaptureReader& operator=(const CaptureReader&) = delete;

  // The next packet record (other records are skipped); false at the end.
  // A corrupt or truncated file throws after the records before it.
  bool next(Record& r);
  // As Wireshark names an interface: its name, else its description, else "unknown".
  const char* interface_name(uint32_t id);
  // The interfaces the file has described so far (pcapng may add more later).
  uint32_t interfaces();
  uint64_t records() const { return records_; }
  // The file's size in bytes as it lies on disk (compressed if it is), 0
  // when unknown (a pipe); and how much of it has been read so far.
  uint64_t size() const { return size_; }
  uint64_t read_so_far() const;
  const std::string& path() const { return path_; }

 private:
  void open_wiretap();
  bool wiretap_next(Record& r);
  struct Impl;
  std::unique_ptr<Impl> impl_;
  std::string path_;
  std::string file_;  // as given: "-" for the standard input
  uint64_t records_ = 0;
  uint64_t size_ = 0;
};

}  // namespace roceshark::cli
