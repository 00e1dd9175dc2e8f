// SPDX-License-Identifier: GPL-2.0-or-later
// roceshark: the plugin's analysis without Wireshark's dissection, for big
// captures and nightly checks (README, "The roceshark command").
//
//   roceshark [-o roce.NAME:VALUE]... VIEW FILE...
//
// prints what `tshark -q -r FILE -z roce,VIEW` prints, from the same
// decoder, analysis and views, keeping no result per frame. Several files
// are read as `mergecap -I none` would merge them; "-" is the standard input.
// Exit status (views): 0; 1 when a file could not be read to the end (what
// came before it is analysed and printed); 2 when nothing could be analysed
// (a bad command line, a file that cannot be opened or is in no known
// format) or when the output cannot be written. `health` exits as
// scripts/roce-health does: 2 also for INCOMPLETE and NO DATA.
#include <sched.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <exception>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <utility>
#include <vector>

#include "cli/batch_queue.h"
#include "cli/capture_set.h"
#include "cli/command_line.h"
#include "cli/feed.h"
#include "cli/monitor.h"
#include "cli/reader.h"
#include "epan-ext/decode/frame_decoder.h"
#include "epan-ext/common/option_list.h"
#include "epan-ext/common/preferences.h"
#include "epan-ext/session/session.h"

namespace roceshark::cli {
namespace {

constexpr const char* kUsage =
    "usage: roceshark [-o roce.NAME:VALUE]... VIEW FILE...\n"
    "       roceshark [-o roce.NAME:VALUE]... [--fail-on warn|fail] health FILE...\n"
    "       roceshark monitor [OPTION]... (-i INTERFACE | --replay FILE | FILE... | -)  (roceshark monitor --help)\n"
    "  VIEW: qp, pfc, qos, hops, triage or report (JSON): what tshark -q -z roce,VIEW prints\n"
    "  health: the triage, with its verdict as the exit status: 0 PASS (or WARN), 1 FAIL\n"
    "          (or WARN with --fail-on warn), 2 cannot judge (INCOMPLETE, NO DATA)\n"
    "  FILE: a capture in any format Wireshark reads, '-' for the standard input; several\n"
    "        files are read as mergecap -I none merges them, each file's interfaces its own points\n"
    "  -o roce.NAME:VALUE: a roce.* preference, as tshark -o takes it (README, Preferences)\n"
    "  -j N: threads; 1 reads, decodes and analyses on one, 2 or more read and decode on their\n"
    "        own (the default when 2 cores are available); the output is the same\n";

void print(std::string_view text) { std::fwrite(text.data(), 1, text.size(), stdout); }

struct Options {
  std::string view;
  std::vector<std::string> files;
  prefs::Settings settings;
  bool fail_on_warn = false;
  unsigned threads = 0;  // -j; 0: the cores available, at most 2
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

Options parse(int argc, char** argv) {
  Options o;
  int i = 1;
  for (; i < argc; ++i) {
    const std::string_view a = argv[i];
    if (a == "-o" || a == "--fail-on" || a == "-j") {
      if (i + 1 == argc) throw UsageError{std::string(a) + " needs a value"};
      const std::string_view v = argv[++i];
      if (a == "-o") set_preference(o.settings, v);
      else if (a == "-j") o.threads = parse_threads(v);
      else if (v == "warn" || v == "fail") o.fail_on_warn = v == "warn";
      else throw UsageError{"--fail-on " + std::string(v) + ": use warn or fail"};
    } else if (a.size() > 2 && a.substr(0, 2) == "-o") {
      set_preference(o.settings, a.substr(2));
    } else if (a.size() > 2 && a.substr(0, 2) == "-j") {
      o.threads = parse_threads(a.substr(2));
    } else if (a.size() > 1 && a[0] == '-') {
      throw UsageError{"unknown option " + std::string(a)};
    } else {
      break;
    }
  }
  if (i == argc) throw UsageError{"no view"};
  o.view = argv[i++];
  if (std::find(std::begin(kViewNames), std::end(kViewNames), o.view) == std::end(kViewNames))
    throw UsageError{"unknown view '" + o.view + "'"};
  if (o.fail_on_warn && o.view != "health") throw UsageError{"--fail-on applies to health only"};
  o.files.assign(argv + i, argv + argc);
  if (o.files.empty()) throw UsageError{"no capture file"};
  if (std::count(o.files.begin(), o.files.end(), "-") > 1) throw UsageError{"'-' (the standard input) twice"};
  return o;
}

int main(int argc, char** argv) {
  if (argc >= 2 && !std::strcmp(argv[1], "monitor")) return monitor_main(argc - 1, argv + 1);
  if (argc == 2 && (!std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "--help"))) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  Options o;
  try {
    o = parse(argc, argv);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "roceshark: %s\n%s", e.why.c_str(), kUsage);
    return 2;
  }
  std::unique_ptr<CaptureSet> in;
  try {
    in = std::make_unique<CaptureSet>(o.files);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "roceshark: %s\n", e.what());
    return 2;  // nothing analysed
  }
  auto session = std::make_unique<Session>(o.settings);
  const auto analyse = [&](const Batch& b) {
    for (const Batch::Name& n : b.names) session->name_point(n.point, n.name);
    for (const Batch::Item& f : b.items) feed(*session, b, f);
  };
  const unsigned threads = o.threads ? o.threads : std::min(2u, cores_available());
  if (threads == 1) {
    Batch spare;
    read_all(*in, o.settings, [&] { return std::move(spare); }, [&](Batch b) {
      analyse(b);
      spare = std::move(b);
    });
  } else {
    // libwiretap and the decoder on their own thread; the analysis here.
    BatchQueue<Batch> q(4);
    std::exception_ptr failed;
    std::thread reader([&] {
      try {
        read_all(*in, o.settings, [&] { return q.take_empty(); }, [&](Batch b) { q.push(std::move(b)); });
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
  // What was read before an error is still reported, as tshark does, and
  // the report itself says it was cut short (a Limit: INCOMPLETE).
  for (const std::string& e : in->errors()) {
    std::fprintf(stderr, "roceshark: %s; the records before it are analysed\n", e.c_str());
    session->cut_short(e);
  }
  int status = session->view(o.view, o.fail_on_warn, print);
  if (o.view == "health" && status == 2)
    std::fputs("roceshark: cannot judge: the verdict is INCOMPLETE (part of the capture was not analysed: see Limit "
               "above) or NO DATA (no RoCE packet or PFC frame was analysed)\n", stderr);
  if (!in->errors().empty() && o.view != "health") status = 1;
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
