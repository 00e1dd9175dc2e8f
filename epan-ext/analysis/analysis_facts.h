// SPDX-License-Identifier: GPL-2.0-or-later
// What statistics, findings and views may ask the analysis: the names, keys
// and settings it learned, never its per-packet state. That reaches them
// only as verdicts and events through the tap (epan-ext/analysis/tap_record.h), so
// a display filter applies to every view alike. The Analyzer is the one
// implementation; report code includes this header, not analyzer.h.
#pragma once
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "epan-ext/decode/address.h"
#include "epan-ext/decode/ethernet.h"
#include "epan-ext/common/config.h"
#include "epan-ext/common/limits.h"
#include "epan-ext/analysis/flow_table.h"
#include "epan-ext/analysis/icmp_verdict.h"
#include "epan-ext/analysis/point_clock.h"
#include "epan-ext/analysis/qos_checker.h"

namespace roceshark {

class AnalysisFacts {
 public:
  virtual ~AnalysisFacts() = default;
  virtual const Config& config() const = 0;
  // The policy the checks use: the configured one, or the one DCBX taught
  // (roce.qos_policy:learned).
  virtual const qos::Policy& policy() const = 0;
  // What learned mode inferred, and from how many packets.
  virtual qos::Checker::Learned learned() const = 0;
  virtual const std::string& point_name(uint32_t point) const = 0;
  virtual std::vector<uint32_t> points() const = 0;  // every point seen, by id
  // The name the front end resolves a MAC to (the plugin: Wireshark's name
  // resolution; the command: the ethers files), "" for none.
  virtual std::string mac_name(const Mac& m) const = 0;
  virtual const FlowKey& flow_key(uint32_t flow) const = 0;
  virtual uint32_t flow_stream(uint32_t flow) const = 0;
  // How the flow's requester answers sequence NAKs, as its resends showed.
  virtual RecoveryMode recovery_mode(uint32_t flow) const = 0;
  // The path MTU the flow's QP uses (0 unknown), and the CM REQ frame it
  // came from (kNoFrame: its FIRST and MIDDLE segments showed it).
  virtual uint32_t path_mtu(uint32_t flow) const = 0;
  virtual uint32_t path_mtu_cm_frame(uint32_t flow) const = 0;
  // The flows from `src` to `dst`, any QP.
  virtual std::span<const uint32_t> flows_between(const Address& src, const Address& dst) const = 0;
  // A distinct (router, MTU, flow) ICMP message, by icmp::Verdict::report.
  virtual const icmp::Report& icmp_report(uint32_t id) const = 0;
  // Where the capture's stamps ran backwards, and how the analysis' time was kept.
  virtual const PointClock& clock() const = 0;
  // Frames past each limit in the whole capture, whatever a view's filter selects.
  virtual const LimitCounts& beyond() const = 0;
  // How often each internal cap was passed (the analysis' own; the report's
  // DCBX and NAK resend caps are the statistics', ReportStats::caps).
  virtual CapCounts caps() const = 0;
  // Not a lookup: before a view draws, the analysis tells its sink what
  // stands at the end of the frames so far (open episodes, clock estimates).
  virtual void finish() const = 0;
};

// The facts of an analysis that saw nothing: a file with nothing of ours.
const AnalysisFacts& no_facts();

// A MAC as text views show it: "leaf3-eth1/12 (02:00:00:01:10:01)" when it
// has a name (made printable), else "02:00:00:01:10:01". Filters, ids and
// JSON keep the bare MAC.
std::string mac_label(const AnalysisFacts& a, const Mac& m);
// The same after "the device" or "the port or NIC": "leaf3-eth1/12 (MAC
// 02:00:00:01:10:01)", else "with MAC 02:00:00:01:10:01".
std::string mac_device(const AnalysisFacts& a, const Mac& m);

}  // namespace roceshark
