// SPDX-License-Identifier: GPL-2.0-or-later
// The QoS consistency checks: is each RoCE packet marked and mapped into the
// class the policy says (lossless priority, L2/L3 agreement, ECN on, CNPs in
// their own class), and does each flow keep one marking at a point?
//
// check() is called once per RoCE packet, in frame order, on the first pass.
// A verdict depends only on the packets before it (learned mode included), so
// one-pass and two-pass results are the same.
#pragma once
#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "epan-ext/analysis/dcbx.h"
#include "epan-ext/common/qos_policy.h"
#include "epan-ext/analysis/qos_verdict.h"

namespace roceshark::qos {

struct Marking {
  uint8_t dscp = 0;
  uint8_t ecn = 0;      // 0 Not-ECT, 1 ECT(1), 2 ECT(0), 3 CE
  int8_t pcp = -1;      // -1 untagged
  bool is_cnp = false;
  bool is_request = false;  // RoCE data (SEND/WRITE/READ request/ATOMIC); responses are false
  bool has_ecn = true;      // IP carries ECN; RoCEv1 (no IP, no DCQCN ECN) does not
  uint16_t vlan = 0;        // VLAN id, 0 untagged
  uint32_t frame_len = 0;   // bytes on the wire, for the LLDP maximum frame size
};

// The marking inconsistent_marking compares a flow with at a point: that
// of its first non-CNP packet there.
struct FirstMarking {
  uint8_t dscp;
  int8_t pcp;
  uint16_t vlan;
};

const char* ecn_name(uint8_t ecn);  // "Not-ECT", "ECT(1)", "ECT(0)", "CE"
inline bool ecn_capable(uint8_t ecn) { return (ecn & 3u) != 0; }  // CE was ECN-capable when marked
std::string vlan_text(uint16_t vlan);  // "VLAN 200", "no VLAN id" for 0

// One line for the expert info of a failed check on this packet, e.g.
// "DSCP 0 gives priority 0, which is not lossless (lossless: 3)". `policy` is
// the one in force when the packet was checked; `first` is the flow's first
// marking at the point, which inconsistent_marking names when only the VLAN
// id differs.
std::string explain(Check c, const Marking& m, const Policy& policy,
                    const std::optional<FirstMarking>& first = std::nullopt);
// The expert info: "QoS <check> on QP 0x00abcd at <point>: <why>".
std::string expert_text(Check c, uint32_t qp, std::string_view point, const std::string& why);

class Checker {
 public:
  // Learned mode judges nothing before this many RoCE data packets...
  static constexpr uint64_t kLearnMin = 32;
  // ...and no CNP before this many CNPs.
  static constexpr uint64_t kLearnCnpMin = 4;

  explicit Checker(const Policy& p);
  Checker(const Checker&) = delete;  // it keeps pointers into its own maps
  Checker& operator=(const Checker&) = delete;

  // One RoCE packet of directed flow `flow` (one direction of one QP, an id
  // the caller gives) at capture point `point`.
  QosVerdict check(uint32_t flow, uint32_t point, const Marking& m);

  // The policy in force: the configured one, or what learned mode has
  // inferred so far (map and trust stay as configured).
  const Policy& policy() const { return policy_; }
  const Policy& configured() const { return configured_; }

  // Learned mode: the dominant markings and how many packets they come from.
  struct Learned {
    bool ready = false;      // data_samples >= kLearnMin: data checks apply
    bool cnp_ready = false;  // also cnp_samples >= kLearnCnpMin: the CNP check applies
    uint8_t data_dscp = 0;
    int8_t data_pcp = -1;    // -1 untagged
    uint8_t data_ecn = 0;
    uint8_t cnp_dscp = 0;
    int8_t cnp_pcp = -1;
    uint64_t data_samples = 0;  // RoCE requests
    uint64_t cnp_samples = 0;
  };
  Learned learned() const;

  // What RoCE used at a point so far, for DCBX's compare().
  Seen seen(uint32_t point) const;

  std::optional<FirstMarking> first_marking(uint32_t flow, uint32_t point) const;

 private:
  // A few bytes per (flow, point).
  struct FlowPoint {
    uint8_t dscp = 0;
    int8_t pcp = -1;
    bool has_marking = false;
    uint8_t reported = 0;  // bit(Check) already raised once here
    uint16_t vlan = 0;
  };
  // Counts per value; the leader changes only when overtaken, so ties keep
  // the value that got there first.
  template <size_t N>
  struct Tally {
    std::array<uint64_t, N> n{};
    uint64_t total = 0;
    uint8_t top = 0;
    void add(size_t i) {
      ++total;
      if (++n[i] > n[top]) top = static_cast<uint8_t>(i);
    }
  };
  static size_t pcp_slot(int8_t pcp) { return pcp < 0 ? 0 : static_cast<size_t>(pcp) + 1; }
  static int8_t slot_pcp(size_t slot) { return static_cast<int8_t>(static_cast<int>(slot) - 1); }

  uint8_t judge(const Marking& m, uint8_t priority, const FlowPoint& fp, bool& learning) const;
  void learn(const Marking& m);

  Policy configured_;
  Policy policy_;
  Tally<64> data_dscp_;
  Tally<9> data_pcp_;  // slot 0 untagged, p + 1 for PCP p
  Tally<4> data_ecn_;
  Tally<64> cnp_dscp_;
  Tally<9> cnp_pcp_;
  std::unordered_map<uint64_t, FlowPoint> flow_points_;  // flow << 32 | point
  std::unordered_map<uint32_t, Seen> seen_;
  // Each flow's latest entry, by flow id (a node's address outlives
  // rehashing): a flow's next packet is most often at the same point, and
  // the packets of many flows interleave. The latest packet's point entry.
  static constexpr uint32_t kRecentFlows = 1u << 20;  // flow ids past it are looked up
  struct Recent {
    uint32_t point = 0;
    FlowPoint* at = nullptr;
  };
  std::vector<Recent> recent_by_flow_;
  uint32_t recent_point_ = 0;
  Seen* recent_seen_ = nullptr;
};

}  // namespace roceshark::qos
