// SPDX-License-Identifier: GPL-2.0-or-later
// Per directed flow, per point marking counts and QoS violations, fed by the
// `roce` tap, and the DCBX announcements the glue hands over. The text of
// `-z roce,qos` is made from this by format_qos_report().
#pragma once
#include <cstdint>
#include <map>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "epan-ext/analysis/dcbx.h"
#include "epan-ext/analysis/flow_table.h"
#include "epan-ext/analysis/tap_record.h"
#include "epan-ext/common/limits.h"
#include "epan-ext/report/row_cache.h"
#include "epan-ext/report/time_span.h"

namespace roceshark::qos {

// Packets per value for the few values a flow uses (DSCP, PCP, ECN,
// priority): at most 65 entries, usually one.
class ValueCounts {
 public:
  void add(int value) {
    ++total_;
    // A flow's packets nearly always repeat the value before: no search then.
    if (last_ < counts_.size() && counts_[last_].first == value) {
      ++counts_[last_].second;
      return;
    }
    add_new(value);
  }
  // Most packets first, then by value.
  std::vector<std::pair<int, uint64_t>> by_count() const;
  uint64_t total() const { return total_; }
  bool empty() const { return total_ == 0; }

 private:
  void add_new(int value);

  std::vector<std::pair<int, uint64_t>> counts_;  // by value
  size_t last_ = 0;                               // where the latest value went
  uint64_t total_ = 0;
};

inline constexpr int kUntagged = -1;  // the PCP value of an untagged packet

// One directed flow (source -> destination, destination QP) at one point.
struct QosRow {
  uint32_t stream = kNoId;
  FlowKey flow;
  std::string point_name;
  uint64_t requests = 0;
  uint64_t responses = 0;
  uint64_t cnps = 0;
  ValueCounts dscp, pcp, priority;  // requests and responses
  ValueCounts vlan;                 // requests and responses: the VLAN id, kUntagged without a tag
  int first_vlan = kUntagged;       // that of the first of them
  ValueCounts ecn;                  // requests: responses are not ECN-checked
  ValueCounts cnp_dscp, cnp_pcp;
};

// One check failing on one directed flow at one point.
struct QosViolation {
  uint32_t stream = kNoId;
  FlowKey flow;
  std::string point_name;
  uint32_t first_frame = 0;
  uint64_t packets = 0;
};

// One DCBX announcement (identical repeats of it counted) and its findings.
struct DcbxEntry {
  uint32_t first_frame = 0;
  uint64_t repeats = 1;
  triage::TimeSpan when;  // of its first and last repeat
  std::string point_name;
  DcbxAnnouncement announcement;
  std::vector<DcbxFinding> findings;
};

class QosStats {
 public:
  // Distinct DCBX entries kept; a hostile capture's further ones are only counted.
  static constexpr size_t kMaxDcbx = cap_info(Cap::dcbx).value;

  void add(const TapRecord& r);
  // An LLDP frame with DCBX TLVs and what compare() found in it.
  void add_dcbx(uint32_t frame, uint64_t ts_ns, const std::string& point_name, const DcbxAnnouncement& a,
                std::vector<DcbxFinding> findings);
  void clear() { *this = QosStats{}; }

  // (stream, point, flow): a connection's rows sit together.
  using RowKey = std::tuple<uint32_t, uint32_t, uint32_t>;
  const std::map<RowKey, QosRow>& rows() const { return rows_; }
  // (check, point, stream, flow)
  using ViolationKey = std::tuple<Check, uint32_t, uint32_t, uint32_t>;
  const std::map<ViolationKey, QosViolation>& violations() const { return violations_; }
  const std::vector<DcbxEntry>& dcbx() const { return dcbx_; }

  uint64_t learning() const { return learning_; }      // judged before learned mode was ready
  uint64_t duplicates() const { return duplicates_; }  // mirror copies, not counted
  uint64_t untracked() const { return untracked_; }    // over the flow limit or truncated: not analysed
  uint64_t dcbx_dropped() const { return dcbx_dropped_; }
  // Of those, the ones with findings the triage therefore lacks (Cap::dcbx).
  uint64_t dcbx_dropped_findings() const { return dcbx_dropped_findings_; }

 private:
  std::map<RowKey, QosRow> rows_;
  RowCache<std::map<RowKey, QosRow>> last_rows_;  // by flow
  std::map<ViolationKey, QosViolation> violations_;
  std::vector<DcbxEntry> dcbx_;
  uint64_t learning_ = 0;
  uint64_t duplicates_ = 0;
  uint64_t untracked_ = 0;
  uint64_t dcbx_dropped_ = 0;
  uint64_t dcbx_dropped_findings_ = 0;
};

}  // namespace roceshark::qos
