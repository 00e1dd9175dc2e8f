// SPDX-License-Identifier: GPL-2.0-or-later
// What a hop verdict says on its packet: the catalogue flags it sets, in
// tree order, and the expert info text of the one packet each reports on
// (the first of its kind on the hop). The glue adds them as they are, so a
// new hop check is a catalogue row and a line here, not glue.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "epan-ext/common/checks.h"
#include "epan-ext/analysis/clock_offset.h"
#include "epan-ext/analysis/hop_matcher.h"
#include "epan-ext/analysis/verdict.h"

namespace roceshark::hop {

struct HopNote {
  checks::Kind kind;
  bool expert = false;  // this packet carries the check's expert info, with `text`
  std::string text;
};

// `v` is the packet at `point`; `h` its hop from `prev`.
std::vector<HopNote> hop_notes(const HopVerdict& h, const Verdict& v, std::string_view prev, std::string_view point);

// A packet lost after `point` on its way to `next` (known once the match
// window has passed): the loss, and, when it is longer than any frame that
// crossed that hop (`largest_passed`, 0: none yet), the MTU as its likely cause.
std::vector<HopNote> lost_notes(uint32_t frame_len, uint16_t largest_passed, std::string_view point, std::string_view next);

// The expert info texts of the hop's later events and clock checks.
std::string negative_latency_text(std::string_view prev, std::string_view point, int64_t latency_ns);
std::string skew_text(const ClockEstimator::Estimate& e, std::string_view a_name, std::string_view b_name);
std::string merged_points_text(std::string_view point, uint32_t qp, uint8_t ttl);
std::string lost_after_text(std::string_view point);
// Lost between two points, and longer than anything that crossed them.
std::string lost_too_big_text(std::string_view point, std::string_view next, uint32_t len, uint32_t passed);

}  // namespace roceshark::hop
