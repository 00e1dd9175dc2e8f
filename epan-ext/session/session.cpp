// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/session/session.h"

#include "epan-ext/report/triage.h"
#include "epan-ext/report/views.h"

namespace roceshark {

int health_exit_status(triage::Grade g, bool fail_on_warn) {
  switch (g) {
    case triage::Grade::pass: return 0;
    case triage::Grade::warn: return fail_on_warn ? 1 : 0;
    case triage::Grade::fail: return 1;
    case triage::Grade::na:
    case triage::Grade::incomplete:
    case triage::Grade::no_data: break;
  }
  return 2;
}

void Session::tap(TapRecord r, bool selected) {
  r.ts_ns = analyzer_.latest_ts();  // the stamp, unless the stamps ran backwards
  if (event_list_) event_list_->reach(r.ts_ns);
  if (!selected) return;
  if (tap_thread_) return tap_thread_->add(r);
  tapped_.add(r);
  if (event_list_) event_list_->add(r);
}

void Session::feed(const PacketInfo& p, uint32_t wire_len) {
  const TapRecord r = latest_record(analyzer_.process(p), analyzer_, 0, wire_len, &events_);
  tap(r, selection_.selects(p));
}

void Session::feed(const pfc::PauseFrame& f, uint32_t wire_len) {
  TapRecord r{nullptr, &analyzer_, 0, wire_len, nullptr, nullptr, &events_};
  r.pause = &analyzer_.process(f);
  tap(r, selection_.selects(f));
}

void Session::feed(uint32_t frame, uint64_t ts_ns, const qos::DcbxAnnouncement& a, uint32_t wire_len) {
  const qos::DcbxVerdict v = analyzer_.process(frame, ts_ns, a);
  TapRecord r{nullptr, &analyzer_, 0, wire_len, nullptr, nullptr, &events_};
  r.dcbx = &v;
  tap(r, selection_.selects(a));
}

void Session::feed(const icmp::TooBig& m, uint32_t wire_len) {
  const icmp::Verdict v = analyzer_.process(m);
  TapRecord r{nullptr, &analyzer_, 0, wire_len, nullptr, nullptr, &events_};
  r.icmp = &v;
  tap(r, selection_.selects(m));
}

Snapshot Session::snapshot() {
  drain();
  Snapshot s{tapped_.stats, tapped_.facts};
  if (tapped_.facts) tapped_.facts->finish();  // const: it only tells the log what is open now
  if (tapped_.events) s.stats.settle(events_, tapped_.selected);
  return s;
}

void Session::write_events(events::Format f, const TextOut& out) {
  if (!event_list_) return;
  drain();
  if (tapped_.facts) tapped_.facts->finish();
  events::write(event_list_->settled(events_, tapped_.selected), analyzer_.clock().start_ns(), analyzer_.clock().nanoseconds(),
                tapped_.facts, f, out);
}

int view(const Snapshot& snap, const prefs::Settings& settings, std::string_view name, bool fail_on_warn,
         const TextOut& out, const std::string& filter) {
  const ReportStats& s = snap.stats;
  const AnalysisFacts* a = snap.facts;
  if (name == "qp") views::qp(s.qp, a, filter, out);
  else if (name == "pfc") views::pfc(s.pfc, a, filter, out);
  else if (name == "qos") views::qos(s.qos, a, settings.cfg.policy, filter, out);
  else if (name == "hops") views::hops(s.hops, a, filter, out);
  else if (name == "triage") views::triage(s, a, filter, out);
  else if (name == "report") views::report(s, a, filter, out);
  else {
    const triage::Triage t = triage::make_triage(s, a ? *a : no_facts());
    out(format_triage(t, filter));
    return health_exit_status(t.health.overall, fail_on_warn);
  }
  return 0;
}

}  // namespace roceshark
