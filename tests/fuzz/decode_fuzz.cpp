// SPDX-License-Identifier: GPL-2.0-or-later
// libFuzzer target for the frame decoder (ROCESHARK_FUZZ=ON, clang):
//   build-fuzz/tests/fuzz/decode_fuzz -max_total_time=300 tests/fuzz/corpus
// ASan and UBSan catch reads past the frame; decode_problem the answers
// that contradict themselves.
#include <cstdio>
#include <cstdlib>

#include "tests/fuzz/decode_checks.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (const std::string problem = roceshark::test::decode_problem({data, size}); !problem.empty()) {
    std::fprintf(stderr, "decode: %s\n", problem.c_str());
    std::abort();
  }
  return 0;
}
