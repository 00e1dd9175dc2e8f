// SPDX-License-Identifier: GPL-2.0-or-later
// The frames behind each triage finding, collected by the `roce` tap from
// the verdicts' own flags: the first few frames and a count per clue and
// place, and the connections involved. Only frames with something wrong
// touch it.
#pragma once
#include <array>
#include <cstdint>
#include <map>
#include <set>
#include <span>
#include <tuple>

#include "epan-ext/analysis/event_log.h"
#include "epan-ext/report/frame_set.h"
#include "epan-ext/report/nak_resends.h"
#include "epan-ext/report/time_span.h"
#include "epan-ext/analysis/tap_record.h"

namespace roceshark::triage {

// What a frame shows; `a`, `b`, `c` of the key locate it. A clue that feeds
// one check of the catalogue (epan-ext/common/checks.h) carries its name.
enum class Clue : uint8_t {
  qos,          // a check failed: a = check, b = point
  remark,       // DSCP/PCP changed between points: a = from, b = to, c = remark_key()
  burst,        // a microburst starts: a = from, b = to
  negative,     // negative latency: a = from, b = to
  lossy,        // loss sign on a priority without PFC: a = point, b = priority
  loss,         // sequence NAK or resend (is_loss_sign): a = request flow, b = point
  timeout,      // timer resend: a = request flow, b = point
  rnr,          // RNR NAK: a = request flow, b = point
  nak_error,    // error NAK (the QP is dead): a = NakCode, b = point
  ce,           // ECN-CE request: a = request flow, b = point
  icrc,         // bad ICRC: a = request flow, b = point
  storm,        // PFC frame in a storm: a = point, b = priority, c = pausing MAC
  no_ecn,       // pause with no ECN before it: as storm
  propagation,  // pause following a storm elsewhere: as storm
  wrong_class,  // PFC on a class without RoCE: as storm
  bad_pfc,      // malformed PFC frame: a = point
  merged,       // two places recorded as one point: a = point
  duplicate,    // a mirror copy: a = point
  reorder_nak,  // sequence NAK reordering caused, or a resend it forced: a = request flow, b = point
  reorder,      // a late original (out of order) without a reorder NAK yet: a = request flow, b = point
  ecn_bleached, // ECN cleared between points: a = from, b = to
  ecn_unmarked, // queued beyond another hop's ECN onset, unmarked: a = from, b = to, c = priority
  vlan,         // VLAN tag stripped, added or changed between points: a = from, b = to, c = VlanChange::key()
  ce_without_cnp,  // a response long after CE marks on its QP, never a CNP: a = request flow, b = point
  mtu_mismatch, // ICMP too-big with an MTU below the quoted flow's packets: a = AnalysisFacts::icmp_report, b = point
  cnp_queued,   // a CNP queued like the data before it on a hop: a = from, b = to
  starved_by_besteffort,  // RoCE queued while best-effort took the port: a = from, b = to
  chatter,      // PFC frame in pause chatter: as storm
};

// A MAC as the key's `c`.
uint64_t mac_key(const Mac& m);
// The marking before and after a remark, packed.
uint64_t remark_key(uint8_t old_dscp, uint8_t new_dscp, int8_t old_pcp, int8_t new_pcp);
struct Remark {
  uint8_t old_dscp, new_dscp;
  int8_t old_pcp, new_pcp;  // -1 untagged
  static Remark of(uint64_t key) {
    return {static_cast<uint8_t>(key >> 24), static_cast<uint8_t>(key >> 16), static_cast<int8_t>((key >> 8 & 0xFF) - 1),
            static_cast<int8_t>((key & 0xFF) - 1)};
  }
};

// The kFrames lowest (or highest) frame numbers noted, with their times.
template <bool kLowest>
struct FewFrames {
  static constexpr size_t kFrames = 5;
  std::array<uint32_t, kFrames> frames{};
  std::array<uint64_t, kFrames> ns{};
  uint8_t n = 0;
  static bool before(uint32_t x, uint32_t y) { return kLowest ? x < y : x > y; }
  void add(uint32_t frame, uint64_t ts_ns);
  void remove(uint32_t frame);
};

// A clue's frames at one place: how many, the first few, and the earliest
// and latest time (one place's frames: the first and last frame's). A
// take-back keeps the span exact unless it took back every frame kept at
// an end (kFrames each): that end then stays at a frame taken back.
struct Evidence {
  static constexpr size_t kFrames = FewFrames<true>::kFrames;
  uint64_t count = 0;
  std::set<uint32_t> streams;
  // Keeps the lowest frames, whatever order they come in (a frame taken
  // back, or noted at settle time, can come late).
  void add(uint32_t frame, uint64_t ts_ns, uint32_t stream);
  // Takes back one frame counted here; its connection stays named.
  void remove(uint32_t frame);
  std::span<const uint32_t> first() const { return {first_.frames.data(), first_.n}; }
  const TimeSpan& when() const { return when_; }

