// SPDX-License-Identifier: GPL-2.0-or-later
#include "cli/monitor.h"

#include <getopt.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <optional>
#include <cstring>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/capture_set.h"
#include "cli/command_line.h"
#include "cli/feed.h"
#include "cli/file_write.h"
#include "cli/live_capture.h"
#include "cli/metrics_export.h"
#include "cli/partial_file.h"
#include "cli/reader.h"
#include "cli/window_files.h"
#include "epan-ext/common/option_list.h"
#include "epan-ext/common/points.h"
#include "epan-ext/session/monitor_window.h"
#include "epan-ext/session/session.h"

namespace roceshark::cli {
namespace {

constexpr const char* kUsage =
    "usage: roceshark monitor [OPTION]... (-i INTERFACE | --replay FILE | FILE... | -)\n"
    "  -i, --interface IFACE  capture live (libpcap), e.g. the port a switch mirrors to\n"
    "  -f, --filter BPF       a capture filter for -i (default: all)\n"
    "  -B, --buffer-size MIB  the kernel capture buffer for -i (default 32)\n"
    "  --replay FILE          read FILE at its recorded pace (see --speed)\n"
    "  --speed N              replay N times faster (default 1; 0: as fast as possible)\n"
    "  FILE... | -            read files (or the standard input, e.g. dumpcap -w -) as fast as they come\n"
    "  --window SECONDS       a report every SECONDS of capture time (default 10)\n"
    "  --period SECONDS       the span each verdict covers: the analysis starts afresh every period\n"
    "                         (default 60; rounded up to whole windows)\n"
    "  --out DIR              keep each window's JSON report (DIR/window-N.json) and DIR/windows.ndjson\n"
    "  --keep N               window reports to keep in --out (default 1000)\n"
    "  --partials             also write each period's partial report to --out (DIR/period-N.rsp, all kept):\n"
    "                         roceshark merge VIEW DIR/period-*.rsp is VIEW of everything the run read\n"
    "  --listen ADDR:PORT     serve Prometheus metrics on http://ADDR:PORT/metrics\n"
    "  --textfile DIR         write DIR/roceshark.prom for node_exporter's textfile collector\n"
    "  --linger SECONDS       after the input ends, keep serving --listen this long (default 0)\n"
    "  --baseline N           learn each link's normal range from the first N windows, then report\n"
    "                         how far each window's value is from it\n"
    "  --baseline-file FILE   load the ranges from FILE (written by --save-baseline) instead\n"
    "  --save-baseline FILE   write the learned ranges to FILE once learned\n"
    "  -q, --quiet            no line per window on the standard output\n"
    "  -o roce.NAME:VALUE     a roce.* preference, as tshark -o takes it\n"
    "Exit status: 0 the input ended; 1 it ended on a read error or the interface went away (the last\n"
    "window is written); 2 a bad command line, an input that cannot be opened or an address in use.\n";

std::atomic<bool> g_stop{false};
LiveCapture* g_live = nullptr;

extern "C" void on_signal(int) {
  g_stop = true;
  if (g_live) g_live->stop();
}

struct Stopped {};

struct MonitorOptions {
  std::string interface, filter;
  int buffer_mib = 32;  // 2.7 ms of a 100G link; libpcap's 2 MiB is 170 µs
  std::vector<std::string> files;
  bool paced = false;
  double speed = 1;
  double window_s = 10, period_s = 60, linger_s = 0;
  std::string out_dir, listen, textfile;
  uint64_t keep = 1000;
  uint64_t baseline_windows = 0;
  std::string baseline_file, save_baseline;
  bool quiet = false, partials = false;
  prefs::Settings settings;
  std::vector<std::string> options;  // -o as given: a partial keeps them
};

double decimal(const char* opt, const char* v, double lo, double hi) {
  std::string why;
  const auto d = options::parse_decimal(v, lo, hi, why);
  if (!d) throw UsageError{std::string(opt) + " " + v + ": " + why};
  return *d;
}

MonitorOptions parse(int argc, char** argv) {
  enum { kReplay = 256, kSpeed, kWindow, kPeriod, kOut, kKeep, kListen, kTextfile, kLinger, kBaseline,
         kBaselineFile, kSaveBaseline, kPartials };
  static const option kLong[] = {{"interface", required_argument, nullptr, 'i'},
                                 {"filter", required_argument, nullptr, 'f'},
                                 {"buffer-size", required_argument, nullptr, 'B'},
                                 {"replay", required_argument, nullptr, kReplay},
                                 {"speed", required_argument, nullptr, kSpeed},
                                 {"window", required_argument, nullptr, kWindow},
                                 {"period", required_argument, nullptr, kPeriod},
                                 {"out", required_argument, nullptr, kOut},
                                 {"partials", no_argument, nullptr, kPartials},
                                 {"keep", required_argument, nullptr, kKeep},
                                 {"listen", required_argument, nullptr, kListen},
                                 {"textfile", required_argument, nullptr, kTextfile},
                                 {"linger", required_argument, nullptr, kLinger},
                                 {"baseline", required_argument, nullptr, kBaseline},
                                 {"baseline-file", required_argument, nullptr, kBaselineFile},
                                 {"save-baseline", required_argument, nullptr, kSaveBaseline},
                                 {"quiet", no_argument, nullptr, 'q'},
                                 {"help", no_argument, nullptr, 'h'},
                                 {nullptr, 0, nullptr, 0}};
  MonitorOptions o;
  bool speed_given = false;
  opterr = 0;
  optind = 1;
  for (int c; (c = getopt_long(argc, argv, "+:i:f:B:o:qh", kLong, nullptr)) != -1;) {
    switch (c) {
      case 'i': o.interface = optarg; break;
      case 'f': o.filter = optarg; break;
      case 'B': o.buffer_mib = int(decimal("-B", optarg, 1, 65536)); break;
      case 'o':
        set_preference(o.settings, optarg);
        o.options.emplace_back(optarg);
        break;
      case 'q': o.quiet = true; break;
      case 'h': std::fputs(kUsage, stdout); std::exit(0);
      case kReplay: o.files.push_back(optarg), o.paced = true; break;
      case kSpeed: o.speed = decimal("--speed", optarg, 0, 1e6), speed_given = true; break;
      case kWindow: o.window_s = decimal("--window", optarg, 1e-9, 86400); break;
      case kPeriod: o.period_s = decimal("--period", optarg, 1e-9, 86400 * 7); break;
      case kOut: o.out_dir = optarg; break;
      case kPartials: o.partials = true; break;
      case kKeep: o.keep = uint64_t(decimal("--keep", optarg, 1, 1e9)); break;
      case kListen: o.listen = optarg; break;
      case kTextfile: o.textfile = optarg; break;
      case kLinger: o.linger_s = decimal("--linger", optarg, 0, 86400 * 365); break;
      case kBaseline: o.baseline_windows = uint64_t(decimal("--baseline", optarg, 1, 1e6)); break;
      case kBaselineFile: o.baseline_file = optarg; break;
      case kSaveBaseline: o.save_baseline = optarg; break;
      default: throw getopt_error(c, argv);
    }
  }
  for (int i = optind; i < argc; ++i) o.files.emplace_back(argv[i]);
  if (o.interface.empty() == o.files.empty()) throw UsageError{"give either -i INTERFACE or capture files"};
  if (speed_given && !o.paced) {
    if (o.speed > 0) o.paced = true;
  }
  if (o.paced && o.speed == 0) o.paced = false;
  if (o.paced && o.speed < 1e-6) throw UsageError{"--speed: 0 (as fast as possible), or from 0.000001 up"};
  if (o.period_s < o.window_s) o.period_s = o.window_s;
  if (o.baseline_windows && !o.baseline_file.empty()) throw UsageError{"--baseline and --baseline-file: give one"};
  if (!o.save_baseline.empty() && !o.baseline_windows) throw UsageError{"--save-baseline needs --baseline N"};
  if (o.partials && o.out_dir.empty()) throw UsageError{"--partials needs --out DIR"};
  return o;
}

// The monitor's loop: records in, a window report out every --window.
class Monitor {
 public:
  Monitor(const MonitorOptions& o, RecordSource& in, MetricsServer* server, monitor::Baseline baseline)
      : o_(o), in_(in), server_(server), files_(o.out_dir, o.keep), baseline_(std::move(baseline)),
        window_ns_(uint64_t(o.window_s * 1e9)),
        period_windows_(uint64_t((o.period_s + o.window_s * 0.999) / o.window_s)) {
    if (!o_.quiet) std::fputs(monitor::line_header().c_str(), stdout), std::fflush(stdout);
  }

