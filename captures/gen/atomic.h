// SPDX-License-Identifier: GPL-2.0-or-later
// An RDMA ATOMIC operation on the responder's 8-byte target (IBA vol. 1
// 9.4.5): FetchAdd adds, CmpSwap swaps when the target equals `compare`.
// Either way the requester gets the original value back.
#pragma once
#include <cstdint>

namespace roceshark::gen {

struct AtomicArgs {
  uint64_t swap_add = 0;  // the swap data (CmpSwap) or the addend (FetchAdd)
  uint64_t compare = 0;   // CmpSwap only
};

// Executes it on `target` and returns the original value.
inline uint64_t execute_atomic(bool cmp_swap, const AtomicArgs& a, uint64_t& target) {
  const uint64_t original = target;
  if (!cmp_swap) target += a.swap_add;
  else if (target == a.compare) target = a.swap_add;
  return original;
}

}  // namespace roceshark::gen
