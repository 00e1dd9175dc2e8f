// SPDX-License-Identifier: GPL-2.0-or-later
// Pause windows per (capture point, pausing MAC, priority), the episodes and
// storms they form, and which RoCE packets they held.
//
// A PFC frame opens or refreshes a window from its time for quanta x 512 bit
// times at the point's link speed; quanta 0 (XON) ends it. Windows that
// follow each other with gaps under storm_gap_ns form one episode; an
// episode that lasted storm_ns and was paused storm_share_pct of it is a
// storm, marked at the frame where both hold; one that lasted as long with
// less is chatter (held_paused).
//
// What a pause held is decided by evidence, not by MAC (docs/pfc.md): a
// pause from X silences the transmitter at the other end of the link, so at
// the point that direction's frames of the class are absent while the window
// is in force and leave back to back right after it. A RoCE packet of the
// class is held when it is the first after the window's end or follows the
// last held one back to back (the released backlog), unless its sides say it
// goes the other way: its sender sent, or its receiver received, frames of
// the class during the window (that direction kept flowing); it is opposite
// to what was already released; or it comes from X itself. A packet recorded
// during the window is never held; it shows its direction flowing. Evidence
// on both sides makes it unattributed: neither held nor counted.
#pragma once
#include <array>
#include <cstdint>
#include <cstddef>
#include <deque>
#include <unordered_map>
#include <vector>

#include "epan-ext/common/config.h"
#include "epan-ext/common/limits.h"
#include "epan-ext/decode/ethernet.h"
#include "epan-ext/analysis/pause_verdict.h"
#include "epan-ext/decode/pfc_frame.h"

namespace roceshark {
class EventSink;
}

namespace roceshark::pfc {

struct Episode {
  uint32_t point = 0;
  Mac mac{};
  uint8_t priority = 0;
  uint64_t start_ns = 0, end_ns = 0;
  uint64_t paused_ns = 0;  // asserted time within the episode (gaps excluded)
  uint32_t first_frame = 0, frames = 0;
  bool storm = false;
  bool chatter = false;      // lasted storm_ns, paused less than storm_share_pct of it
  uint32_t storm_frame = 0;  // where the threshold was crossed (0: never, e.g. one long window)
  bool follows_storm = false;  // linked to a storm elsewhere (propagation)
};

// A pause at one point that began while a storm at another was in force,
// or soon after it: the storm backing up towards the hosts.
struct Propagation {
  uint32_t from_point, to_point;
  uint32_t storm_frame;   // the frame that marked the storm
  uint32_t pause_frame;   // the frame that began the pause that followed it
  uint32_t found_frame;   // where the link was made: the first frame that had both
  uint64_t delay_ns;      // from the storm's start to the pause's
};

// The storm rule, one place for every view: `paused_ns` of `span_ns`
// asserted, the span at least storm_ns. Below the share it is chatter.
inline bool held_paused(uint64_t span_ns, uint64_t paused_ns, const Config& cfg) {
  return paused_ns * 100 >= span_ns * cfg.storm_share_pct;
}

struct Hold {
  bool held = false;
  bool unattributed = false;  // released back to back, but its sides point both ways
  uint32_t pause_frame = 0;  // the PFC frame that opened the pause that held it (refreshes keep it open)
  uint64_t stall_ns = 0;     // pause time newly attributed to the packet's flow
};

class PauseTracker {
 public:
  // Ended episodes and propagations go to `events` (none: not wanted).
  explicit PauseTracker(const Config& cfg, EventSink* events = nullptr) : cfg_(cfg), events_(events) {}

  // Updates the windows for one PFC frame and fills the per-class timing,
  // xon and storm fields of `v`. Reports each class whose episode this frame
  // starts in `new_episodes`.
  void on_pause(const PauseFrame& f, PauseVerdict& v, uint8_t& new_episodes);
  // A RoCE packet recorded at `point` from `src` to `dst` (the MACs of its
  // Ethernet header there) on `priority`.
  Hold on_packet(uint32_t point, const Mac& src, const Mac& dst, uint8_t priority, uint64_t ts_ns, uint32_t frame_len,
                 uint32_t flow);

  double gbps(uint32_t point) const;
  // Windows dropped at the cap of live windows per (point, priority).
  uint64_t live_dropped() const { return live_dropped_; }
  // The episodes still open, ending where they stand.
  std::vector<Episode> open_episodes() const;
  // A storm at a point other than `point` whose span, widened by the
  // propagation window, covers `ts_ns` (the earliest such storm).
  struct StormRef {
    uint32_t point;
    uint64_t start_ns, end_ns;
    uint32_t storm_frame;
  };
  const StormRef* storm_before(uint32_t point, uint64_t ts_ns);

 private:
  // A few MACs on one side of the link; more are not kept (evidence is then
  // only missing, never wrong).
  struct MacSet {
    static constexpr size_t kMax = 8;
    std::array<Mac, kMax> macs{};
    uint8_t n = 0;
    bool has(const Mac& m) const {
      for (uint8_t i = 0; i < n; ++i)
        if (macs[i] == m) return true;
      return false;
    }
    void add(const Mac& m) {
      if (n < kMax && !has(m)) macs[n++] = m;
    }
  };
  struct Window {
    Episode ep;               // the current (or last) episode
    bool in_episode = false;
    uint64_t start_ns = 0;    // the current interval
    uint64_t end_ns = 0;      // its expiry, or the XON that ended it

    uint64_t drain_ns = 0;    // the last packet released from the interval's backlog
    uint32_t opened_by = 0;   // the PFC frame that opened the interval
    // The interval's evidence: senders and receivers of the class seen
    // during the window (the direction that kept flowing), and of what it
    // released (the direction it held).
    MacSet flowing_src, flowing_dst, released_src, released_dst;
    size_t storm = SIZE_MAX;  // index in storms_ while the episode is a storm
  };
  static uint64_t key(uint32_t point, const Mac& mac, uint8_t priority);
  static uint64_t class_key(uint32_t point, uint8_t priority) { return uint64_t{point} << 3 | priority; }
  // Judges one packet against one window; true when the window's release is over.
  bool judge(Window& w, uint64_t k, const Mac& src, const Mac& dst, uint64_t ts_ns, uint32_t frame_len, uint32_t flow,
             double speed, Hold& h);
  void forget_released(std::vector<uint64_t>& keys, uint64_t now_ns, double speed);
  void link_to_storm(const PauseFrame& f, uint8_t p, Episode& ep, PauseVerdict& v);
  void settle(Episode& e) const;
  void close_episode(Window& w);

  // Windows judged per (point, priority); past it the oldest is dropped (Cap::pause_windows).
  static constexpr size_t kMaxLive = cap_info(Cap::pause_windows).value;
  const Config& cfg_;
  EventSink* events_;
  std::unordered_map<uint64_t, Window> windows_;
  // Per (point, priority): the windows in force or still releasing, so that a
  // packet checks those of its class at its point, whatever their MAC.
  std::unordered_map<uint64_t, std::vector<uint64_t>> live_;
  // Recent storms, in the order they were found; ones that ended more than
  // the propagation window ago are dropped from the front, so a check costs
  // the storms still in reach, not every storm of the capture.
  std::deque<StormRef> storms_;
  size_t storms_dropped_ = 0;
  uint64_t live_dropped_ = 0;  // windows dropped at kMaxLive
  uint64_t prune_before_ns_ = 0;  // frames come in time order: older storms are out of reach
  std::unordered_map<uint64_t, uint64_t> stall_counted_;  // (flow, window) -> time counted up to
};

}  // namespace roceshark::pfc