  void batch(const Batch& b) {
    // A point is named as its first frame is fed, so a window's report
    // names only the points it saw, as the capture cut there would.
    auto name = b.names.begin();
    for (size_t i = 0; i < b.items.size(); ++i) {
      const Batch::Item& f = b.items[i];
      if (g_stop && !g_live) throw Stopped{};  // a live capture stops itself, after what it had received
      if (f.kind == decode::Kind::not_ours) {  // read only for --partials: it orders and numbers the rest
        keep(b, f);
        continue;
      }
      pace(f.ts_ns);
      advance(f.ts_ns);
      for (; name != b.names.end() && name->item == i; ++name) {
        names_.emplace(name->point, name->name);
        session_->name_point(name->point, name->name);
      }
      feed(*session_, b, f);
      keep(b, f);
      last_frame_ = f.number;
      last_ts_ = f.ts_ns;
    }
    if (b.idle_ns) advance(b.idle_ns);
    if (g_stop && !g_live) throw Stopped{};
  }

  // The input ended: the last, partial window (and period).
  void end() {
    if (started_) close_window(std::max(last_ts_, window_start_));
    end_partial(true);
  }
  void cut_short(const std::string& e) {
    session_->cut_short(e);
    if (error_.empty()) error_ = e;
  }

 private:
  void pace(uint64_t ts) {
    if (!o_.paced) return;
    using namespace std::chrono;
    const auto now = steady_clock::now();
    if (!wall0_) {
      wall0_ = now, ts0_ = ts, paced_ts_ = ts;
      return;
    }
    // A silence longer than a window is replayed as one window long: the
    // windows make none up either, and a clock stepped years ahead must not
    // stall the replay. Stamps that go back wait for nothing.
    if (ts > paced_ts_) {
      if (ts - paced_ts_ > window_ns_) ts0_ += ts - paced_ts_ - window_ns_;
      paced_ts_ = ts;
    }
    if (ts <= ts0_) return;
    const auto target = *wall0_ + duration_cast<steady_clock::duration>(duration<double>(double(ts - ts0_) / 1e9 / o_.speed));
    while (steady_clock::now() < target && !g_stop)
      std::this_thread::sleep_for(std::min<steady_clock::duration>(target - steady_clock::now(), milliseconds(100)));
  }

