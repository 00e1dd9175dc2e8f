// SPDX-License-Identifier: GPL-2.0-or-later
// What a port announces in LLDP (the IEEE 802.1Qaz DCBX TLVs and the 802.3
// maximum frame size), compared with the QoS policy and with the RoCE
// traffic seen at the same capture point: PFC must be on for every priority
// RoCE rides on, the APP table's DSCP -> priority entries must put RoCE
// where the policy and the traffic expect it, and the port must take the
// RoCE frames that cross its link.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "epan-ext/common/checks.h"
#include "epan-ext/decode/dcbx_announcement.h"
#include "epan-ext/common/qos_policy.h"

namespace roceshark::qos {

const char* tsa_name(uint8_t tsa);  // "strict", "CBS", "ETS", "vendor", "TSA 7"
// "prio->TC 0,0,0,3,0,0,6,0; TC0 ETS 50%, TC3 ETS 50%, TC6 strict": the
// classes some priority uses.
std::string format_ets(const EtsTable& t);

struct DcbxFinding {
  enum class Kind : uint8_t {
    pfc_off_on_roce_priority,
    app_disagrees_with_policy,
    app_disagrees_with_traffic,
    max_frame_below_roce,
    ets_roce_no_bandwidth,
    ets_cnp_shared,
    ets_differs_between_ports,
  } kind;
  uint8_t priority = 0;   // the RoCE priority concerned (for APP findings: the policy's for that DSCP)
  uint8_t dscp = 0;       // APP findings only
  uint8_t announced = 0;  // the priority the APP entry gives, or the PFC bitmap
  std::string text;       // one line for an expert info; the caller names the point
  uint32_t largest_frame = 0;  // max_frame_below_roce: the longest RoCE frame seen at the point
};

// An LLDP frame's DCBX announcement and what it contradicts, per frame.
struct DcbxVerdict {
  uint32_t frame = 0;
  DcbxAnnouncement announcement;
  std::vector<DcbxFinding> findings;
};

const char* finding_kind_name(DcbxFinding::Kind k);  // "pfc_off_on_roce_priority", ...

// The catalogue row a finding is reported under, and its expert there.
struct CheckOf {
  checks::Kind row;
  size_t expert;
};
CheckOf check_of(DcbxFinding::Kind k);
// What the finding's TLV belongs to, for titles: "LLDP" (802.3) or "DCBX".
const char* announced_in(DcbxFinding::Kind k);
// Its expert info on the LLDP frame from `from` at `point`.
std::string expert_text(const DcbxFinding& f, std::string_view from, std::string_view point);

// What RoCE (requests and responses, not CNPs) showed at a point so far:
// bit d of `dscps` for DSCP d, bit p of `priorities` for the effective
// priority p, and its longest frame (bytes on the wire).
struct Seen {
  uint64_t dscps = 0;
  uint8_t priorities = 0;
  uint32_t largest_frame = 0;
};

// The first ETS Configuration seen, which the later ports' are compared with.
struct EtsReference {
  uint32_t frame = 0;
  std::array<uint8_t, 6> mac{};
  EtsTable table;
};

// At the LLDP frame: compare with the policy and with the RoCE seen so far
// at that point (Checker::seen(point)), and its ETS Configuration with the
// first one seen from another port (`ref`, may be null). Findings: PFC ones by priority, then
// APP ones in announcement order, at most one per APP entry (the traffic one
// when both apply), then the maximum frame size. That size counts the FCS,
// which captures usually drop, so a frame is above it only when its length
// as captured already is: never a false finding, at most 4 bytes missed.
std::vector<DcbxFinding> compare(const DcbxAnnouncement& a, const Policy& p, const Seen& seen,
                                 const EtsReference* ref);


}  // namespace roceshark::qos
