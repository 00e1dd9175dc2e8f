// SPDX-License-Identifier: GPL-2.0-or-later
// Decides, when a packet is sent, what the scenario's drop / corrupt /
// ecn_mark directives will do to it on its way.
#pragma once
#include <cstdint>
#include <map>
#include <optional>
#include <vector>

#include "captures/gen/scenario.h"

namespace roceshark::gen {

struct Fates {
  std::optional<size_t> drop_segment;     // lost while crossing this segment
  std::optional<size_t> corrupt_segment;  // a payload byte flips on this segment
  uint32_t corrupt_byte = 0;
  std::optional<size_t> mark_hop;         // CE set at this point (travel order)
  std::optional<size_t> reorder_segment;  // takes a longer way across this segment ...
  Ns reorder_delay = 0;                   // ... arriving this much later
  std::optional<size_t> miss_hop;         // the tap at this point (travel order) does not record it
};

class FaultBook {
 public:
  explicit FaultBook(const Scenario& sc);

  // `offset` is the packet's PSN minus the requester's start PSN, mod 2^24.
  // Counts the transmission, so call it once per packet sent.
  Fates decide(size_t qp, int req_side, Traffic traffic, uint32_t offset);

  // Source lines of directives that never touched a packet: a scenario
  // mistake, since the capture would not show what its author meant.
  std::vector<int> unused() const;

 private:
  struct Counter {
    std::map<uint32_t, uint32_t> sent;  // transmissions per PSN offset
    bool fired = false;
  };
  static bool hit(const PacketSelect& s, Counter& c, size_t qp, int side, Traffic t, uint32_t offset);

  const Scenario& sc_;
  std::vector<Counter> drops_, corrupts_, marks_, reorders_, misses_;
};

}  // namespace roceshark::gen