  // Windows end at the first record (or live tick) at or past their end. A
  // gap longer than a window starts the next window at the record: no empty
  // windows are made up, whatever the stamps.
  void advance(uint64_t ts) {
    // Saturating: a window that would end past 2^64 ns ends only with the input.
    const auto end_after = [&](uint64_t start) { return start > UINT64_MAX - window_ns_ ? UINT64_MAX : start + window_ns_; };
    if (!started_) {
      started_ = true, window_start_ = ts, window_end_ = end_after(ts);
      return;
    }
    if (ts < window_end_ || window_end_ == UINT64_MAX) return;
    close_window(window_end_);
    window_start_ = ts - window_end_ >= window_ns_ ? ts : window_end_;
    window_end_ = end_after(window_start_);
  }

  void close_window(uint64_t end_ns) {
    const RecordSource::Drops split = in_.drops();
    const uint64_t drops = split.total();
    session_->dropped(drops - drops_at_period_);
    Snapshot snap = session_->snapshot();
    const AnalysisFacts& a = snap.facts ? *snap.facts : no_facts();
    const triage::Triage t = triage::make_triage(snap.stats, a);
    std::vector<metrics::Family> fams = carry_.with_carry(metrics::collect(snap.stats, a, t));
    const std::vector<metrics::Family> counted = fams;
    const auto values = monitor::window_values(counted, before_, double(end_ns - window_start_) / 1e9);
    monitor::WindowFigures w = monitor::figures(fams, before_, values);
    w.index = ++windows_;
    w.start_ns = window_start_, w.end_ns = end_ns;
    w.frames = last_frame_ - frames_at_window_;
    w.last_frame = last_frame_;
    w.drops = drops - drops_at_window_;
    if (!t.findings.list.empty()) w.top_finding = t.findings.list.front().id;
    if (baseline_.learning()) {
      baseline_.learn(values);
      if (!baseline_.learning() && !o_.save_baseline.empty()) save_baseline();
    } else {
      fams.push_back(baseline_.deviations(values, w.drifts));
    }
    frames_at_window_ = last_frame_, drops_at_window_ = drops;

    std::string report;
    view(snap, o_.settings, "report", false, [&](std::string_view s) { report += s; });
    output_errors_ += files_.write(w, report);
    add_own(fams, w, split);
    fams.push_back(monitor::active_findings(t.findings.list, seen_findings_));
    if (server_) server_->publish(fams);
    if (!o_.textfile.empty()) {
      std::string error;
      if (!write_textfile(o_.textfile, fams, error)) {
        ++output_errors_;
        std::fprintf(stderr, "roceshark monitor: --textfile: %s\n", error.c_str());
      }
    }
    if (!o_.quiet) std::fputs(monitor::line(w).c_str(), stdout), std::fflush(stdout);
    before_ = counted;
    if (++windows_in_period_ >= period_windows_) {
      if (partial_) end_partial(false);
      carry_.end_period(counted);
      windows_in_period_ = 0;
      seen_findings_.clear();
      drops_at_period_ = drops;
      session_ = std::make_unique<Session>(o_.settings);
      for (const auto& [point, name] : names_) session_->name_point(point, name);
    }
  }

