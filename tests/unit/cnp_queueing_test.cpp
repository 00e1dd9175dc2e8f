// SPDX-License-Identifier: GPL-2.0-or-later
// CNPs judged against the RoCE data that crossed the hop just before them
// (docs/multipoint.md, "CNPs queued like data").
#include "epan-ext/analysis/cnp_queueing.h"

#include <gtest/gtest.h>

namespace roceshark::hop {
namespace {

constexpr uint64_t us = 1000;
constexpr uint32_t kFrom = 1, kTo = 0;

HopVerdict crossed(int64_t latency_ns, uint64_t queue_ns, bool overtaken = false) {
  HopVerdict h;
  h.prev_point = kFrom;
  h.latency_ns = latency_ns;
  h.queue_ns = queue_ns;
  h.overtaken = overtaken;
  return h;
}

TEST(CnpQueueing, ACnpWaitingLikeTheDataSharesItsQueue) {
  CnpQueueing q;
  q.data(100 * us, crossed(22 * us, 20 * us), kTo);  // base latency 2 us
  // Its own flow's minimum may be queued too: the wait is above the data's base.
  EXPECT_EQ(q.queued_like_data(101 * us, crossed(17 * us, 0), kTo), 15 * us);
  EXPECT_EQ(q.queued_like_data(101 * us, crossed(12 * us, 0), kTo), 10 * us);  // half: still the same queue
}

TEST(CnpQueueing, AStrictClassCnpPassesTheQueue) {
  CnpQueueing q;
  q.data(100 * us, crossed(22 * us, 20 * us), kTo);
  EXPECT_EQ(q.queued_like_data(101 * us, crossed(2 * us + 300, 0), kTo), 0u);  // one frame's serialization
  EXPECT_EQ(q.queued_like_data(101 * us, crossed(11 * us, 0), kTo), 0u);       // under half the data's wait
}

TEST(CnpQueueing, NotEnoughEvidenceSaysNothing) {
  CnpQueueing q;
  EXPECT_EQ(q.queued_like_data(1 * us, crossed(30 * us, 0), kTo), 0u);  // no data crossed the hop
  q.data(100 * us, crossed(9 * us, 7 * us), kTo);                          // the data barely queued
  EXPECT_EQ(q.queued_like_data(101 * us, crossed(9 * us, 0), kTo), 0u);
  q.data(200 * us, crossed(32 * us, 30 * us), kTo);
  EXPECT_EQ(q.queued_like_data(206 * us, crossed(32 * us, 0), kTo), 0u);  // the data crossed too long before
  EXPECT_EQ(q.queued_like_data(201 * us, crossed(32 * us, 0), kTo + 2), 0u);  // another hop
  // An overtaken packet took a longer way: no queue to compare with.
  CnpQueueing r;
  r.data(100 * us, crossed(32 * us, 30 * us, true), kTo);
  EXPECT_EQ(r.queued_like_data(101 * us, crossed(32 * us, 0), kTo), 0u);
}

}  // namespace
}  // namespace roceshark::hop
