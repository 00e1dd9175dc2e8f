// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/rnr_timer.h"

#include <array>

namespace roceshark::gen {

Ns rnr_timer_ns(uint8_t code) {
  // In units of 10 us, indexed by code.
  static constexpr std::array<Ns, 32> kTenMicros{
      65536, 1,    2,    3,    4,    6,    8,     12,    16,    24,    32,
      48,    64,   96,   128,  192,  256,  384,   512,   768,   1024,  1536,
      2048,  3072, 4096, 6144, 8192, 12288, 16384, 24576, 32768, 49152};
  return kTenMicros[code & 0x1F] * 10'000;
}

}  // namespace roceshark::gen
