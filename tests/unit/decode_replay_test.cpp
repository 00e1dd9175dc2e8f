// SPDX-License-Identifier: GPL-2.0-or-later
// The decoder fuzzer's seeds (tests/fuzz/corpus/decode) and a fixed series of mutations of
// them through the decoder, in every build: no crash (ASan builds: no bad
// read), and every "not ours" says why. Deterministic: a fixed seed and count.
#include <gtest/gtest.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <vector>

#include "tests/fuzz/decode_checks.h"

namespace roceshark::test {
namespace {

using Bytes = std::vector<uint8_t>;

std::vector<Bytes> seeds() {
  std::vector<Bytes> out;
  for (const auto& e : std::filesystem::directory_iterator(ROCESHARK_SOURCE_DIR "/tests/fuzz/corpus/decode")) {
    std::ifstream f(e.path(), std::ios::binary);
    out.emplace_back(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  }
  return out;
}

// Length fields are where decoders break: set 16-bit words to their extremes
// as often as flipping bits, and cut, grow and shrink the frame.
void mutate(Bytes& f, std::mt19937& rng) {
  const auto pick = [&](size_t n) { return std::uniform_int_distribution<size_t>(0, n - 1)(rng); };
  switch (pick(5)) {
    case 0: if (!f.empty()) f[pick(f.size())] ^= static_cast<uint8_t>(1u << pick(8)); break;
    case 1:
      if (f.size() >= 2) {
        const size_t at = pick(f.size() - 1);
        const uint16_t v = std::array<uint16_t, 4>{0, 0xFFFF, 0x8000, static_cast<uint16_t>(rng())}[pick(4)];
        f[at] = static_cast<uint8_t>(v >> 8), f[at + 1] = static_cast<uint8_t>(v);
      }
      break;
    case 2: if (!f.empty()) f.resize(pick(f.size())); break;
    case 3: f.insert(f.begin() + static_cast<long>(pick(f.size() + 1)), pick(16) + 1, static_cast<uint8_t>(rng())); break;
    case 4: if (f.size() > 1) f.erase(f.begin() + static_cast<long>(pick(f.size()))); break;
  }
}

TEST(DecodeReplay, SeedsAndMutations) {
  const std::vector<Bytes> corpus = seeds();
  ASSERT_GE(corpus.size(), 10u);
  std::mt19937 rng(20261203);
  for (const Bytes& seed : corpus) {
    EXPECT_EQ(decode_problem(seed), "");
    for (int i = 0; i < 10000; ++i) {
      Bytes f = seed;
      for (int m = 1 + static_cast<int>(rng() % 4); m > 0; --m) mutate(f, rng);
      const std::string problem = decode_problem(f);
      ASSERT_EQ(problem, "") << "mutation " << i << " of a " << seed.size() << "-byte seed";
    }
  }
}

}  // namespace
}  // namespace roceshark::test
