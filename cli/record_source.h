// SPDX-License-Identifier: GPL-2.0-or-later
// Where the reading stage takes its records from: capture files
// (CaptureSet) or a live interface (LiveCapture).
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "cli/capture_reader.h"

namespace roceshark::cli {

class RecordSource {
 public:
  virtual ~RecordSource() = default;
  // The next record; false at the end. A live source that waited a while
  // for one returns a tick instead (r.tick, r.ts_ns the wall clock), so
  // windows can end on an idle link.
  virtual bool next(Record& r) = 0;
  virtual const char* interface_name(uint32_t point) = 0;
  // Read errors that ended a source early: what came before was read.
  virtual const std::vector<std::string>& errors() const = 0;
  // Packets the capture dropped before we saw them (live sources): by the
  // kernel (no room in the buffer) and by the interface.
  struct Drops {
    uint64_t kernel = 0, interface = 0;
    uint64_t total() const { return kernel + interface; }
  };
  virtual Drops drops() { return {}; }
  // How many bytes of the input have been read, of how many: total 0 when
  // the size is unknown (a pipe, the standard input from one, a live capture).
  struct Position {
    uint64_t done = 0, total = 0;
  };
  virtual Position position() { return {}; }
};

}  // namespace roceshark::cli
