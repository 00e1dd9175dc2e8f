// SPDX-License-Identifier: GPL-2.0-or-later
// roceshark: the plugin's analysis without Wireshark's dissection, for big
// captures and nightly checks (README, "The roceshark command";
// docs/command.md).
//
//   roceshark [OPTION]... VIEW FILE...
//
// prints what `tshark -q -r FILE -z roce,VIEW[,FILTER]` prints, from the
// same decoder, analysis and views, keeping no result per frame. Several
// files are read as `mergecap -I none` would merge them; "-" is the
// standard input. Options are GNU-style (getopt_long): anywhere on the
// line, `--opt=value` or `--opt value`, `--` ends them. The exit statuses
// are kHelp's.
#include <arpa/inet.h>
#include <getopt.h>
#include <pwd.h>
#include <sched.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdlib>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "epan-ext/common/batch_queue.h"
#include "cli/capture_set.h"
#include "cli/command_line.h"
#include "cli/feed.h"
#include "cli/monitor.h"
#include "cli/partial.h"
#include "cli/partial_set.h"
#include "cli/reader.h"
#include "epan-ext/decode/ethers.h"
#include "epan-ext/decode/frame_decoder.h"
#include "epan-ext/common/option_list.h"
#include "epan-ext/common/preferences.h"
#include "epan-ext/session/session.h"

namespace roceshark::cli {
namespace {

constexpr const char* kUsageLine =
    "usage: roceshark [OPTION]... VIEW FILE...\n"
    "       roceshark events [--format FORMAT] [OPTION]... FILE...\n"
    "       roceshark monitor [OPTION]... (-i INTERFACE | --replay FILE | FILE... | -)\n"
    "       roceshark partial -w PARTIAL [--file I]... [--shard K/N] [-o ...] FILE...\n"
    "       roceshark split -n N -w DIR [--file I]... [-o ...] FILE...\n"
    "       roceshark merge [OPTION]... VIEW PARTIAL...\n";

// After kUsageLine.
constexpr const char* kHelp =
    "Analyse RoCE and PFC in captures: print what tshark -q -z roce,VIEW prints, without\n"
    "Wireshark's dissection.\n"
    "\n"
    "Views:\n"
    "  qp, pfc, qos, hops, triage  the text views of tshark -z roce,VIEW\n"
    "  report                      the JSON report (tshark -z roce,report)\n"
    "  health                      the triage, with its verdict as the exit status\n"
    "  events                      losses, resend runs, pauses, remarks, CE onsets: a line each\n"
    "  monitor                     live or replayed, a report per window (roceshark monitor --help)\n"
    "Fabric scale (docs/fabric.md): `roceshark partial` decodes files, or one shard of them, to\n"
    "a partial report on any machine (roceshark partial --help), `roceshark split` every shard's\n"
    "in one read (roceshark split --help); `roceshark merge VIEW\n"
    "PARTIAL...` prints VIEW of the whole set: the same, byte for byte, as VIEW of its files.\n"
    "It takes the options below but -o (the partials hold theirs) and -j.\n"
    "FILE: a capture in any format Wireshark reads, '-' for the standard input; several files\n"
    "are read as mergecap -I none merges them, each file's interfaces its own points.\n"
    "With -a they are one capture in pieces (a ring buffer's files), read one after the other\n"
    "as mergecap -a joins them, interface i of every file the same point.\n"
    "\n"
    "Options (anywhere on the line; '--' ends them):\n"
    "  -o roce.NAME:VALUE    a roce.* preference, as tshark -o takes it (README, Preferences)\n"
    "  -a, --concatenate     the FILEs are one capture cut in pieces, in order (above)\n"
    "  -n                    no MAC names: MACs as they are, as tshark -n shows them (by default\n"
    "                        a MAC named in the personal or the global ethers file shows with\n"
    "                        its name, docs/command.md)\n"
    "  -j, --threads N       1 reads, decodes, analyses and counts on one thread; 2 or more\n"
    "                        read and decode, analyse, and count the statistics on a thread\n"
    "                        each (the default when 2 cores are available); the output is\n"
    "                        the same\n"
    "      --fail-on LEVEL   health only: warn (WARN exits 1) or fail (the default)\n"
    "      --format FORMAT   events only: ndjson (the default) or tsv\n"
    "      --qp QPN          only frames to this destination QP (BTH), e.g. 0x94c\n"
    "      --host ADDRESS    only frames from or to this IPv4 or IPv6 address\n"
    "      --point NAME      only frames at this capture point (its name, or its id)\n"
    "                        A selection is applied as a -z filter applies: every frame is\n"
    "                        analysed, the statistics count the selected ones, and the title\n"
    "                        names the equivalent display filter. Repeat an option for either\n"
    "                        value (--qp A --qp B: both directions of a connection); different\n"
    "                        options must all match.\n"
    "  -h, --help            this text\n"
    "      --version         roceshark's version and the Wireshark it was built against\n"
    "\n"
    "Exit status:\n"
    "  0  the view is printed (health: PASS, or WARN without --fail-on warn)\n"
    "  1  a file could not be read to the end: the records before the error are analysed and\n"
    "     printed (health: FAIL, or WARN with --fail-on warn)\n"
    "  2  nothing could be analysed: a bad command line, a file that cannot be opened or is in\n"
    "     no known format, an empty standard input; or the output cannot be written\n"
    "     (health: also INCOMPLETE, part of the capture not analysed, and NO DATA)\n";

void print(std::string_view text) { std::fwrite(text.data(), 1, text.size(), stdout); }

struct Options {
  std::string view;
  std::vector<std::string> files;
  prefs::Settings settings;
  bool fail_on_warn = false;
  events::Format format = events::Format::ndjson;  // --format, events only
  unsigned threads = 0;  // -j; 0: the cores available, at most 2
  Selection selection;
  Joining joining = Joining::interleave;  // -a: the files are one capture in pieces
  bool mac_names = true;                  // off with -n
};

// The cores this process may run on (its affinity mask, which containers and
// taskset narrow), at least 1.
unsigned cores_available() {
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof set, &set) == 0) return std::max(1, CPU_COUNT(&set));
  return std::max(1u, std::thread::hardware_concurrency());
}

