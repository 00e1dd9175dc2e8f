// SPDX-License-Identifier: GPL-2.0-or-later
// Puts frames in file order when the points' timestamps are shifted by
// different amounts (a `clock` offset, an ERSPAN session's latency). The
// simulation hands frames over in true-time order; the file wants them in
// order of true time + shift(point), ties in simulation order. A frame
// whose key is at most now + the smallest shift can go: nothing later can
// sort before it. With one shift for all points the order is already right
// and frames pass through uncopied.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "captures/gen/frame.h"

namespace roceshark::gen {

class FrameReorder {
 public:
  using Emit = std::function<void(const Frame&)>;
  FrameReorder(std::vector<Ns> shift, Emit emit);  // shift per point
  // Frames come in non-decreasing f.time, as the simulation makes them.
  void push(const Frame& f);
  void flush();  // at the end: everything still held, in order
  size_t held() const { return heap_.size(); }

 private:
  // A frame that must wait: its bytes and what it points to, copied.
  struct Held {
    Frame f;
    std::vector<uint8_t> data;
    FrameInfo info;
    std::string lost_before;
    Ns key = 0;
    uint64_t seq = 0;
  };
  using HeldPtr = std::unique_ptr<Held>;
  static bool later(const HeldPtr& x, const HeldPtr& y) { return x->key != y->key ? x->key > y->key : x->seq > y->seq; }
  void release_up_to(Ns key);

  std::vector<Ns> shift_;
  Ns min_shift_ = 0;
  bool pass_through_ = true;
  Emit emit_;
  std::vector<HeldPtr> heap_;  // a min-heap by (key, seq)
  uint64_t seq_ = 0;
};

}  // namespace roceshark::gen
