// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/pause.h"

#include <algorithm>
#include <cmath>

namespace roceshark::gen {

int64_t rate_mbps(double gbps) { return std::max<int64_t>(1, std::llround(gbps * 1000)); }

int64_t pause_ps(uint32_t quanta, int64_t mbps) {
  // bits / (Mb/s) is microseconds: scale by 10^6 for picoseconds.
  const int64_t bits = int64_t{quanta} * kBitsPerQuantum;
  return (bits * 1'000'000 + mbps - 1) / mbps;
}

Ns pause_ns(uint32_t quanta, int64_t mbps) { return (pause_ps(quanta, mbps) + 999) / 1000; }

void PauseWindows::apply(uint8_t enable, const std::array<uint16_t, 8>& quanta, Ns now, int64_t mbps,
                         uint64_t frame) {
  for (uint8_t c = 0; c < 8; ++c) {
    if (!(enable >> c & 1)) continue;
    if (quanta[c] == 0) {
      until_[c].reset();  // XON: resume now; the pause that was in force stays named
      continue;
    }
    // A refresh up to the very end of the window keeps the pause going.
    if (!until_[c] || *until_[c] < now) opener_[c] = frame;
    until_[c] = now + pause_ns(quanta[c], mbps);
  }
}

}  // namespace roceshark::gen