unsigned parse_threads(std::string_view v) {
  std::string why;
  const auto n = options::parse_decimal(v, 1, 256, why);
  if (!n || *n != static_cast<unsigned>(*n)) throw UsageError{"-j " + std::string(v) + ": a whole number from 1 to 256"};
  return static_cast<unsigned>(*n);
}

// A QP number as the views print it (0x94c, 0x00094c) or in decimal.
uint32_t parse_qp(const char* v) {
  errno = 0;
  char* end = nullptr;
  const unsigned long long n = std::strtoull(v, &end, 0);
  if (!*v || *end || errno || n > 0xffffff || *v == '-' || *v == '+')
    throw UsageError{std::string("--qp ") + v + ": a QP number of 24 bits, e.g. 0x94c"};
  return static_cast<uint32_t>(n);
}

Address parse_host(const char* v) {
  std::array<uint8_t, 16> raw{};
  if (inet_pton(AF_INET, v, raw.data()) == 1) return Address::from({raw.data(), 4});
  if (inet_pton(AF_INET6, v, raw.data()) == 1) return Address::from({raw.data(), 16});
  throw UsageError{std::string("--host ") + v + ": an IPv4 or IPv6 address"};
}

// "unknown view 'triag'", with the view meant when it looks like a typo.
UsageError unknown_view(const std::string& view, const std::vector<std::string>& rest) {
  std::vector<std::string_view> names(std::begin(kViewNames), std::end(kViewNames));
  for (const char* command : {"events", "monitor", "partial", "split", "merge"}) names.push_back(command);
  std::string why = "unknown view '" + view + "'";
  if (const std::string_view near = nearest(view, names); !near.empty())
    return {why + ": did you mean '" + std::string(near) + "'?"};
  for (const std::string& r : rest)
    if (r == "events" || std::find(std::begin(kViewNames), std::end(kViewNames), r) != std::end(kViewNames))
      return {why + ": the view comes before the files (roceshark " + r + " FILE...)"};
  return {why + ": one of qp, pfc, qos, hops, triage, report, health, events, monitor"};
}

