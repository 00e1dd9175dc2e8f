// SPDX-License-Identifier: GPL-2.0-or-later
// The same RoCE packet at several capture points (docs/multipoint.md).
//
// A transmission is recognised at each point by what no hop changes: IP
// addresses, destination QP, PSN, opcode, payload length and the IPv4 ID.
// Copies with the same identity at one point (a resend keeps its original's
// bytes when the IPv4 ID is 0, or over IPv6) are told apart by what the
// sequence analysis at each point calls them, then by order: the k-th
// original (resend) at one point is the k-th original (resend) at another.
// Where that still leaves several resends, the one still in flight on the
// hop (not yet taken as arrived or lost) is taken: the hop stays FIFO and
// its latency steady. Matching state is bounded by the match window (copies
// older than it are forgotten) and by kMaxCopies per identity (a hostile
// capture repeating one packet cannot make matching quadratic).
//
// Loss between points: when a packet reaches the next point, every earlier
// packet of the flow that passed the previous point and has not reached the
// next one is taken as lost between them. Adaptive routing and packet
// spraying reorder a flow, though: a packet so taken that reaches the next
// point later within the match window was overtaken, not lost, and is
// counted as reordered on that hop instead. A packet still unmatched when
// the window passes, with no later packet of its flow to show it should have
// arrived, is not counted (the capture may have ended, or the tap missed it).
// A request's first transmission taken as lost is a suspect until proven:
// a resend of its PSN confirms the loss; an ACK of the responder covering
// its PSN before any resend proves it arrived, so the tap at the far point
// missed its copy (SPAN ports drop copies under load), and the loss is
// taken back (hop_missed).
//
// Until a second point appears, packets only wait in a window-long buffer:
// a single-point capture pays for a queue, not for matching.
#pragma once
#include <cstdint>
#include <deque>
#include <map>
#include <set>
#include <tuple>
#include <optional>
#include <span>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "epan-ext/analysis/clock_offset.h"
#include "epan-ext/common/config.h"
#include "epan-ext/common/limits.h"
#include "epan-ext/analysis/event_sink.h"
#include "epan-ext/analysis/vlan_change.h"
#include "epan-ext/analysis/window_table.h"

