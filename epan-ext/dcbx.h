// SPDX-License-Identifier: GPL-2.0-or-later
// What a port announces in DCBX (IEEE 802.1Qaz TLVs in LLDP), compared with
// the QoS policy and with the RoCE traffic seen at the same capture point:
// PFC must be on for every priority RoCE rides on, and the APP table's
// DSCP -> priority entries must put RoCE where the policy and the traffic
// expect it.
#pragma once
#include <array>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "epan-ext/qos_policy.h"

namespace roceshark::qos {

struct DcbxAnnouncement {
  uint32_t point = 0;
  std::array<uint8_t, 6> mac{};  // the announcing port (LLDP source MAC)
  bool has_pfc = false;          // a PFC Configuration TLV was present
  uint8_t pfc_enabled = 0;       // bit p: PFC enabled on priority p
  std::vector<std::pair<uint8_t, uint8_t>> app_dscp;  // (dscp, priority), APP selector 5
  bool operator==(const DcbxAnnouncement&) const = default;
};

struct DcbxFinding {
  enum class Kind : uint8_t { pfc_off_on_roce_priority, app_disagrees_with_policy, app_disagrees_with_traffic } kind;
  uint8_t priority = 0;   // the RoCE priority concerned (for APP findings: the policy's for that DSCP)
  uint8_t dscp = 0;       // APP findings only
  uint8_t announced = 0;  // the priority the APP entry gives, or the PFC bitmap
  std::string text;       // one line for an expert info; the caller names the point
};

// An LLDP frame's DCBX announcement and what it contradicts, per frame.
struct DcbxVerdict {
  uint32_t frame = 0;
  DcbxAnnouncement announcement;
  std::vector<DcbxFinding> findings;
};

const char* finding_kind_name(DcbxFinding::Kind k);  // "pfc_off_on_roce_priority", ...

// At the LLDP frame: compare with the policy and with the RoCE marking seen
// so far at that point (Checker::seen(point): `seen_dscps` bit d if RoCE used
// DSCP d there, `seen_priorities` bit p if RoCE used priority p there; CNPs
// excluded). Findings: PFC ones by priority, then APP ones in announcement
// order, at most one per APP entry (the traffic one when both apply).
std::vector<DcbxFinding> compare(const DcbxAnnouncement& a, const Policy& p, uint64_t seen_dscps,
                                 uint8_t seen_priorities);


}  // namespace roceshark::qos
