// SPDX-License-Identifier: GPL-2.0-or-later
// The backlog of a `queue` burst at its corners: it fills linearly over
// for=, reaches the delay at its end, and drains one ns per ns.
#include "captures/gen/queue_burst.h"

#include <gtest/gtest.h>

namespace roceshark::gen {
namespace {

QueueBurst burst() {
  QueueBurst q;
  q.delay = 50'000;   // 50us
  q.at = 20'000;      // from 20us
  q.length = 30'000;  // for 30us
  return q;
}

TEST(QueueBurst, FillsThenDrains) {
  const QueueBurst q = burst();
  EXPECT_EQ(q.backlog(0), 0);
  EXPECT_EQ(q.backlog(19'999), 0);
  EXPECT_EQ(q.backlog(20'000), 0);           // nothing queued yet at the start
  EXPECT_EQ(q.backlog(20'001), 1);           // 50/30 of a ns, rounded down
  EXPECT_EQ(q.backlog(35'000), 25'000);      // half way: half the delay
  EXPECT_EQ(q.backlog(49'999), 49'998);
  EXPECT_EQ(q.backlog(50'000), 50'000);      // the peak, at at + for
  EXPECT_EQ(q.backlog(60'000), 40'000);      // draining at line rate
  EXPECT_EQ(q.backlog(99'999), 1);
  EXPECT_EQ(q.backlog(100'000), 0);          // empty at at + for + delay
  EXPECT_EQ(q.end(), 100'000);
}

TEST(QueueBurst, WhatLeavesTheQueueLeavesInOrder) {
  // t + backlog(t) never decreases: a FIFO does not reorder.
  const QueueBurst q = burst();
  Ns last = 0;
  for (Ns t = 0; t < 120'000; t += 7) {
    EXPECT_GE(t + q.backlog(t), last) << t;
    last = t + q.backlog(t);
  }
}

TEST(QueueBurst, AShortBurstWithALongDelay) {
  QueueBurst q;
  q.delay = 10'000;
  q.at = 1'000;
  q.length = 3;
  EXPECT_EQ(q.backlog(1'001), 3'333);
  EXPECT_EQ(q.backlog(1'003), 10'000);
  EXPECT_EQ(q.backlog(11'002), 1);
  EXPECT_EQ(q.backlog(11'003), 0);
}

}  // namespace
}  // namespace roceshark::gen