 private:
  FewFrames<true> first_;
  FewFrames<false> last_;
  TimeSpan when_;
};

// What the selected frames of one hop showed of RoCE starved behind
// best-effort (Clue::starved_by_besteffort), for the finding.
struct StarvedHop {
  uint64_t max_wait_ns = 0;     // RoCE's longest wait on the hop
  uint8_t max_share_pct = 0;    // best-effort's largest share of the link meanwhile
  uint64_t max_be_wait_ns = 0;  // best-effort's longest average wait meanwhile
  uint8_t priority = 0;         // of the first such packet
};

class EvidenceStats {
 public:
  using Key = std::tuple<Clue, uint32_t, uint32_t, uint64_t>;
  void add(const TapRecord& r);
  void clear() { *this = EvidenceStats{}; }
  // Takes back the selected sequence NAKs a late original proved were
  // reordering's doing, and the resends they forced: reorder_nak evidence,
  // no loss sign.
  void settle(const EventLog& log, const FrameSet& selected);
  const std::map<Key, Evidence>& items() const { return items_; }
  // NAKs taken back after their resends were let go (Cap::nak_resends).
  uint64_t resends_missed() const { return resends_.missed(); }
  // Every item of one clue.
  auto of(Clue c) const {
    return std::pair{items_.lower_bound({c, 0, 0, 0}), items_.lower_bound({static_cast<Clue>(static_cast<uint8_t>(c) + 1), 0, 0, 0})};
  }
  // By hop (from, to).
  const std::map<std::pair<uint32_t, uint32_t>, StarvedHop>& starved() const { return starved_; }
  // The request flows CNPs were matched to.
  const std::set<uint32_t>& cnp_answered() const { return cnp_answered_; }

 private:
  void note(Clue c, uint32_t a, uint32_t b, uint64_t x, uint32_t frame, uint64_t ts_ns, uint32_t stream = kNoId) {
    items_[{c, a, b, x}].add(frame, ts_ns, stream);
  }
  void add_pause(const pfc::PauseVerdict& v, uint64_t ts_ns);
  void add_roce(const TapRecord& r, const Verdict& v);
  void add_starved(const hop::HopVerdict& h, const Verdict& v, uint64_t ts_ns);
  // One loss sign (and lossy-queue evidence) becomes reorder_nak evidence.
  void take_back_loss(uint32_t frame, uint64_t ts_ns, uint32_t flow, uint32_t point, uint32_t stream, uint8_t priority);

  std::map<Key, Evidence> items_;
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> lossy_;  // (point, priority) found lossy -> at that frame
  size_t nak_events_ = 0;  // of the log's, taken in
  NakResends resends_;
  std::set<uint32_t> cnp_answered_;
  std::map<std::pair<uint32_t, uint32_t>, StarvedHop> starved_;
};

}  // namespace roceshark::triage
