// SPDX-License-Identifier: GPL-2.0-or-later
// A packet's VLAN tag at two points: stripped, added or re-tagged on the
// hop between. Its PCP goes or comes with the tag, so a port trusting PCP
// downstream queues it by whatever it now carries.
#pragma once
#include <cstdint>
#include <string>

namespace roceshark::hop {

struct VlanTag {
  uint16_t vid = 0;
  int8_t pcp = -1;  // -1 untagged
  bool tagged() const { return pcp >= 0; }
  std::string text() const;  // "VLAN 100 PCP 3", "untagged"
};

struct VlanChange {
  VlanTag before, after;
  const char* verb() const;  // "stripped", "added", "changed"
  std::string text() const;  // "VLAN tag stripped: VLAN 100 PCP 3 -> untagged"
  // Packed, for an evidence key.
  uint64_t key() const;
  static VlanChange of(uint64_t key);
};

}  // namespace roceshark::hop
