// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/analysis/psn_index.h"

#include <gtest/gtest.h>

#include "epan-ext/analysis/pending_acks.h"

namespace roceshark {
namespace {

TEST(FirstSeenIndex, KeepsTheFirstFrame) {
  FirstSeenIndex idx;
  idx.note(10, 1);
  idx.note(10, 5);
  EXPECT_EQ(idx.find(10), 1u);
  EXPECT_EQ(idx.find(11), 0u);
}

TEST(FirstSeenIndex, GrowsThenForgetsOldest) {
  FirstSeenIndex idx;
  const uint32_t n = FirstSeenIndex::kMaxCapacity * 2;
  for (uint32_t i = 0; i < n; ++i) idx.note(0xFFFF00 + i, i + 1);  // crosses the PSN wrap
  EXPECT_EQ(idx.find(0xFFFF00 + n - 1), n);
  EXPECT_EQ(idx.find(0xFFFF00 + n - FirstSeenIndex::kMaxCapacity), n - FirstSeenIndex::kMaxCapacity + 1);
  EXPECT_EQ(idx.find(0xFFFF00), 0u);  // evicted
}

TEST(RecentPackets, MatchesIcrcWhenBothHaveIt) {
  RecentPackets r;
  r.push({100, 1, 7, 0xAAAA, 64, 0x0A, true});
  EXPECT_NE(r.find_same({200, 2, 7, 0xAAAA, 64, 0x0A, true}), nullptr);
  EXPECT_EQ(r.find_same({200, 2, 7, 0xBBBB, 64, 0x0A, true}), nullptr);
  EXPECT_NE(r.find_same({200, 2, 7, 0, 64, 0x0A, false}), nullptr);  // snaplen cut the ICRC
  EXPECT_EQ(r.find_same({200, 2, 7, 0xAAAA, 65, 0x0A, true}), nullptr);
}

TEST(PendingAcks, CoalescedAckCoversSeveral) {
  PendingAcks p;
  std::vector<uint64_t> samples;
  p.on_request(1, 1000, 1, false);
  p.on_request(2, 2000, 2, false);
  p.on_request(3, 3000, 3, false);
  const Covered c = p.on_response(2, true, 5000, samples);
  EXPECT_EQ(c.count, 2u);
  EXPECT_EQ(c.newest_frame, 2u);
  EXPECT_EQ(c.newest_rtt_ns, 3000u);
  EXPECT_EQ(samples, (std::vector<uint64_t>{4000, 3000}));
  EXPECT_EQ(p.size(), 1u);
}

TEST(PendingAcks, SequenceErrorNakCoversOnlyBefore) {
  PendingAcks p;
  std::vector<uint64_t> samples;
  p.on_request(5, 0, 1, false);
  p.on_request(6, 0, 2, false);
  EXPECT_EQ(p.on_response(6, false, 10, samples).count, 1u);
  EXPECT_EQ(p.size(), 1u);
}

TEST(PendingAcks, KarnDropsResentPsns) {
  PendingAcks p;
  std::vector<uint64_t> samples;
  p.on_request(5, 0, 1, false);
  p.on_request(6, 0, 2, false);
  p.on_request(7, 0, 3, false);
  p.on_request(6, 50, 4, true);
  EXPECT_EQ(p.size(), 1u);
  EXPECT_EQ(p.on_response(7, true, 100, samples).count, 1u);
}

TEST(PendingAcks, BoundedWithoutResponses) {
  PendingAcks p(16);
  for (uint32_t i = 0; i < 1000; ++i) p.on_request(i, i, i + 1, false);
  EXPECT_EQ(p.size(), 16u);
}

TEST(PendingAcks, AckAcrossTheWrap) {
  PendingAcks p;
  std::vector<uint64_t> samples;
  p.on_request(0xFFFFFE, 0, 1, false);
  p.on_request(0xFFFFFF, 0, 2, false);
  p.on_request(0, 0, 3, false);
  EXPECT_EQ(p.on_response(0, true, 10, samples).count, 3u);
}

}  // namespace
}  // namespace roceshark