Options parse(int argc, char** argv, bool merging) {
  enum { kFailOn = 256, kFormat, kQp, kHost, kPoint, kVersion };
  static const option kLong[] = {{"threads", required_argument, nullptr, 'j'},
                                 {"concatenate", no_argument, nullptr, 'a'},
                                 {"fail-on", required_argument, nullptr, kFailOn},
                                 {"format", required_argument, nullptr, kFormat},
                                 {"qp", required_argument, nullptr, kQp},
                                 {"host", required_argument, nullptr, kHost},
                                 {"point", required_argument, nullptr, kPoint},
                                 {"help", no_argument, nullptr, 'h'},
                                 {"version", no_argument, nullptr, kVersion},
                                 {nullptr, 0, nullptr, 0}};
  Options o;
  bool fail_on_given = false, format_given = false;
  opterr = 0;
  optind = 1;
  // ':' first: a missing value is ':', not '?'. No '+': options after the
  // file names count too (getopt_long moves them to the front).
  for (int c; (c = getopt_long(argc, argv, ":o:j:ahn", kLong, nullptr)) != -1;) {
    switch (c) {
      case 'o':
        if (merging) throw UsageError{"merge takes no -o: the partial reports hold the preferences they were made with"};
        set_preference(o.settings, optarg);
        break;
      case 'a':
        if (merging) throw UsageError{"merge takes no -a: the partial reports say how their files join"};
        o.joining = Joining::concatenate;
        break;
      case 'j':
        if (merging) throw UsageError{"merge takes no -j"};
        o.threads = parse_threads(optarg);
        break;
      case 'n': o.mac_names = false; break;
      case 'h': std::fputs(kUsageLine, stdout), std::fputs(kHelp, stdout); std::exit(0);
      case kVersion:
        std::printf("roceshark %s\nbuilt against Wireshark %s\n", ROCESHARK_VERSION, ROCESHARK_WIRESHARK_VERSION);
        std::exit(0);
      case kFailOn:
        if (std::strcmp(optarg, "warn") && std::strcmp(optarg, "fail"))
          throw UsageError{std::string("--fail-on ") + optarg + ": use warn or fail"};
        o.fail_on_warn = !std::strcmp(optarg, "warn"), fail_on_given = true;
        break;
      case kFormat:
        if (std::strcmp(optarg, "ndjson") && std::strcmp(optarg, "tsv"))
          throw UsageError{std::string("--format ") + optarg + ": use ndjson or tsv"};
        o.format = std::strcmp(optarg, "tsv") ? events::Format::ndjson : events::Format::tsv, format_given = true;
        break;
      case kQp: o.selection.qps.insert(parse_qp(optarg)); break;
      case kHost: o.selection.hosts.push_back(parse_host(optarg)); break;
      case kPoint:
        if (!*optarg) throw UsageError{"--point needs a name"};
        o.selection.points.emplace_back(optarg);
        break;
      default: throw getopt_error(c, argv);
    }
  }
  if (optind == argc) throw UsageError{"no view"};
  o.view = argv[optind++];
  o.files.assign(argv + optind, argv + argc);
  if (o.view == "monitor") throw UsageError{"monitor comes first, with its own options: roceshark monitor [OPTION]..."};
  if (o.view != "events" && std::find(std::begin(kViewNames), std::end(kViewNames), o.view) == std::end(kViewNames))
    throw unknown_view(o.view, o.files);
  if (fail_on_given && o.view != "health") throw UsageError{"--fail-on applies to health only"};
  if (format_given && o.view != "events") throw UsageError{"--format applies to events only"};
  if (o.files.empty()) throw UsageError{merging ? "no partial report" : "no capture file"};
  if (std::count(o.files.begin(), o.files.end(), "-") > 1) throw UsageError{"'-' (the standard input) twice"};
  return o;
}

// -j, or the cores available up to 2.
unsigned threads_of(const Options& o) { return o.threads ? o.threads : std::min(2u, cores_available()); }

// The records of capture files into the session: reading and decoding on
// their own thread unless -j 1. Returns the read errors.
std::vector<std::string> read_captures(const Options& o, const std::function<void(const Batch&)>& analyse) {
  CaptureSet in(o.files, o.joining);
  if (threads_of(o) == 1) {
    Batch spare;
    read_all(in, o.settings, [&] { return std::move(spare); }, [&](Batch b) {
      analyse(b);
      spare = std::move(b);
    });
  } else {
    // libwiretap and the decoder on their own thread; the analysis here.
    BatchQueue<Batch> q(4);
    std::exception_ptr failed;
    std::thread reader([&] {
      try {
        read_all(in, o.settings, [&] { return q.take_empty(); }, [&](Batch b) { q.push(std::move(b)); });
      } catch (...) {
        failed = std::current_exception();
      }
      q.close();
    });
    while (auto b = q.pop()) {
      analyse(*b);
      q.recycle(std::move(*b));
    }
    reader.join();
    if (failed) std::rethrow_exception(failed);
  }
  return in.errors();
}

