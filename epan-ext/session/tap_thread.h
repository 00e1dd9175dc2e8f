// SPDX-License-Identifier: GPL-2.0-or-later
// The statistics on a thread of their own: the analysis copies each tapped
// record (its verdicts, and the facts the statistics look up when they take
// it: flow keys, point names, the recovery mode then) into a batch, and this
// thread adds the batches to the statistics in the same order. What the
// statistics gather is the same as on one thread, record for record; only
// the analysis and the statistics overlap in time (docs/command.md, "-j").
#pragma once
#include <condition_variable>
#include <cstdint>
#include <exception>
#include <mutex>
#include <string>
#include <thread>
#include <unordered_map>
#include <vector>

#include "epan-ext/analysis/analysis_facts.h"
#include "epan-ext/common/batch_queue.h"
#include "epan-ext/report/report_stats.h"
#include "epan-ext/report/tapped.h"

namespace roceshark {

class TapThread {
 public:
  // Adds to `tapped`, which no one else touches until drain(); `facts` is the
  // analysis, asked only once drained; `events` its log, read only at draw.
  TapThread(Tapped<ReportStats>& tapped, const AnalysisFacts& facts, const EventLog* events);
  TapThread(const TapThread&) = delete;
  TapThread& operator=(const TapThread&) = delete;
  ~TapThread();

  // The analysis' thread: a point it named, and a selected record, copied.
  void name_point(uint32_t point, const std::string& name);
  void add(const TapRecord& r);
  // Waits until every record added so far is in the statistics: after it,
  // the statistics may be read (and the facts asked) on this thread. Throws
  // what the statistics threw.
  void drain();

 private:
  struct Item {
    enum class Kind : uint8_t { name, roce, pause, dcbx, icmp } kind;
    uint32_t index = 0;  // into the batch's vector of its kind
    uint32_t frame_len = 0;
    uint64_t ts_ns = 0;
    uint32_t hop = UINT32_MAX;  // into hops, RoCE only
    uint32_t rtt_begin = 0, rtt_end = 0;
    RecoveryMode recovery = RecoveryMode::unknown;
  };
  struct Batch {
    std::vector<Item> items;
    std::vector<Verdict> verdicts;
    std::vector<hop::HopVerdict> hops;
    std::vector<uint64_t> rtts;
    std::vector<pfc::PauseVerdict> pauses;
    std::vector<qos::DcbxVerdict> dcbx;
    std::vector<icmp::Verdict> icmp;
    std::vector<std::pair<uint32_t, std::string>> names;
    std::vector<std::pair<uint32_t, FlowKey>> keys;  // flows new in this batch
    void clear();
  };
  // The analysis' facts as the statistics saw them on one thread: while a
  // record is added, its flow keys, point names and recovery mode as they
  // stood when it was tapped; otherwise (drained) the analysis' own.
  class Frozen final : public AnalysisFacts {
   public:
    explicit Frozen(const AnalysisFacts& live) : live_(live) {}
    const Config& config() const override { return live_.config(); }
    const qos::Policy& policy() const override { return live_.policy(); }
    qos::Checker::Learned learned() const override { return live_.learned(); }
    const std::string& point_name(uint32_t point) const override;
    std::vector<uint32_t> points() const override { return live_.points(); }
    std::string mac_name(const Mac& m) const override { return live_.mac_name(m); }
    const FlowKey& flow_key(uint32_t flow) const override;
    uint32_t flow_stream(uint32_t flow) const override { return live_.flow_stream(flow); }
    RecoveryMode recovery_mode(uint32_t flow) const override;
    uint32_t path_mtu(uint32_t flow) const override { return live_.path_mtu(flow); }
    uint32_t path_mtu_cm_frame(uint32_t flow) const override { return live_.path_mtu_cm_frame(flow); }
    std::span<const uint32_t> flows_between(const Address& src, const Address& dst) const override {
      return live_.flows_between(src, dst);
    }
    const icmp::Report& icmp_report(uint32_t id) const override { return live_.icmp_report(id); }
    const PointClock& clock() const override { return live_.clock(); }
    const LimitCounts& beyond() const override { return live_.beyond(); }
    CapCounts caps() const override { return live_.caps(); }
    void finish() const override { live_.finish(); }

    const AnalysisFacts& live_;
    const Item* current = nullptr;  // set while the statistics take it
    std::unordered_map<uint32_t, std::string> names;
    std::vector<FlowKey> keys;  // by flow id
  };

  void flush();  // the batch being filled, to the thread
  void run();
  void take(const Batch& b);

  Tapped<ReportStats>& tapped_;
  const EventLog* const events_;
  Frozen frozen_;
  std::vector<uint8_t> key_sent_;  // by flow id: its key went in a batch
  Batch filling_;
  // At most 4 full batches wait and 5 empty ones are kept, with one being
  // filled and one being taken: 11 of about 70 KiB each, at most.
  BatchQueue<Batch> queue_{4};
  std::mutex m_;
  std::condition_variable done_;
  uint64_t pushed_ = 0, taken_ = 0;  // batches
  std::exception_ptr failed_;
  std::thread thread_;
};

}  // namespace roceshark
