// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/prng.h"

namespace roceshark::gen {

void fill_bytes(uint64_t key, std::span<uint8_t> out) {
  Prng rng(key);
  uint64_t v = 0;
  for (size_t i = 0; i < out.size(); ++i) {
    if (i % 8 == 0) v = rng.next();
    out[i] = static_cast<uint8_t>(v >> (8 * (i % 8)));  // explicit LE: same bytes on any host
  }
}

}  // namespace roceshark::gen
