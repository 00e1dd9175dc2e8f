// SPDX-License-Identifier: GPL-2.0-or-later
// roceshark: the plugin's analysis without Wireshark's dissection, for big
// captures and nightly checks (README, "The roceshark command").
//
//   roceshark VIEW FILE     VIEW: qp, pfc, qos, hops, triage, report
//
// prints what `tshark -q -r FILE -z roce,VIEW` prints, from the same
// decoder, analysis and views, keeping no result per frame. Exit status: 0;
// 1 when the file could not be read to the end (what came before it is
// analysed and printed); 2 when nothing could be analysed (a bad command
// line, a file that cannot be opened or is in no known format).
#include <cstdio>
#include <cstring>
#include <algorithm>
#include <exception>
#include <memory>
#include <string>
#include <string_view>

#include "cli/capture_reader.h"
#include "epan-ext/decode/frame_decoder.h"
#include "epan-ext/event_log.h"
#include "epan-ext/points.h"
#include "epan-ext/tapped.h"
#include "epan-ext/views.h"

namespace roceshark::cli {
namespace {

constexpr const char* kUsage =
    "usage: roceshark VIEW FILE\n"
    "  VIEW: qp, pfc, qos, hops, triage or report (JSON): what tshark -q -z roce,VIEW prints\n"
    "  FILE: a capture in any format Wireshark reads\n";

constexpr std::string_view kViews[] = {"qp", "pfc", "qos", "hops", "triage", "report"};

void print(std::string_view text) { std::fwrite(text.data(), 1, text.size(), stdout); }

// Everything of one capture, as the plugin's session and tap gather it.
struct Run {
  Config cfg;
  points::Naming naming;
  EventLog events;
  Analyzer analyzer{cfg, &events};
  Tapped<ReportStats> tapped;

  void frame(CaptureReader& in, const Record& r, uint32_t number) {
    decode::FrameIn f;
    f.bytes = r.bytes, f.wire_len = r.wire_len, f.frame = number, f.point = r.interface, f.ts_ns = r.ts_ns;
    f.link = r.ethernet ? decode::LinkType::ethernet : decode::LinkType::other;
    decode::Decoded d = decode::decode_frame(f);
    if (d.kind == decode::Kind::not_ours) return;
    const uint32_t point = points::frame_point(naming.key, r.interface, d.erspan_session, d.outer_vlan);
    d.set_point(point);
    if (!analyzer.point_named(point))
      analyzer.name_point(point, points::name(naming, point, points::is_interface(point) ? in.interface_name(point) : nullptr));
    TapRecord rec{nullptr, &analyzer, r.ts_ns, r.wire_len, nullptr, nullptr, &events};
    qos::DcbxVerdict dcbx;
    switch (d.kind) {
      case decode::Kind::roce: rec = latest_record(analyzer.process(d.packet), analyzer, r.ts_ns, r.wire_len, &events); break;
      case decode::Kind::pause: rec.pause = &analyzer.process(d.pause); break;
      case decode::Kind::dcbx: dcbx = analyzer.process(number, d.dcbx), rec.dcbx = &dcbx; break;
      case decode::Kind::not_ours: return;
    }
    tapped.add(rec);
  }

  void view(std::string_view name) {
    tapped.settle();
    const ReportStats& s = tapped.stats;
    const Analyzer* a = tapped.analyzer;
    const std::string filter;  // none yet
    if (name == "qp") views::qp(s.qp, a, filter, print);
    else if (name == "pfc") views::pfc(s.pfc, a, filter, print);
    else if (name == "qos") views::qos(s.qos, a, cfg.policy, filter, print);
    else if (name == "hops") views::hops(s.hops, a, filter, print);
    else if (name == "triage") views::triage(s, a, filter, print);
    else views::report(s, a, filter, print);
  }
};

int main(int argc, char** argv) {
  if (argc == 2 && (!std::strcmp(argv[1], "-h") || !std::strcmp(argv[1], "--help"))) {
    std::fputs(kUsage, stdout);
    return 0;
  }
  if (argc != 3) {
    std::fputs(kUsage, stderr);
    return 2;
  }
  const std::string_view view = argv[1];
  if (std::find(std::begin(kViews), std::end(kViews), view) == std::end(kViews)) {
    std::fprintf(stderr, "roceshark: unknown view '%s'\n%s", argv[1], kUsage);
    return 2;
  }
  std::unique_ptr<CaptureReader> in;
  try {
    in = std::make_unique<CaptureReader>(argv[2]);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "roceshark: %s\n", e.what());
    return 2;  // nothing analysed
  }
  Run run;
  int status = 0;
  try {
    Record r;
    for (uint32_t n = 1; in->next(r); ++n) run.frame(*in, r, n);
  } catch (const std::exception& e) {
    // What was read before the error is still reported, as tshark does.
    std::fprintf(stderr, "roceshark: %s; the records before it are analysed\n", e.what());
    status = 1;
  }
  run.view(view);
  return status;
}

}  // namespace
}  // namespace roceshark::cli

int main(int argc, char** argv) { return roceshark::cli::main(argc, argv); }
