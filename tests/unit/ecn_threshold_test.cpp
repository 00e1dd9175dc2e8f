// SPDX-License-Identifier: GPL-2.0-or-later
// The ECN threshold estimator against a RED marker with known thresholds.
// The tolerances here are the ones docs/multipoint.md states.
#include "epan-ext/analysis/ecn_threshold.h"

#include <gtest/gtest.h>

#include <random>

namespace roceshark::hop {
namespace {

using State = EcnEstimate::State;

// Queueing uniform in [0, max_us]; marked with RED's probability: 0 below
// kmin, rising linearly to pmax at kmax, 1 above. `noise`: that share of
// packets is marked whatever its queue (a mark from elsewhere, a queue
// measured wrong).
struct Red {
  double kmin_us, kmax_us, pmax, max_us = 150, noise = 0;
};

EcnThreshold run(const Red& r, int packets, uint64_t seed = 1) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> queue(0, r.max_us), coin(0, 1);
  EcnThreshold t;
  for (int i = 0; i < packets; ++i) {
    const double q = queue(rng);
    const double p = q < r.kmin_us ? 0 : q >= r.kmax_us ? 1 : r.pmax * (q - r.kmin_us) / (r.kmax_us - r.kmin_us);
    t.add(static_cast<uint64_t>(q * 1000), coin(rng) < p || coin(rng) < r.noise);
  }
  return t;
}

double us(uint64_t ns) { return static_cast<double>(ns) / 1000; }

// The accuracy docs/multipoint.md states: with 200 or more marks on the ramp
// (below the full point) the onset is within 5 us, over 20 seeds each.
TEST(EcnThreshold, RecoversOnsetAndFullMarking) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    // A ramp to 100% at 60 us: the full point is where unmarked packets
    // become rare, so it reads low.
    EcnEstimate e = run({20, 60, 1}, 2400, seed).estimate();
    ASSERT_EQ(e.state, State::marks);
    EXPECT_GE(e.ramp_marked, 200u);
    EXPECT_NEAR(us(e.onset_ns), 20, 5) << "seed " << seed;
    ASSERT_TRUE(e.full_ns);
    EXPECT_NEAR(us(*e.full_ns), 57, 3) << "seed " << seed;
    // DCQCN's usual ramp to 20%, then 100% past Kmax: the jump places the
    // full point exactly.
    e = run({20, 60, 0.2}, 10000, seed).estimate();
    ASSERT_EQ(e.state, State::marks);
    EXPECT_GE(e.ramp_marked, 200u);
    EXPECT_NEAR(us(e.onset_ns), 20, 5) << "seed " << seed;
    ASSERT_TRUE(e.full_ns);
    EXPECT_NEAR(us(*e.full_ns), 60, 0.5) << "seed " << seed;
  }
}

TEST(EcnThreshold, StepMarking) {
  // DCTCP-like: every packet above K, none below.
  const EcnEstimate e = run({40, 40, 1}, 500).estimate();
  ASSERT_EQ(e.state, State::marks);
  EXPECT_NEAR(us(e.onset_ns), 40, 1);
  ASSERT_TRUE(e.full_ns);
  EXPECT_NEAR(us(*e.full_ns), 40, 1);
}

TEST(EcnThreshold, TooFewSamplesIsNotEnoughEvidence) {
  EXPECT_EQ(run({20, 60, 0.2}, EcnThreshold::kMinSamples - 1).estimate().state, State::not_enough);
  // Enough packets, too few marks: the queue barely reached the onset.
  const EcnEstimate e = run({20, 60, 1, 25}, 400).estimate();
  EXPECT_LT(e.marked, EcnThreshold::kMinMarked);
  EXPECT_GT(e.marked, 0u);
  EXPECT_EQ(e.state, State::not_enough);
  EXPECT_EQ(EcnThreshold{}.estimate().state, State::not_enough);
}

TEST(EcnThreshold, MarksWithoutQueueingAreNoThreshold) {
  // Marked and unmarked packets at the same queueing (an explicit mark, as
  // mp_ce's): nothing places an onset or a full point.
  EcnThreshold t;
  for (int i = 0; i < 64; ++i) t.add(0, i % 4 != 0);
  const EcnEstimate e = t.estimate();
  EXPECT_EQ(e.state, State::not_enough);
  EXPECT_FALSE(e.full_ns);
}

TEST(EcnThreshold, NeverMarkingHop) {
  const EcnEstimate e = run({1000, 2000, 1}, 500).estimate();
  EXPECT_EQ(e.state, State::never_marked);
  EXPECT_EQ(e.marked, 0u);
  EXPECT_NEAR(us(e.max_unmarked_ns), 150, 1);
  EXPECT_FALSE(e.full_ns);
}

TEST(EcnThreshold, NoisyMarking) {
  // 2% of packets marked whatever their queue: the fitted floor absorbs
  // them, at some cost in accuracy.
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    const EcnEstimate e = run({20, 60, 1, 150, 0.02}, 1500, seed).estimate();
    ASSERT_EQ(e.state, State::marks);
    EXPECT_NEAR(us(e.onset_ns), 20, 7) << "seed " << seed;
  }
}

}  // namespace
}  // namespace roceshark::hop
