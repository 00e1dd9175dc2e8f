// SPDX-License-Identifier: GPL-2.0-or-later
// Hops compared by their ECN marking: the rule docs/multipoint.md states,
// on hops fed from a RED marker with known thresholds.
#include "epan-ext/analysis/ecn_compare.h"

#include <gtest/gtest.h>

#include <optional>
#include <random>

namespace roceshark::hop {
namespace {

constexpr uint64_t kTolerance = 20'000;
constexpr EcnPlace kLeaf{0, 1, 3}, kSpine{1, 2, 3}, kSpineOtherPrio{1, 2, 4};

// Queueing uniform in [0, max_us], marked by RED from kmin to kmax (100% there).
template <typename Add>
void red(Add add, double kmin_us, double kmax_us, int packets, double max_us = 150, uint64_t seed = 1) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> queue(0, max_us), coin(0, 1);
  for (int i = 0; i < packets; ++i) {
    const double q = queue(rng);
    const double p = q < kmin_us ? 0 : q >= kmax_us ? 1 : (q - kmin_us) / (kmax_us - kmin_us);
    add(static_cast<uint64_t>(q * 1000), coin(rng) < p);
  }
}

void feed(EcnThresholds& hops, const EcnPlace& p, double kmin_us, double kmax_us, int packets, double max_us = 150,
          uint64_t seed = 1) {
  red([&](uint64_t q, bool m) { hops[p].add(q, m); }, kmin_us, kmax_us, packets, max_us, seed);
}

TEST(EcnCompare, CleanFabricNoMismatch) {
  EcnThresholds hops;
  feed(hops, kLeaf, 20, 60, 2400, 150, 1);
  feed(hops, kSpine, 20, 60, 2400, 150, 2);
  EXPECT_TRUE(ecn_mismatches(hops, {kTolerance}).empty());
}

// The leaf marks from 20 us; the spine as given. Its one mismatch, if any.
std::optional<EcnMismatch> spine_mismatch(double kmin_us, double kmax_us, int packets) {
  EcnThresholds hops;
  feed(hops, kLeaf, 20, 60, 2400);
  feed(hops, kSpine, kmin_us, kmax_us, packets);
  const auto m = ecn_mismatches(hops, {kTolerance});
  if (m.size() != 1 || m[0].place != kSpine || m[0].reference != kLeaf || !m[0].unmarked) return std::nullopt;
  return m[0];
}

TEST(EcnCompare, LaterOnsetIsAMismatch) {
  const auto m = spine_mismatch(90, 130, 2400);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->here.state, EcnEstimate::State::marks);
}

TEST(EcnCompare, NeverMarkingHopQueueingBeyondTheOnset) {
  const auto m = spine_mismatch(1000, 2000, 500);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->here.state, EcnEstimate::State::never_marked);
}

TEST(EcnCompare, NoEvidenceNoFinding) {
  EcnThresholds hops;
  feed(hops, kLeaf, 20, 60, 2400);
  // Never marks, but never queues beyond the leaf's onset plus the tolerance.
  feed(hops, kSpine, 1000, 2000, 500, 30);
  // Another priority is not compared with the leaf's.
  feed(hops, kSpineOtherPrio, 1000, 2000, 500);
  EXPECT_TRUE(ecn_mismatches(hops, {kTolerance}).empty());
  // The reference itself has too few packets to place an onset.
  EcnThresholds few;
  feed(few, kLeaf, 20, 60, EcnThreshold::kMinSamples - 1);
  feed(few, kSpine, 1000, 2000, 500);
  EXPECT_TRUE(ecn_mismatches(few, {kTolerance}).empty());
}

// The engine flags, on the first pass, only unmarked packets beyond the
// reference's onset plus the tolerance on the hop the finding names.
TEST(EcnCompare, WatchFlagsTheLateHopsUnmarkedPackets) {
  EcnWatch watch(kTolerance);
  int leaf_flags = 0, spine_flags = 0;
  red([&](uint64_t q, bool m) { leaf_flags += watch.add(kLeaf, q, m); }, 20, 60, 2400);
  red([&](uint64_t q, bool m) {
        const bool flag = watch.add(kSpine, q, m);
        spine_flags += flag;
        if (flag) {
          EXPECT_TRUE(!m && q > 20'000 + kTolerance - 5'000) << q;
        }
      }, 1000, 2000, 500);
  EXPECT_EQ(leaf_flags, 0);
  EXPECT_GT(spine_flags, 100);
}

// The health metric's spread: near 0 on hops that mark alike, the onsets'
// distance when one marks later, and for a hop that never marks how far past
// the other's onset 20 of its packets queued; nothing to say with one hop.
TEST(EcnSpread, AlikeLateAndNever) {
  EcnThresholds alike;
  feed(alike, kLeaf, 20, 60, 2400, 150, 1);
  feed(alike, kSpine, 20, 60, 2400, 150, 2);
  const auto a = ecn_spread(alike);
  ASSERT_TRUE(a);
  EXPECT_LT(a->ns, 4'000u);

  EcnThresholds late;
  feed(late, kLeaf, 20, 60, 2400);
  feed(late, kSpine, 90, 130, 2400);
  const auto l = ecn_spread(late);
  ASSERT_TRUE(l);
  EXPECT_EQ(l->place, kSpine);
  EXPECT_EQ(l->reference, kLeaf);
  EXPECT_FALSE(l->never_marked);
  EXPECT_NEAR(static_cast<double>(l->ns), 70'000, 6'000);

  EcnThresholds never;
  feed(never, kLeaf, 20, 60, 2400);
  feed(never, kSpine, 1000, 2000, 500, 100);  // unmarked, queueing uniform up to 100 us
  const auto n = ecn_spread(never);
  ASSERT_TRUE(n);
  EXPECT_TRUE(n->never_marked);
  // The 20th-deepest of 500 packets spread over 100 us queued ~96 us: ~76 us past the onset.
  EXPECT_NEAR(static_cast<double>(n->ns), 76'000, 6'000);
}

TEST(EcnSpread, NothingToCompare) {
  EcnThresholds one;
  feed(one, kLeaf, 20, 60, 2400);
  EXPECT_FALSE(ecn_spread(one));
  EcnThresholds other_priority;  // two hops, but of different priorities
  feed(other_priority, kLeaf, 20, 60, 2400);
  feed(other_priority, kSpineOtherPrio, 90, 130, 2400);
  EXPECT_FALSE(ecn_spread(other_priority));
  EcnThresholds few;  // the second hop has too few packets to judge
  feed(few, kLeaf, 20, 60, 2400);
  feed(few, kSpine, 90, 130, 10);
  EXPECT_FALSE(ecn_spread(few));
}

}  // namespace
}  // namespace roceshark::hop
