// SPDX-License-Identifier: GPL-2.0-or-later
// Decoded frames as the reader hands them to the analysis, a batch at a
// time. Each record kind has its own vector, so a RoCE packet costs its
// PacketInfo and an index, not the decoder's whole union of kinds; the
// vectors keep their capacity when a batch is reused.
#pragma once
#include <cstdint>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "epan-ext/decode/frame_decoder.h"

namespace roceshark::cli {

struct Batch {
  static constexpr size_t kFrames = 1024;
  struct Item {
    decode::Kind kind;
    uint32_t index;  // into the kind's vector
    uint32_t number, wire_len;
    uint64_t ts_ns;
    uint32_t interface;  // the record's, before the point key: what a partial report keeps
  };
  std::vector<Item> items;
  std::vector<PacketInfo> packets;
  std::vector<pfc::PauseFrame> pauses;
  std::vector<qos::DcbxAnnouncement> dcbx;
  std::vector<icmp::TooBig> icmp;
  std::vector<CrossPacket> cross;
  // The points these frames are the first (non-cross-traffic) frames of,
  // their names, and the index in `items` of that first frame.
  struct Name {
    uint32_t point;
    std::string name;
    size_t item;
  };
  std::vector<Name> names;
  uint64_t idle_ns = 0;  // a live source's tick after these frames: the wall clock, ns

  void clear() {
    items.clear(), packets.clear(), pauses.clear(), dcbx.clear(), icmp.clear(), cross.clear(), names.clear();
    idle_ns = 0;
  }
  bool full() const { return items.size() == kFrames; }
  bool empty() const { return items.empty() && names.empty() && !idle_ns; }
};

// A point's name goes with the first of its (non-cross-traffic) frames:
// the views list points in that order. One per reading.
class PointNamer {
 public:
  template <class NameOf> void note(Batch& b, uint32_t point, decode::Kind kind, NameOf&& name_of) {
    if (kind == decode::Kind::cross || point == last_) return;  // most frames are of the point before
    if (named_.insert(point).second) b.names.push_back({point, name_of(), b.items.size()});
    last_ = point;
  }

 private:
  std::unordered_set<uint32_t> named_;
  uint32_t last_ = UINT32_MAX;
};

}  // namespace roceshark::cli
