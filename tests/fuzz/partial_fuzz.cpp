// SPDX-License-Identifier: GPL-2.0-or-later
// libFuzzer target for a merge of hand-made partial reports (ROCESHARK_FUZZ=ON,
// clang; scripts/run-fuzz): each input becomes a well-framed partial, its
// checksums good, whose records are the fuzzer's bytes, so what is fuzzed is
// what a checksum cannot catch: records no decoder would give, read by
// record_codec's checks, then analysed and drawn in every view as `roceshark
// merge` draws them. A record the checks refuse must end the merge with
// PartialError, never a crash.
//
// Input: records until the input ends, each: one byte c: kind (c % 6) + 1
// (6: a frame not analysed), interface (c >> 3) & 3, the time back rather
// than on when c & 0x20; a u16 time step in µs; a u8 payload length and
// that many payload bytes.
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>

#include "cli/partial_file.h"
#include "cli/partial_set.h"
#include "cli/feed.h"
#include "epan-ext/session/session.h"

namespace {

using namespace roceshark;
using namespace roceshark::cli;

std::string write_partial(const uint8_t* p, const uint8_t* end) {
  static const std::string path = "/tmp/partial_fuzz." + std::to_string(getpid()) + ".rsp";
  Manifest m;
  m.roceshark = "fuzz";
  m.inputs.push_back({"fuzz.pcapng", 0, "00000000"});
  m.files = {0};
  PartialWriter w(path, m);
  w.begin_file(0);
  uint32_t number = 0;
  uint64_t ts = 1'000'000'000;
  while (end - p >= 4) {
    const uint8_t c = p[0];
    const uint64_t step = (uint64_t(p[1]) | uint64_t(p[2]) << 8) * 1000;
    const size_t len = std::min<size_t>(p[3], size_t(end - p - 4));
    ts = c & 0x20 ? ts - step : ts + step;
    const auto kind = decode::Kind(c % 6);
    PartialRecord r{kind, ++number, uint32_t((c >> 3) & 3), 1024, ts, {}};
    if (kind != decode::Kind::not_ours) r.payload = {p + 4, len};
    if (kind == decode::Kind::not_ours || len > 0) w.record(r);
    p += 4 + len;
  }
  FileTrailer t;
  t.frames = number;
  t.declared_interfaces = 4;
  t.interface_names = {"if0", "if1", "if2", "if3"};
  w.end_file(std::move(t));
  w.finish();
  return path;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string path = write_partial(data, data + size);
  for (std::string_view view : kViewNames) {
    prefs::Settings settings;
    Session s(settings);
    try {
      PartialSet set({path});
      set.read(settings, [&](const Batch& b) {
        for (const Batch::Name& n : b.names) s.name_point(n.point, n.name);
        for (const Batch::Item& f : b.items) feed(s, b, f);
      });
    } catch (const PartialError&) {
      break;  // refused, as it should be: the same for every view
    }
    std::string text;
    const int status = s.view(view, false, [&](std::string_view t) { text += t; });
    if (status < 0 || status > 2) {
      std::fprintf(stderr, "%.*s: exit status %d\n", int(view.size()), view.data(), status);
      std::abort();
    }
  }
  unlink(path.c_str());
  return 0;
}