  // --partials: the period's records, as `roceshark partial` writes a file's.
  void keep(const Batch& b, const Batch::Item& f) {
    if (!partials_ || (!partial_ && !open_partial())) return;
    try {
      partial_->item(b, f);
    } catch (const PartialError& e) {
      return fail_partials(e.what());
    }
    ++segment_frames_;
    if (f.interface < points::kErspan) interfaces_ = std::max(interfaces_, f.interface + 1);
  }

  bool open_partial() {
    Manifest m;
    m.roceshark = ROCESHARK_VERSION;
    m.options = o_.options;
    m.inputs.push_back({o_.interface.empty() ? join(o_.files) : o_.interface, 0, run_id_});
    m.concatenate = m.segmented = true;
    m.files = {0};
    m.segment = segment_;
    char name[32];
    std::snprintf(name, sizeof name, "/period-%06u.rsp", segment_);
    std::error_code ec;  // the window files make it at their first; a period may come first
    std::filesystem::create_directories(o_.out_dir, ec);
    try {
      partial_ = std::make_unique<PartialWriter>(o_.out_dir + name, m);
      partial_->begin_file(0);
    } catch (const PartialError& e) {
      fail_partials(e.what());
      return false;
    }
    segment_frames_ = 0;
    return true;
  }

  void end_partial(bool last) {
    // The run's last period says so, even with no frame of its own.
    if (!partials_ || (!partial_ && !(last && open_partial()))) return;
    FileTrailer t;
    t.frames = segment_frames_;
    for (uint32_t i = 0; i < interfaces_; ++i) t.interface_names.emplace_back(in_.interface_name(i));
    if (last) t.error = error_;
    const uint64_t drops = in_.drops().total();
    t.drops = drops - drops_at_segment_;
    drops_at_segment_ = drops;
    try {
      partial_->end_file(std::move(t));
      partial_->finish(last);
    } catch (const PartialError& e) {
      fail_partials(e.what());
    }
    partial_.reset();
    ++segment_;
  }

