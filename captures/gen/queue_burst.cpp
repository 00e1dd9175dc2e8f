// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/queue_burst.h"

namespace roceshark::gen {

Ns QueueBurst::backlog(Ns t) const {
  if (t < at || t >= end()) return 0;
  if (t < at + length) return delay * (t - at) / length;  // filling
  return delay - (t - at - length);                        // draining at line rate
}

}  // namespace roceshark::gen
