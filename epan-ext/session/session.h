// SPDX-License-Identifier: GPL-2.0-or-later
// One capture's analysis, from decoded records to every view, for a front
// end that keeps no result per frame: the roceshark command and the fuzz
// targets (the Wireshark plugin keeps its results by frame: StoredAnalysis).
// The layer above analysis/ and report/: it sees both.
#pragma once
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>

#include "epan-ext/analysis/analyzer.h"
#include "epan-ext/analysis/event_log.h"
#include "epan-ext/common/json_writer.h"
#include "epan-ext/common/preferences.h"
#include "epan-ext/report/event_list.h"
#include "epan-ext/report/event_view.h"
#include "epan-ext/report/health.h"
#include "epan-ext/report/tapped.h"
#include "epan-ext/session/selection.h"
#include "epan-ext/session/tap_thread.h"

namespace roceshark {

// The views by name, as `-z roce,NAME` and `roceshark NAME` print them;
// `health` is the triage with its verdict as the exit status.
inline constexpr std::string_view kViewNames[] = {"qp", "pfc", "qos", "hops", "triage", "report", "health"};

// What a session has been fed so far, settled: what every view draws.
struct Snapshot {
  ReportStats stats;
  const AnalysisFacts* facts = nullptr;  // the session's: valid until its next feed; null before any record
};

// Prints view `name` (one of kViewNames) of `s`; returns health's exit
// status, 0 for the others. `filter` is the display filter the frames were
// selected by, as the view's title and the JSON name it ("" for none).
int view(const Snapshot& s, const prefs::Settings& settings, std::string_view name, bool fail_on_warn,
         const TextOut& out, const std::string& filter = {});

// The exit status of a health verdict: 0 PASS (and WARN unless
// `fail_on_warn`), 1 FAIL (or WARN), 2 cannot judge (INCOMPLETE, NO DATA).
int health_exit_status(triage::Grade g, bool fail_on_warn);

class Session {
 public:
  // Every frame is analysed; only those `selection` selects are tapped
  // into the statistics (all without one), as tshark's -z filter does.
  explicit Session(const prefs::Settings& s, Selection selection = {}) : settings_(s), selection_(std::move(selection)) {
    if (!selection_.any()) tapped_.selected = FrameSet::every();
  }
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;

  // Called before the first feed: the statistics are gathered on a thread
  // of their own (epan-ext/session/tap_thread.h), the same as on this one.
  // Not with keep_events(), whose list is kept here.
  void tap_on_thread() {
    if (!event_list_) tap_thread_ = std::make_unique<TapThread>(tapped_, analyzer_, &events_);
  }
  void name_point(uint32_t point, std::string name) {
    if (analyzer_.point_named(point)) return;
    selection_.name_point(point, name);
    analyzer_.name_point(point, name);
    if (tap_thread_ && analyzer_.point_named(point)) tap_thread_->name_point(point, name);
  }
  // How the views name MACs (AnalysisFacts::mac_name); none by default.
  void name_macs(Analyzer::MacNames f) { analyzer_.name_macs(std::move(f)); }
  // Each frame's record, in frame order.
  void feed(const PacketInfo& p, uint32_t wire_len);
  void feed(const pfc::PauseFrame& f, uint32_t wire_len);
  void feed(uint32_t frame, uint64_t ts_ns, const qos::DcbxAnnouncement& a, uint32_t wire_len);
  void feed(const icmp::TooBig& m, uint32_t wire_len);
  void feed(const CrossPacket& c) {  // weighed only
    analyzer_.process(c);
    if (event_list_) event_list_->reach(analyzer_.latest_ts());
  }
  // The statistics complete up to the latest record fed, on this thread;
  // throws what the statistics' thread threw (every view drains first).
  void drain() {
    if (tap_thread_) tap_thread_->drain();
  }
  // A read error that ended the capture early: the report says so.
  void cut_short(std::string error) {
    drain();
    tapped_.stats.cut_short.push_back(std::move(error));
  }
  // A live capture's drops so far: the report is INCOMPLETE.
  void dropped(uint64_t total) {
    drain();
    tapped_.stats.capture_drops = total;
  }

  // The report of what was fed so far, without ending the session: the
  // analysis' end-of-capture events are taken as they stand (pauses still
  // open are reported open, as at the end of a capture) and the statistics
  // settled on a copy, so feeding goes on as if none was taken. The report
  // of the first k frames is the report of the capture cut at k frames.
  Snapshot snapshot();
  const prefs::Settings& settings() const { return settings_; }
  const Selection& selection() const { return selection_; }
  // view(snapshot(), ...): the whole capture's, once every frame is fed,
  // titled with the selection's filter.
  int view(std::string_view name, bool fail_on_warn, const TextOut& out) {
    return roceshark::view(snapshot(), settings_, name, fail_on_warn, out, selection_.filter());
  }
  // `roceshark events`: called before the first feed, the session keeps the
  // event list too.
  void keep_events() {
    tap_thread_.reset();
    event_list_ = std::make_unique<events::EventList>();
  }
  // The selected frames' events, in time order; once every frame is fed.
  void write_events(events::Format f, const TextOut& out);

 private:
  // Every record: its time; a selected one is tapped.
  void tap(TapRecord r, bool selected);

  const prefs::Settings settings_;
  Selection selection_;
  EventLog events_;
  Analyzer analyzer_{settings_.cfg, &events_};
  Tapped<ReportStats> tapped_;
  std::unique_ptr<events::EventList> event_list_;
  std::unique_ptr<TapThread> tap_thread_;  // declared last: stopped first
};

}  // namespace roceshark