  void fail_partials(const std::string& why) {
    ++output_errors_;
    std::fprintf(stderr, "roceshark monitor: --partials: %s; no more partials are written\n", why.c_str());
    partial_.reset();
    partials_ = false;
  }

  static std::string join(const std::vector<std::string>& v) {
    std::string s;
    for (const std::string& x : v) s += (s.empty() ? "" : " ") + x;
    return s;
  }

  void save_baseline() {
    std::string why;
    if (write_file(o_.save_baseline, baseline_.to_json(), Write::replace, why)) return;
    ++output_errors_;
    std::fprintf(stderr, "roceshark monitor: --save-baseline %s: %s\n", o_.save_baseline.c_str(), why.c_str());
  }

  // The monitor's own metrics.
  void add_own(std::vector<metrics::Family>& fs, const monitor::WindowFigures& w, RecordSource::Drops drops) const {
    using metrics::Type;
    const auto one = [&](const char* name, const char* help, Type type, double v) {
      fs.push_back({name, help, type, {{{}, v, {}, 0, 0}}});
    };
    one("roceshark_frames_read_total", "Frames read from the input, every kind", Type::counter, double(last_frame_));
    one("roceshark_windows_total", "Windows reported", Type::counter, double(windows_));
    fs.push_back({"roceshark_capture_dropped_packets_total",
                  "Packets the capture dropped before the analysis, as libpcap counts them", Type::counter,
                  {{{{"source", "kernel"}}, double(drops.kernel), {}, 0, 0},
                   {{{"source", "interface"}}, double(drops.interface), {}, 0, 0}}});
    one("roceshark_output_errors_total", "Window reports or textfiles that could not be written", Type::counter,
        double(output_errors_));
    one("roceshark_window_incomplete", "1 when the last window's verdict is INCOMPLETE (drops, limits)", Type::gauge,
        w.verdict == "incomplete");
    one("roceshark_last_window_timestamp_seconds", "When the last window was reported (Unix time)", Type::gauge,
        double(std::chrono::duration_cast<std::chrono::milliseconds>(
                   std::chrono::system_clock::now().time_since_epoch()).count()) / 1e3);
    one("roceshark_window_seconds", "The window length (--window)", Type::gauge, o_.window_s);
    one("roceshark_period_seconds", "The span each verdict covers (--period, in whole windows)", Type::gauge,
        double(period_windows_) * o_.window_s);
  }

