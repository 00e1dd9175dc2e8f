// SPDX-License-Identifier: GPL-2.0-or-later
// The frames a statistic's filter selected, one bit per frame number (125
// KB per million frames): an event learned after its frame was tapped counts
// only if that frame was selected. Without a filter every frame is: every()
// keeps no bits, so a front end with no filter (the command, the monitor)
// keeps no state per frame.
#pragma once
#include <cstdint>
#include <vector>

namespace roceshark {

class FrameSet {
 public:
  static FrameSet every() {
    FrameSet s;
    s.every_ = true;
    return s;
  }
  void add(uint32_t frame) {
    if (every_) return;
    if (frame / 64 >= words_.size()) words_.resize(frame / 64 + 1);
    words_[frame / 64] |= uint64_t{1} << (frame % 64);
  }
  bool contains(uint32_t frame) const {
    return every_ || (frame / 64 < words_.size() && (words_[frame / 64] >> (frame % 64) & 1));
  }

 private:
  std::vector<uint64_t> words_;
  bool every_ = false;
};

}  // namespace roceshark
