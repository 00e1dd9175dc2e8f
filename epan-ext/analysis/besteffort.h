// SPDX-License-Identifier: GPL-2.0-or-later
// Whether RoCE waits at a hop while best-effort traffic takes the port
// (docs/multipoint.md#roce-starved-by-best-effort).
//
// Best-effort packets (TCP and UDP that is not RoCE) are matched across
// points like RoCE ones, by what no hop changes: addresses, protocol, ports,
// IPv4 ID, TCP sequence number, IP length. A RoCE packet that queued at a hop
// stood in a backlogged lossless class that long, and a scheduler that gives
// the class its ETS share serves it at least that share of the port
// meanwhile. So when, over that wait, the frames that left through the
// downstream point (RoCE and best-effort, the hop's own) fill its link (the
// taps saw the port's traffic), best-effort took more than
// roce.besteffort_share_pct of those bytes, and best-effort itself barely
// queued, the port served best-effort first: strict priority above RoCE, or
// an ETS weight too small for RoCE. A packet held by a pause of its
// priority is not judged (PFC explains its wait).
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <utility>

#include "epan-ext/decode/address.h"
#include "epan-ext/decode/cross_packet.h"
#include "epan-ext/analysis/window_table.h"

namespace roceshark {

namespace hop {

// The share figures of one judged RoCE packet.
struct Starvation {
  uint8_t be_share_pct = 0;  // best-effort's share of the bytes that left while it waited; 0: not judged starved
  uint8_t fill_pct = 0;      // how full those bytes kept the link
  uint64_t be_wait_ns = 0;   // best-effort's average wait at the hop meanwhile
  bool enough = false;       // the hop's kMinEvidence-th starved packet: the hop is reported from here
};

class BestEffort {
 public:
  static constexpr uint32_t kMinEvidence = 5;  // starved packets on a hop before it is reported
  static constexpr uint8_t kMinFillPct = 80;
  static constexpr size_t kMaxMarks = 1 << 16;  // per hop: a wait longer than these frames is not judged
  static constexpr size_t kMaxCopies = 1 << 20;  // best-effort packets awaiting their next copy

  // `share_pct`: roce.besteffort_share_pct; `window_ns`: how long a copy
  // waits for its match at another point.
  BestEffort(uint8_t share_pct, uint64_t window_ns) : share_pct_(share_pct), window_ns_(window_ns) {}

  // A best-effort packet; `ts` is its time corrected to the reference clock.
  void cross(const CrossPacket& p, int64_t ts);
  // A RoCE packet crossed the hop (from, to) and left at `ts_ns` (the
  // downstream point's clock); `queue_ns` > 0 and judge: it waited that long.
  // Returns its figures when it was starved.
  Starvation roce(uint32_t from, uint32_t to, uint64_t ts_ns, uint32_t frame_len, uint64_t queue_ns, bool judge,
                  double gbps);

 private:
  // Running totals after each frame that left through the hop, in order.
  struct Mark {
    uint64_t ts_ns = 0;
    uint64_t roce_bytes = 0, be_bytes = 0, be_frames = 0, be_wait_ns = 0;
  };
  struct Hop {
    std::deque<Mark> marks;
    int64_t be_min_latency = INT64_MAX;
  };
  struct Copy {
    uint32_t point = 0;
    int64_t ts = 0;
  };
  void push(Hop& h, uint64_t ts_ns, uint64_t roce_bytes, uint64_t be_bytes, uint64_t be_wait_ns);
  Starvation judge(const Hop& h, uint64_t ts_ns, uint64_t queue_ns, double gbps) const;

  uint8_t share_pct_;
  uint64_t window_ns_;
  int64_t now_ = INT64_MIN;
  WindowTable<Copy> copies_;
  // Hops best-effort crossed: only these keep marks (RoCE-only captures pay nothing).
  std::map<std::pair<uint32_t, uint32_t>, Hop> hops_;
  // RoCE packets judged starved per hop, for `enough`; the finding's
  // figures are the report's (triage::EvidenceStats), from the selected frames.
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> starved_;
};

}  // namespace hop
}  // namespace roceshark
