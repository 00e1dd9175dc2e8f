// SPDX-License-Identifier: GPL-2.0-or-later
// A microburst at a capture point (`queue`): cross traffic, not modelled
// packet by packet, fills the egress queue of the device that feeds the
// tapped link. From `at` for `length` the backlog grows linearly to
// `delay`, then it drains at line rate (one ns per ns), so it is gone at
// at + length + delay:
//
//   backlog
//   delay |          *
//         |       *     *
//         |    *           *        up: delay/length per ns; down: 1 ns per ns
//       0 +-*-----------------*-----
//           at       at+length   at+length+delay
//
// A frame of the burst's direction that reaches the queue at t waits
// backlog(t) (in whole ns, rounded down), or longer when the frame before
// it is still queued: frames leave the queue in order, each at least its
// serialization time after the previous one.
#pragma once
#include <array>
#include <cstddef>
#include <optional>

#include "captures/gen/units.h"

namespace roceshark::gen {

struct QueueBurst {
  size_t point = 0;
  Ns delay = 0;   // the largest backlog, reached at at + length
  Ns at = 0;
  Ns length = 0;  // `for=`
  std::optional<std::array<size_t, 2>> dir;  // only host [0] -> host [1]; else both directions
  // `cnp=strict`: CNPs are in a strict-priority class of their own and skip
  // the backlog; by default (`cnp=shared`) they wait in it like the data.
  bool cnp_strict = false;
  int line = 0;

  Ns backlog(Ns t) const;
  Ns end() const { return at + length + delay; }  // the queue is empty again
};

}  // namespace roceshark::gen
