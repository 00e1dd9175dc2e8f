// SPDX-License-Identifier: GPL-2.0-or-later
// PFC pause time and the pause windows of one transmitter.
//
// A pause quantum is 512 bit times of the link that carries the PFC frame:
// 5.12 ns at 100 Gb/s, 20.48 ns at 25 Gb/s, 1.28 ns at 400 Gb/s. A frame
// sets, per enabled class, a window from its own time for quanta x 512 bit
// times; a later frame for the class replaces the window (a refresh), and
// quanta 0 (XON) ends it at once. A pause is the run of windows one XOFF
// opens and its refreshes keep open without a break: an XOFF after the
// window has expired, or after an XON, opens a new one.
#pragma once
#include <array>
#include <cstdint>
#include <optional>

#include "captures/gen/units.h"

namespace roceshark::gen {

inline constexpr int64_t kBitsPerQuantum = 512;

// Link rate in Mb/s, as the simulation keeps it (llround(Gb/s x 1000)).
int64_t rate_mbps(double gbps);
// Exact pause length in picoseconds, rounded up.
int64_t pause_ps(uint32_t quanta, int64_t mbps);
// The same in whole nanoseconds, rounded up: a held frame never leaves early.
Ns pause_ns(uint32_t quanta, int64_t mbps);

class PauseWindows {
 public:
  // A PFC frame with id `frame` at `now`: refreshes (quanta > 0) or ends
  // (quanta 0) the window of every class in `enable`.
  void apply(uint8_t enable, const std::array<uint16_t, 8>& quanta, Ns now, int64_t mbps, uint64_t frame);
  bool paused(uint8_t prio, Ns now) const { return until_[prio] && *until_[prio] > now; }
  // When the window of `prio` ends (stays set once past, until XON or a refresh).
  std::optional<Ns> until(uint8_t prio) const { return until_[prio]; }
  // The XOFF that opened the pause in force, or last in force; 0 if none.
  uint64_t opener(uint8_t prio) const { return opener_[prio]; }

 private:
  std::array<std::optional<Ns>, 8> until_{};
  std::array<uint64_t, 8> opener_{};
};

}  // namespace roceshark::gen
