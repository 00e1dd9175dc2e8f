// SPDX-License-Identifier: GPL-2.0-or-later
// Entries keyed by a 64-bit id, kept for a sliding time window.
//
// Entries live in a ring in insertion (time) order, so expiry is a pop from
// the front. The index is open addressing keyed by the entry's ring
// position: an expired entry's slot simply stops matching, and the index is
// rebuilt from the ring when dead slots pile up. Expiry costs nothing per
// entry, which std::unordered_map's erase (a bucket walk, a division) does
// not.
#pragma once
#include <cstddef>
#include <cstdint>
#include <deque>
#include <vector>

namespace roceshark {

template <typename T>
class WindowTable {
 public:
  // The live entry with this id, or nullptr.
  T* find(uint64_t id) {
    for (size_t i = mix(id) & mask(); slots_.size(); i = (i + 1) & mask()) {
      const Slot& s = slots_[i];
      if (s.pos == kEmpty) return nullptr;
      if (s.id == id && s.pos >= base_) return &ring_[s.pos - base_].value;
    }
    return nullptr;
  }

  // A new entry (the id must not be live). Invalidates pointers from find()
  // only when the index is rebuilt, never the entries themselves.
  T& insert(uint64_t id, uint64_t ts_ns) {
    if (2 * (used_ + 1) > slots_.size()) rebuild();
    const uint64_t pos = base_ + ring_.size();
    ring_.push_back({id, ts_ns, T{}});
    place(id, pos);
    return ring_.back().value;
  }

  // Drops entries stamped before `oldest_ns` (insertion order is time order).
  void expire(uint64_t oldest_ns) {
    while (!ring_.empty() && ring_.front().ts_ns < oldest_ns) {
      ring_.pop_front();
      ++base_;
    }
  }

  // Drops the oldest entries beyond `max` (a capture whose time stands still expires nothing).
  void trim(size_t max) {
    while (ring_.size() > max) {
      ring_.pop_front();
      ++base_;
    }
  }

  size_t size() const { return ring_.size(); }

 private:
  static constexpr uint64_t kEmpty = UINT64_MAX;
  struct Slot {
    uint64_t id = 0;
    uint64_t pos = kEmpty;  // ring position; below base_ means expired
  };
  struct Entry {
    uint64_t id;
    uint64_t ts_ns;
    T value;
  };
  static uint64_t mix(uint64_t x) {  // murmur3's finaliser: ids' low bits alone may be poor
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdull;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ull;
    return x ^ (x >> 33);
  }
  size_t mask() const { return slots_.size() - 1; }

  // Into the first empty or expired slot on the id's probe path.
  void place(uint64_t id, uint64_t pos) {
    for (size_t i = mix(id) & mask();; i = (i + 1) & mask()) {
      Slot& s = slots_[i];
      if (s.pos == kEmpty || s.pos < base_) {
        used_ += s.pos == kEmpty;
        s = {id, pos};
        return;
      }
    }
  }

  // Live entries at most a quarter of the slots afterwards.
  void rebuild() {
    size_t n = 16;
    while (n < 4 * (ring_.size() + 1)) n *= 2;
    slots_.assign(n, Slot{});
    used_ = 0;
    for (size_t i = 0; i < ring_.size(); ++i) place(ring_[i].id, base_ + i);
  }

  std::deque<Entry> ring_;
  std::vector<Slot> slots_;
  uint64_t base_ = 0;  // ring position of ring_.front()
  size_t used_ = 0;    // slots ever filled since the last rebuild (live or expired)
};

}  // namespace roceshark
