// SPDX-License-Identifier: GPL-2.0-or-later
#pragma once
#include <cstdint>

#include "captures/gen/units.h"

namespace roceshark::gen {

// The RNR NAK timer field (5 bits) as a wait time: IBA vol. 1 table 45.
// Code 0 is the longest wait (655.36 ms), 1 the shortest (10 us).
Ns rnr_timer_ns(uint8_t code);

}  // namespace roceshark::gen
