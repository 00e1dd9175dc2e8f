// SPDX-License-Identifier: GPL-2.0-or-later
// The findings a person can place in time: one event per loss, resend run,
// pause episode, remark and CE onset, from the tapped verdicts and the
// engine's event log (`roceshark events`, docs/command.md "EVENTS"). It
// only groups what the engine concluded; it judges nothing itself.
#pragma once
#include <algorithm>
#include <cstdint>
#include <map>
#include <tuple>
#include <vector>

#include "epan-ext/analysis/event_log.h"
#include "epan-ext/analysis/tap_record.h"
#include "epan-ext/report/frame_set.h"

namespace roceshark::events {

enum class Kind : uint8_t { hop_loss, psn_gap, reorder, resend_run, pause, remark, ce_onset };
const char* kind_name(Kind k);

struct Event {
  uint64_t ts_ns = 0;
  Kind kind = Kind::psn_gap;
  uint32_t point = 0;
  uint32_t to = kNoId;  // a hop's event: from `point` to `to`
  uint32_t flow = kNoId;
  uint32_t frame = 0, last_frame = 0;  // first and last frame (0: one frame)
  uint64_t count = 1;                  // PSNs missing, packets resent/remarked/marked, pause frames
  uint64_t duration_ns = 0;            // pause: the episode's span; run: first to last resend
  uint64_t paused_ns = 0;              // pause: asserted time within the episode
  int priority = -1;
  uint32_t psn = 0;                    // gap: the first missing; run: the first resent; hop loss: the lost one
  SeqClass cause = SeqClass::none;     // run: how it was resent
  uint64_t key = 0;                    // remark: triage::remark_key
  Mac mac{};                           // pause: the pausing MAC
  uint32_t nak_frame = 0;              // run: the NAK that started it
  uint32_t late = 0;                   // gap: PSNs that arrived late since
  bool reorder_nak = false;            // run: forced by a NAK reordering caused
  bool storm = false, chatter = false;  // pause
  bool open = false;  // pause: still asserted at the input's last frame
};

class EventList {
 public:
  // Every frame of the input, selected or not: the latest time (the start
  // and the stamps' resolution are the analysis clock's, point_clock.h).
  void reach(uint64_t ts_ns) { last_ns_ = std::max(last_ns_, ts_ns); }
  void add(const TapRecord& r);
  // Every event, with the log's (hop losses not taken back, pause episodes
  // whose first frame is selected), in time order.
  std::vector<Event> settled(const EventLog& log, const FrameSet& selected) const;

 private:
  using Place = std::tuple<uint32_t, uint32_t, uint32_t>;  // (flow, point, to) or (flow, from, to)
  void add_roce(const TapRecord& r, const Verdict& v);
  // Counts `next` into the event `open[place]` indexes, or makes it that event.
  void grow(std::map<Place, size_t>& open, const Place& place, const Event& next);

  std::vector<Event> events_;
  std::map<Place, size_t> runs_, remarks_, ce_;
  std::map<std::pair<uint32_t, uint32_t>, std::vector<size_t>> gaps_;  // (flow, point) -> psn_gap events
  uint64_t last_ns_ = 0;
};

}  // namespace roceshark::events
