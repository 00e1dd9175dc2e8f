// SPDX-License-Identifier: GPL-2.0-or-later
// The FrameSink that writes files: picks the frames of the chosen
// interface(s), puts them in file order (points' clocks may differ),
// numbers them, asks the Observer for the verdict, and writes the pcapng
// frame and the truth row side by side.
#pragma once
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>

#include "captures/gen/frame.h"
#include "captures/gen/frame_reorder.h"
#include "captures/gen/observer.h"
#include "captures/gen/pcapng_writer.h"
#include "captures/gen/scenario.h"
#include "captures/gen/truth_writer.h"

namespace roceshark::gen {

struct OutputOptions {
  std::string pcapng;
  std::optional<std::string> truth;
  std::optional<size_t> only_point;  // a point with an interface of its own, or a collector
};

class Output : public FrameSink {
 public:
  Output(const Scenario& sc, const OutputOptions& opt);
  void frame(const Frame& f) override;
  void close();  // writes what the reorder still holds, then closes the files
  uint64_t frames() const { return count_; }

 private:
  void write(const Frame& f);  // in file order, f.time still the true time
  std::string note(const Frame& f) const;

  const Scenario& sc_;
  std::optional<size_t> only_;
  std::vector<uint32_t> idb_;  // [point]: its interface in this file
  PcapngWriter pcap_;
  FrameReorder reorder_;
  std::unique_ptr<TruthWriter> truth_;
  Observer observer_;
  uint64_t count_ = 0;
  std::unordered_map<uint64_t, uint64_t> pfc_frames_;  // PFC ctrl_id -> its frame number here
};

}  // namespace roceshark::gen