// MAC names from the ethers files Wireshark reads, the personal one first
// (docs/command.md, "MAC names"); none when no file names a MAC.
Analyzer::MacNames ethers_names() {
  auto names = std::make_shared<ethers::Names>();
  const auto is_dir = [](const std::string& p) {
    std::error_code ec;
    return std::filesystem::is_directory(p, ec);
  };
  const passwd* pw = getpwuid(getuid());
  for (const std::string& path : ethers::default_paths(std::getenv, is_dir, pw && pw->pw_dir ? pw->pw_dir : "/tmp"))
    names->add_file(path);
  if (!names->size()) return {};
  return [names](const Mac& m) {
    const std::string* n = names->find(m);
    return n ? *n : std::string();
  };
}

int main(int argc, char** argv) {
  if (argc >= 2 && !std::strcmp(argv[1], "monitor")) return monitor_main(argc - 1, argv + 1);
  if (argc >= 2 && !std::strcmp(argv[1], "partial")) return partial_main(argc - 1, argv + 1, false);
  if (argc >= 2 && !std::strcmp(argv[1], "split")) return partial_main(argc - 1, argv + 1, true);
  const bool merging = argc >= 2 && !std::strcmp(argv[1], "merge");
  Options o;
  try {
    o = merging ? parse(argc - 1, argv + 1, true) : parse(argc, argv, false);
  } catch (const UsageError& e) {
    // A short usage: the one line of the form that was meant.
    std::fprintf(stderr, "roceshark: %s\nusage: roceshark %s\nTry 'roceshark --help' for more information.\n",
                 e.why.c_str(), merging ? "merge [OPTION]... VIEW PARTIAL..." : "[OPTION]... VIEW FILE...");
    return 2;
  }
  std::unique_ptr<Session> session;
  const auto analyse = [&](const Batch& b) {
    for (const Batch::Name& n : b.names) session->name_point(n.point, n.name);
    for (const Batch::Item& f : b.items) feed(*session, b, f);
  };
  std::vector<std::string> errors;
  try {
    if (merging) {
      // Checked whole before a record is read: a missing, doubled or
      // foreign shard never becomes a smaller report.
      PartialSet set(o.files);
      for (const std::string& opt : set.options()) set_preference(o.settings, opt);
      session = std::make_unique<Session>(o.settings, o.selection);
      if (threads_of(o) > 1) session->tap_on_thread();
      if (o.mac_names) session->name_macs(ethers_names());
      if (o.view == "events") session->keep_events();
      set.read(o.settings, analyse);
      errors = set.errors();
      if (set.drops()) session->dropped(set.drops());  // a live run's: the report is INCOMPLETE, as its windows were
    } else {
      session = std::make_unique<Session>(o.settings, o.selection);
      if (threads_of(o) > 1) session->tap_on_thread();
      if (o.mac_names) session->name_macs(ethers_names());
      if (o.view == "events") session->keep_events();
      errors = read_captures(o, analyse);
    }
    session->drain();  // the statistics' thread's failure, here rather than when drawing
  } catch (const UsageError& e) {  // a partial's -o this roceshark does not take
    std::fprintf(stderr, "roceshark: %s\n", e.why.c_str());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "roceshark: %s\n", e.what());
    return 2;  // nothing analysed, or a merge that cannot be whole
  }
  // What was read before an error is still reported, as tshark does, and
  // the report itself says it was cut short (a Limit: INCOMPLETE).
  for (const std::string& e : errors) {
    std::fprintf(stderr, "roceshark: %s; the records before it are analysed\n", e.c_str());
    session->cut_short(e);
  }
  if (const auto missing = session->selection().unmatched_points(); !missing.empty()) {
    // Not a usage error: the names come from the capture, known only now.
    std::fprintf(stderr, "roceshark: --point %s: no capture point of the input has that name or id\n",
                 missing.front().c_str());
    return 2;
  }
  int status = 0;
  if (o.view == "events") session->write_events(o.format, print);
  else status = session->view(o.view, o.fail_on_warn, print);
  if (o.view == "health" && status == 2)
    std::fputs("roceshark: cannot judge: the verdict is INCOMPLETE (part of the capture was not analysed: see Limit "
               "above) or NO DATA (no RoCE packet or PFC frame was analysed)\n", stderr);
  if (!errors.empty() && o.view != "health") status = 1;
  // A full disk or a closed output must not pass for a report written.
  if (std::fflush(stdout) != 0 || std::ferror(stdout) || std::fclose(stdout) != 0) {
    std::fprintf(stderr, "roceshark: cannot write the %s: %s\n", o.view.c_str(), std::strerror(errno));
    return 2;
  }
  return status;
}

}  // namespace
}  // namespace roceshark::cli

int main(int argc, char** argv) { return roceshark::cli::main(argc, argv); }
