// SPDX-License-Identifier: GPL-2.0-or-later
// What a hop verdict says on its packet: the catalogue flags it sets, in
// tree order, and the expert info text of the one packet each reports on
// (the first of its kind on the hop). The glue adds them as they are, so a
// new hop check is a catalogue row and a line here, not glue.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "epan-ext/checks.h"
#include "epan-ext/hop_matcher.h"
#include "epan-ext/verdict.h"

namespace roceshark::hop {

struct HopNote {
  checks::Kind kind;
  bool expert = false;  // this packet carries the check's expert info, with `text`
  std::string text;
};

// `v` is the packet at `point`; `h` its hop from `prev`.
std::vector<HopNote> hop_notes(const HopVerdict& h, const Verdict& v, std::string_view prev, std::string_view point);

}  // namespace roceshark::hop
