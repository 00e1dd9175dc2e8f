// SPDX-License-Identifier: GPL-2.0-or-later
// libFuzzer target for the frame decoder and the analysis behind it
// (ROCESHARK_FUZZ=ON, clang; scripts/run-fuzz):
//   build-fuzz/tests/fuzz/decode_fuzz -max_total_time=300 tests/fuzz/corpus
// ASan and UBSan catch reads past the frame; decode_problem the answers
// that contradict themselves. Each input is also one frame of a capture the
// engine analyses, inputs in the order the fuzzer makes them, at two
// capture points; the engine is renewed every kFramesPerEngine frames so
// that its per-frame store stays bounded.
#include <cstdio>
#include <cstdlib>
#include <memory>

#include "epan-ext/analysis/analyzer.h"
#include "tests/fuzz/decode_checks.h"

namespace {

constexpr uint32_t kFramesPerEngine = 4096;

void analyse(std::span<const uint8_t> bytes) {
  static std::unique_ptr<roceshark::Analyzer> engine;
  static uint32_t frame = 0;
  if (!engine || frame == kFramesPerEngine) {
    engine = std::make_unique<roceshark::Analyzer>();
    frame = 0;
  }
  ++frame;
  roceshark::decode::FrameIn in;
  in.bytes = bytes;
  in.wire_len = static_cast<uint32_t>(bytes.size());
  in.frame = frame;
  in.point = frame % 2;
  in.ts_ns = uint64_t{frame} * 1000 + (bytes.empty() ? 0 : bytes[0]);
  const roceshark::decode::Decoded d = roceshark::decode::decode_frame(in);
  switch (d.kind) {
    case roceshark::decode::Kind::roce: engine->process(d.packet); break;
    case roceshark::decode::Kind::pause: engine->process(d.pause); break;
    case roceshark::decode::Kind::dcbx: engine->process(frame, in.ts_ns, d.dcbx); break;
    case roceshark::decode::Kind::icmp: engine->process(d.icmp); break;
    case roceshark::decode::Kind::cross: engine->process(d.cross); break;
    case roceshark::decode::Kind::not_ours: break;
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (const std::string problem = roceshark::test::decode_problem({data, size}); !problem.empty()) {
    std::fprintf(stderr, "decode: %s\n", problem.c_str());
    std::abort();
  }
  analyse({data, size});
  return 0;
}
