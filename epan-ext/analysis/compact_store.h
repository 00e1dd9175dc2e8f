// SPDX-License-Identifier: GPL-2.0-or-later
// Results kept by frame, compact, for front ends that show frames again
// (StoredAnalysis). Most results fit a small record (Codec::Compact); one
// with a rare field set, or a value the record cannot hold, is kept whole
// beside it. Nothing is lost: a result goes into the record only when
// reading the record back gives it exactly (docs/analysis.md, "Limits and
// memory").
#pragma once
#include <algorithm>
#include <cstdint>
#include <deque>
#include <optional>

namespace roceshark {

// Codec: `struct Compact` with `uint32_t frame` and a `whole` bit, and
// `static Compact encode(const T&)`, `static T decode(const Compact&)`.
template <typename T, typename Codec>
class CompactStore {
 public:
  using Compact = typename Codec::Compact;

  // Frames come in increasing order.
  void push(const T& v) {
    Compact c = Codec::encode(v);
    if (!(Codec::decode(c) == v)) {
      c.whole = true;
      whole_.push_back(v);
    }
    compact_.push_back(c);
  }

  std::optional<T> find(uint32_t frame) const {
    // Frames are mostly asked for in order: try where the last lookup ended.
    size_t i = cursor_ + 1 < compact_.size() && compact_[cursor_ + 1].frame == frame ? cursor_ + 1 : cursor_;
    if (i >= compact_.size() || compact_[i].frame != frame) {
      const auto it = by_frame(compact_, frame);
      if (it == compact_.end() || it->frame != frame) return std::nullopt;
      i = static_cast<size_t>(it - compact_.begin());
    }
    cursor_ = i;
    if (!compact_[i].whole) return Codec::decode(compact_[i]);
    return *by_frame(whole_, frame);
  }

  // The highest frame kept, 0 when empty.
  uint32_t last_frame() const { return compact_.empty() ? 0 : compact_.back().frame; }
  size_t whole_count() const { return whole_.size(); }

 private:
  template <typename U>
  static auto by_frame(const std::deque<U>& kept, uint32_t frame) {
    return std::lower_bound(kept.begin(), kept.end(), frame, [](const U& v, uint32_t f) { return v.frame < f; });
  }

  std::deque<Compact> compact_;  // one per frame, in frame order
  std::deque<T> whole_;          // the rest, in frame order
  mutable size_t cursor_ = 0;    // find()'s last answer
};

}  // namespace roceshark