namespace roceshark::hop {

struct Copy {
  uint32_t point = 0;
  uint32_t frame = 0;
  uint64_t ts_ns = 0;
  uint8_t dscp = 0;
  int8_t pcp = -1;
  uint8_t ecn = 0;
  uint8_t ttl = 0;
  uint16_t vlan = 0;  // VLAN id, 0 untagged (pcp tells a priority tag)
  uint16_t len = 0;   // bytes on the wire, at most 65535
  uint32_t psn = 0;
  // A request's first transmission: the responder's cumulative ACK proves
  // it arrived, so a loss of it that such an ACK covers was the tap's miss.
  bool original_request = false;
  // The sequence analysis at this point calls it a resend of its PSN:
  // identical copies match resend to resend (the lost one is the original).
  bool resend = false;
};

// Frame lengths the matcher keeps: a jumbo frame fits, a bogus length is capped.
inline uint16_t capped_len(uint32_t len) { return static_cast<uint16_t>(len > 0xFFFF ? 0xFFFF : len); }

// What matching says about one packet, stored only for packets seen at more
// than one point.
struct HopVerdict {
  uint32_t frame = 0;
  uint32_t prev_point = 0;
  uint32_t prev_frame = 0;
  int64_t latency_ns = 0;   // from the previous point, clock-corrected in estimate mode
  uint64_t queue_ns = 0;    // latency above the hop's minimum so far
  // A later packet of its flow got here first: it took a longer way (adaptive
  // routing, spraying), so its extra latency is no queueing in this hop's
  // queue, where a flow keeps its order. Neither a burst nor an ECN sample.
  bool overtaken = false;
  int16_t ttl_delta = 0;    // TTL here minus TTL there
  uint8_t prev_dscp = 0;
  int8_t prev_pcp = -1;
  uint8_t prev_ecn = 0;
  uint16_t prev_vlan = 0, vlan = 0;  // VLAN ids there and here
  uint16_t prev_len = 0;    // the frame's length at the previous point
  bool remarked = false;    // DSCP differs, or PCP within the same VLAN tag
  bool vlan_changed = false;  // the tag stripped, added or given another VLAN id
  bool ecn_bleached = false;  // ECN-capable there and Not-ECT here, or CE there and not here
  bool ce_set = false;      // ECN-CE here, not there
  bool microburst = false;  // queue above roce.microburst_us
  bool burst_start = false; // the first packet of such a burst on this hop
  bool negative = false;    // latency below zero: clocks not synced
  bool remark_first = false;   // first remark on this hop and flow: the expert info
  bool bleach_first = false;   // first ECN bleaching on this hop and flow
  bool vlan_first = false;     // first VLAN change on this hop and flow
  bool negative_first = false; // first negative latency on this hop and flow
  // ECN-capable, queued beyond another hop's marking onset (same priority)
  // plus roce.ecn_onset_tolerance_us and not marked, on a hop whose
  // marking so far differs (epan-ext/analysis/ecn_compare.h); set by the analyzer.
  bool ecn_unmarked = false;
  bool ecn_unmarked_first = false;  // the first on this hop and priority: the expert info
  // A CNP's wait on this hop, when it is at least half as long as that of
  // RoCE data queued 10 us or more just before it: not in a class of its
  // own (epan-ext/analysis/cnp_queueing.h); set by the analyzer. Measured above the
  // data's base latency (a CNP flow's own minimum may be queued too); 0:
  // not such a CNP.
  uint64_t cnp_wait_ns = 0;
  bool cnp_queued_first = false;  // the first on this hop: the expert info
  // RoCE that waited here while best-effort took the port (epan-ext/analysis/besteffort.h):
  // best-effort's share of the bytes that left meanwhile (0: not such a
  // packet), how full they kept the link, and best-effort's average wait.
  uint8_t be_share_pct = 0, be_fill_pct = 0;
  uint64_t be_wait_ns = 0;
  bool be_starved_first = false;  // the hop's evidence is enough with this one: the expert info
  uint32_t first_point = 0;    // the most upstream point that saw this transmission
  int64_t e2e_ns = 0;          // from there to here
  bool operator==(const HopVerdict&) const = default;
};

// Whether the packet shows the hop's ECN marking against its queueing: ECT
// at the previous point (a CE packet cannot be marked again), and not
// overtaken (its extra latency was not spent in the queue that marks).
inline bool ecn_sample(const HopVerdict& h) { return !h.overtaken && (h.prev_ecn == 1 || h.prev_ecn == 2); }

// The tag there and here (`pcp`: this packet's).
inline VlanChange vlan_change(const HopVerdict& h, int8_t pcp) { return {{h.prev_vlan, h.prev_pcp}, {h.vlan, pcp}}; }

// Histograms take no negative values: a latency below zero (clocks not
// synced, flagged as such) counts as 0.
inline uint64_t nonnegative_ns(int64_t ns) { return ns < 0 ? 0 : static_cast<uint64_t>(ns); }

// What the analysis itself keeps per hop: the minimum latency (queueing is
// measured above it) and the frames it took as lost (emitted as events; kept
// to take one back when its packet turns up late).
struct HopState {
  int64_t min_latency_ns = INT64_MAX;
  std::set<uint32_t> lost_frames;    // upstream frames still taken as lost (losses are rare)
  uint16_t largest_passed = 0;       // the longest frame (its length upstream) that crossed
  // Expert infos once per hop, and whether a burst is under way.
  bool in_burst = false, remark_reported = false, negative_reported = false, bleach_reported = false,
       vlan_reported = false;
};

class HopMatcher {
 public:
  // Losses, late arrivals and clock skews go to `events` (none: not wanted).
  explicit HopMatcher(const Config& cfg, EventSink* events = nullptr) : cfg_(cfg), events_(events), clocks_(cfg) {}

  // One RoCE packet of `flow` (directed; `reverse` is its connection's
  // other direction, or UINT32_MAX) with invariant identity `id`. Returns a
  // verdict when a copy of it was already seen at another point.
  std::optional<HopVerdict> on_packet(uint64_t id, uint32_t flow, uint32_t reverse, const Copy& c);

  // A resend of `flow`'s `psn` (at any point): a loss of its original stands.
  void resent(uint32_t flow, uint32_t psn);
  // The responder acknowledged `flow`'s requests up to `psn` at `frame`,
  // captured at `point`: originals taken as lost after `point` and not
  // resent since did arrive. Only there: a resend passes the same point
  // before the ACK it draws, on the same clock, whatever other points'
  // clocks say.
  void acknowledged(uint32_t flow, uint32_t psn, uint32_t frame, uint32_t point);
  // The flow's QP was reused (a new connection): its suspects are void.
  void forget_suspects(uint32_t flow) { suspects_.erase(flow); }

