// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/analysis/vlan_change.h"

namespace roceshark::hop {

std::string VlanTag::text() const {
  return tagged() ? "VLAN " + std::to_string(vid) + " PCP " + std::to_string(pcp) : "untagged";
}

const char* VlanChange::verb() const {
  if (before.tagged() && !after.tagged()) return "stripped";
  return before.tagged() ? "changed" : "added";
}

std::string VlanChange::text() const {
  return std::string("VLAN tag ") + verb() + ": " + before.text() + " -> " + after.text();
}

uint64_t VlanChange::key() const {
  const auto one = [](const VlanTag& t) { return uint64_t{t.vid} << 4 | static_cast<uint8_t>(t.pcp + 1); };
  return one(before) << 16 | one(after);
}

VlanChange VlanChange::of(uint64_t key) {
  const auto one = [](uint64_t x) {
    return VlanTag{static_cast<uint16_t>(x >> 4 & 0xFFF), static_cast<int8_t>(static_cast<int>(x & 0xF) - 1)};
  };
  return {one(key >> 16 & 0xFFFF), one(key & 0xFFFF)};
}

}  // namespace roceshark::hop
