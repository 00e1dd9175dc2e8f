// SPDX-License-Identifier: GPL-2.0-or-later
// PFC correlation for one capture file: pause windows (PauseTracker), the
// RoCE packets they held, and the configuration smells PFC shows in traffic
// (docs/pfc.md):
//   - PFC on a priority that carries no RoCE, while RoCE runs on a priority
//     with no PFC at that point (PFC enabled on the wrong class);
//   - RoCE loss evidence on a priority no PFC frame was ever seen for (RoCE
//     in a lossy queue);
//   - a pause with no ECN-CE mark or CNP on its link shortly before it (the
//     DCQCN ECN threshold sits above the PFC XOFF threshold);
//   - a pause following a storm at another point (pause propagation, found
//     by the PauseTracker).
// Like the sequence analysis, it runs once, in frame order, and keeps its
// per-frame verdicts.
#pragma once
#include <cstdint>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "epan-ext/common/config.h"
#include "epan-ext/analysis/pause_tracker.h"
#include "epan-ext/analysis/pause_verdict.h"
#include "epan-ext/decode/pfc_frame.h"

namespace roceshark::pfc {

// What PFC says about one RoCE packet.
struct PacketPfc {
  uint64_t stall_ns = 0;          // pause time newly attributed to its flow
  uint32_t pause_frame = 0;       // the PFC frame that opened the pause that held it
  uint8_t priority = 0;           // PCP when tagged, else the DSCP map's priority
  uint8_t wrong_class_pfc = 0;    // PFC priorities (without RoCE) this packet shows to be the wrong class
  bool held = false;              // released back to back by a pause of its priority on its link (docs/pfc.md)
  bool unattributed = false;      // released like a held packet, but its sides point both ways: not counted
  bool lossy_first = false;       // first loss evidence on a priority without PFC, at this point
  bool operator==(const PacketPfc&) const = default;
};

struct RoceSighting {
  uint32_t point = 0;
  uint64_t ts_ns = 0;
  Mac src{}, dst{};             // of the Ethernet header at the point
  uint8_t priority = 0;
  uint32_t frame_len = 0;
  uint32_t flow = 0;
  bool data = false;           // request or response: the traffic PFC should protect
  bool congestion = false;     // ECN-CE, or a CNP
  bool loss_evidence = false;  // gap, retransmission or NAK
};

class PfcAnalyzer {
 public:
  explicit PfcAnalyzer(const Config& cfg, EventSink* events = nullptr) : cfg_(cfg), tracker_(cfg, events) {}

  // `beyond`: the frame is past a limit (Analyzer decides; `first`: the
  // first past it) and is not analysed. Valid until the next call.
  PauseVerdict& process(const PauseFrame& f, LimitKind beyond = LimitKind::none, bool first = false);
  // Whether PFC from (point, MAC) is analysed: up to roce.max_pfc_ports of them.
  bool admit_port(uint32_t point, const Mac& mac);
  PacketPfc on_roce(const RoceSighting& r);

  std::vector<Episode> open_episodes() const { return tracker_.open_episodes(); }
  uint64_t live_dropped() const { return tracker_.live_dropped(); }

 private:
  struct Point {
    uint8_t pfc = 0;             // priorities paused here
    uint8_t roce = 0;            // priorities carrying RoCE data here
    uint8_t wrong_reported = 0;  // PFC priorities already flagged as the wrong class
    uint8_t lossy_reported = 0;
    bool signalled = false;      // ECN-CE or CNP seen here
    uint64_t last_signal_ns = 0;
  };
  // PFC priorities paused here but carrying no RoCE, while RoCE runs on
  // priorities with no PFC; each is reported once per point.
  uint8_t wrong_class(Point& pt);
  // points_[id], the last one found first: most packets are of the point before.
  Point& point(uint32_t id);

  const Config& cfg_;
  PauseTracker tracker_;
  std::unordered_map<uint32_t, Point> points_;
  // point()'s last answer (elements of an unordered_map stay put); a copy
  // starts without one, which would point into the original's map.
  struct LastPoint {
    uint32_t id = 0;
    Point* at = nullptr;
    LastPoint() = default;
    LastPoint(const LastPoint&) {}
    LastPoint& operator=(const LastPoint&) {
      at = nullptr;
      return *this;
    }
  } last_point_;
  uint8_t pfc_anywhere_ = 0;
  std::unordered_set<uint64_t> no_ecn_reported_;
  struct Port {
    uint32_t point;
    Mac mac;
    bool operator==(const Port&) const = default;
  };
  struct PortHash {
    size_t operator()(const Port& p) const {
      uint64_t h = p.point;
      for (uint8_t b : p.mac) h = h * 0x100000001B3ull ^ b;
      return h;
    }
  };
  std::unordered_set<Port, PortHash> ports_;  // pausing ports analysed
  PauseVerdict last_;
};

}  // namespace roceshark::pfc