  // When the transmission `id` passed other points once each and not yet
  // `point`: the latest of those copies' times (0 otherwise). A resend of it
  // with the same identity would have passed those points a second time.
  uint64_t passed_elsewhere_once(uint64_t id, uint32_t point);

  const std::map<HopKey, HopState>& hops() const { return hops_; }
  // The longest frame any flow got across from `from` to `to`, 0 if none.
  uint16_t largest_passed(uint32_t from, uint32_t to) const;
  const ClockEstimator& clocks() const { return clocks_; }
  size_t open_groups() const { return groups_.size(); }
  // Copies past kMaxCopies of one packet, not matched; suspects let go at
  // kMaxSuspects of one flow (the internal caps, common/limits.h).
  uint64_t copies_unmatched() const { return copies_unmatched_; }
  uint64_t suspects_dropped() const { return suspects_dropped_; }
  bool active() const { return active_; }

 private:
  static constexpr size_t kMaxCopies = cap_info(Cap::copies).value;
  // A transmission's copies in arrival order: three inline (one per point
  // of a typical path), the rest (retransmissions, longer paths) beside.
  struct Group {
    uint32_t flow = 0;
    uint8_t n = 0;
    Copy inline_copies[3];
    std::vector<Copy> more;
    const Copy& at(size_t i) const { return i < 3 ? inline_copies[i] : more[i - 3]; }
    void push(const Copy& c);
  };
  struct FlowPath {
    std::vector<uint32_t> points;  // upstream to downstream, as learned
    int pref_forward = 0;          // along roce.path_order (+1) or against it (-1); 0 not yet known
  };
  struct Pending {
    uint32_t frame;
    uint16_t len;
    bool original_request;
    uint64_t ts_ns;
    uint32_t psn;
  };
  // A request's original taken as lost, until a resend or an ACK settles it.
  struct Suspect {
    HopKey key;
    uint32_t frame, psn;
  };
  // Per flow: past it the oldest stays lost, unproven.
  static constexpr size_t kMaxSuspects = cap_info(Cap::suspects).value;
  struct Waiting {
    uint64_t id;
    uint32_t flow, reverse;
    Copy copy;
  };
  std::optional<HopVerdict> match(uint64_t id, uint32_t flow, uint32_t reverse, const Copy& c);
  // `c`'s counterpart among the group's copies at `point`, if any.
  const Copy* counterpart(const Group& g, const Copy& c, uint32_t point, uint32_t flow) const;
  bool in_flight(uint32_t flow, uint32_t point, uint32_t frame) const;
  void evict(uint64_t now_ns);
  // The next point on the flow's path after `point`, or UINT32_MAX.
  uint32_t next_point(uint32_t flow, uint32_t point) const;
  // True when the packet was overtaken: taken as lost, then it arrived.
  bool arrived(uint32_t flow, uint32_t from, uint32_t to, uint32_t prev_frame, uint32_t frame);
  bool upstream(const Copy& o, const Copy& c, uint32_t flow);
  static void learn_path(FlowPath& path, uint32_t up, uint32_t down);
  int64_t corrected(const Copy& c) const;

  const Config& cfg_;
  EventSink* events_;
  ClockEstimator clocks_;
  uint64_t now_ns_ = 0;
  bool active_ = false;
  uint32_t only_point_ = UINT32_MAX;
  std::deque<Waiting> waiting_;  // while inactive: the last window of packets at the only point
  WindowTable<Group> groups_;
  std::unordered_map<uint32_t, FlowPath> paths_;
  std::map<HopKey, HopState> hops_;
  // Per (flow << 32 | point): copies not yet seen at the next point.
  std::unordered_map<uint64_t, std::deque<Pending>> pending_;
  std::unordered_map<uint32_t, std::deque<Suspect>> suspects_;  // by flow; losses are rare
  static constexpr uint32_t kSweepEvery = 4096;
  uint32_t since_sweep_ = 0;
  uint64_t copies_unmatched_ = 0, suspects_dropped_ = 0;
};

}  // namespace roceshark::hop