  const MonitorOptions& o_;
  // --partials: the period's partial report, open from its first record.
  bool partials_ = o_.partials;
  std::unique_ptr<PartialWriter> partial_;
  uint32_t segment_ = 0, segment_frames_ = 0, interfaces_ = 0;
  uint64_t drops_at_segment_ = 0;
  std::string run_id_ = std::to_string(uint64_t(std::chrono::system_clock::now().time_since_epoch().count())) + "-" +
                        std::to_string(getpid());
  std::string error_;  // why the input was cut short
  RecordSource& in_;
  MetricsServer* server_;
  WindowFiles files_;
  monitor::Baseline baseline_;
  const uint64_t window_ns_, period_windows_;
  std::unique_ptr<Session> session_ = std::make_unique<Session>(o_.settings);
  std::map<uint32_t, std::string> names_;
  monitor::Carry carry_;
  std::vector<metrics::Family> before_;
  std::map<std::string, uint64_t> seen_findings_;  // evidence by finding id, at the last window
  bool started_ = false;
  uint64_t window_start_ = 0, window_end_ = 0, last_ts_ = 0;
  uint64_t windows_ = 0, windows_in_period_ = 0;
  uint64_t last_frame_ = 0, frames_at_window_ = 0;
  uint64_t drops_at_window_ = 0, drops_at_period_ = 0, output_errors_ = 0;
  std::optional<std::chrono::steady_clock::time_point> wall0_;
  uint64_t ts0_ = 0, paced_ts_ = 0;  // the replay's schedule: ts0_ at wall0_; the latest stamp paced
};

// A file --save-baseline wrote; throws std::runtime_error naming the file
// and what is wrong with it.
monitor::Baseline load_baseline(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw std::runtime_error("--baseline-file " + path + ": " + std::strerror(errno));
  monitor::Baseline b;
  try {
    const auto j = nlohmann::json::parse(in);
    if (j.at("schema") != "roceshark-baseline" || j.at("version") != 1)
      throw std::runtime_error("not a roceshark baseline of version 1");
    for (const auto& r : j.at("ranges")) {
      metrics::Labels labels;
      for (const auto& [k, v] : r.at("labels").items()) labels.emplace_back(k, v.get<std::string>());
      const monitor::Range range{r.at("low").get<double>(), r.at("high").get<double>(), r.at("width").get<double>()};
      if (!std::isfinite(range.low) || !std::isfinite(range.high) || !std::isfinite(range.width) ||
          range.low > range.high || range.width < 0)
        throw std::runtime_error("a range that is not one: " + r.dump());
      b.set(r.at("metric").get<std::string>(), labels, range);
    }
  } catch (const nlohmann::json::exception& e) {
    throw std::runtime_error("--baseline-file " + path + ": " + e.what());
  } catch (const std::runtime_error& e) {
    throw std::runtime_error("--baseline-file " + path + ": " + e.what());
  }
  return b;
}

}  // namespace

int monitor_main(int argc, char** argv) {
  MonitorOptions o;
  try {
    o = parse(argc, argv);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "roceshark monitor: %s\n%s", e.why.c_str(), kUsage);
    return 2;
  }
  std::unique_ptr<RecordSource> in;
  std::unique_ptr<MetricsServer> server;
  monitor::Baseline baseline(o.baseline_windows);
  try {
    if (!o.baseline_file.empty()) baseline = load_baseline(o.baseline_file);
    if (!o.interface.empty()) {
      auto live = std::make_unique<LiveCapture>(o.interface, o.filter, o.buffer_mib, 262144);
      g_live = live.get();
      in = std::move(live);
    } else {
      in = std::make_unique<CaptureSet>(o.files);
    }
    if (!o.listen.empty()) server = std::make_unique<MetricsServer>(o.listen);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "roceshark monitor: %s\n", e.what());
    return 2;
  }
  struct sigaction sa{};
  sa.sa_handler = on_signal;
  sigaction(SIGINT, &sa, nullptr);
  sigaction(SIGTERM, &sa, nullptr);
  std::signal(SIGPIPE, SIG_IGN);  // a closed stdout is a write error, not a death

  Monitor m(o, *in, server.get(), std::move(baseline));
  Batch spare;
  try {
    read_all(*in, o.settings, [&] { return std::move(spare); }, [&](Batch b) {
      m.batch(b);
      spare = std::move(b);
    }, false, o.partials);
  } catch (const Stopped&) {
  }
  if (g_stop) std::fputs("roceshark monitor: stopped by a signal; the last window follows\n", stderr);
  for (const std::string& e : in->errors()) {
    std::fprintf(stderr, "roceshark monitor: %s; the last window is reported\n", e.c_str());
    m.cut_short(e);
  }
  m.end();
  g_live = nullptr;
  for (auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(o.linger_s);
       server && !g_stop && std::chrono::steady_clock::now() < until;)
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  return in->errors().empty() ? 0 : 1;
}

}  // namespace roceshark::cli
