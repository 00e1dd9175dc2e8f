// SPDX-License-Identifier: GPL-2.0-or-later
// The std::map row each flow's packets were last counted in, by flow id:
// the usual packet (its flow's row, as before) then makes no search in the
// map, where a search costs about a hundred instructions a packet. Rows
// are never erased while counting (clear() assigns a fresh object), and a
// copied or moved cache starts empty: its iterators would point into
// another map.
#pragma once
#include <cstdint>
#include <optional>
#include <utility>
#include <vector>

namespace roceshark {

template <class Map>
class RowCache {
 public:
  // Flow ids are dense from 0 (FlowTable); higher ones (none today) are not cached.
  static constexpr uint32_t kMaxFlows = 1u << 20;

  RowCache() = default;
  RowCache(const RowCache&) {}
  RowCache(RowCache&&) noexcept {}
  RowCache& operator=(const RowCache&) { return reset(); }
  RowCache& operator=(RowCache&&) noexcept { return reset(); }

  // rows.try_emplace(key), for a packet of `flow`.
  std::pair<typename Map::iterator, bool> try_emplace(Map& rows, uint32_t flow, const typename Map::key_type& key) {
    if (flow < slots_.size() && slots_[flow] && (*slots_[flow])->first == key) return {*slots_[flow], false};
    const auto r = rows.try_emplace(key);
    if (flow < kMaxFlows) {
      if (flow >= slots_.size()) slots_.resize(flow + 1);
      slots_[flow] = r.first;
    }
    return r;
  }

 private:
  RowCache& reset() {
    slots_.clear();
    return *this;
  }
  std::vector<std::optional<typename Map::iterator>> slots_;
};

}  // namespace roceshark
