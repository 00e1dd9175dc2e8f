// SPDX-License-Identifier: GPL-2.0-or-later
// The multi-point directives of the scenario language: clock, queue,
// collector, erspan, and what the parser refuses about them.
#include <gtest/gtest.h>

#include "tests/captures/test_util.h"

#include <string>
#include <utility>

#include "captures/gen/scenario_parser.h"

namespace roceshark::gen {
namespace {

const std::string kBase =
    "host a 10.0.0.1 02:00:00:00:00:0a\n"
    "host b 10.0.0.2 02:00:00:00:00:0b\n"
    "path a 1us p1 2us p2 3us p3 1us b\n"
    "qp q a:0x11 b:0x22 psn=100,500\n";

using test::error_of;

TEST(ScenarioMultipoint, ClockOffsetsMayBeNegative) {
  Scenario s = parse_scenario(kBase + "clock p2 37us\nclock p3 -1.5us\n");
  EXPECT_EQ(s.points[0].clock, 0);
  EXPECT_EQ(s.points[1].clock, 37'000);
  EXPECT_EQ(s.points[2].clock, -1'500);
  EXPECT_EQ(s.shift_of(1), 37'000);
  EXPECT_EQ(s.shift_of(2), -1'500);
}

TEST(ScenarioMultipoint, QueueBurst) {
  Scenario s = parse_scenario(kBase + "queue p2 50us at=20us for=30us dir=a->b\nqueue p2 5us at=200us for=1us cnp=strict\n");
  ASSERT_EQ(s.queues.size(), 2u);
  const QueueBurst& q = s.queues[0];
  EXPECT_EQ(q.point, 1u);
  EXPECT_EQ(q.delay, 50'000);
  EXPECT_EQ(q.at, 20'000);
  EXPECT_EQ(q.length, 30'000);
  ASSERT_TRUE(q.dir.has_value());
  EXPECT_EQ((*q.dir)[0], 0u);
  EXPECT_FALSE(s.queues[1].dir.has_value());  // both directions
  EXPECT_FALSE(q.cnp_strict);                   // CNPs wait like the data by default
  EXPECT_TRUE(s.queues[1].cnp_strict);
}

TEST(ScenarioMultipoint, ErspanToACollector) {
  Scenario s = parse_scenario(kBase + "collector col\n"
                                      "erspan p2 session=100 type=2 src=192.0.2.1 dst=192.0.2.9 collector=col latency=1us\n"
                                      "erspan p3 session=200 type=3 src=192.0.2.2 dst=192.0.2.9 collector=col\n"
                                      "erspan p1 session=100 type=3 src=192.0.2.3 dst=192.0.2.9\n"  // its own interface
                                      "snaplen 128 point=col\nclock col -2us\nclock p3 5us\n");
  ASSERT_EQ(s.points.size(), 4u);
  EXPECT_TRUE(s.points[3].collector);
  const auto& e = *s.points[1].erspan;
  EXPECT_EQ(e.session, 100);
  EXPECT_EQ(e.type, 2);
  EXPECT_EQ(e.src, *parse_ipv4("192.0.2.1"));
  EXPECT_EQ(e.collector, 3u);
  EXPECT_EQ(e.latency, 1'000);
  EXPECT_EQ(s.interface_of(0), 0u);
  EXPECT_EQ(s.interface_of(1), 3u);
  EXPECT_EQ(s.interface_of(2), 3u);
  EXPECT_FALSE(s.has_interface(1));
  EXPECT_TRUE(s.has_interface(3));
  EXPECT_EQ(s.snaplen_of(2), 128u);    // the collector's
  EXPECT_EQ(s.snaplen_of(0), 65535u);
  EXPECT_EQ(s.shift_of(1), -1'000);    // the collector's clock, plus the way there
  EXPECT_EQ(s.shift_of(2), -2'000);    // p3's own clock only stamps its type III header
}

TEST(ScenarioMultipoint, RejectsBadInput) {
  const std::string col = kBase + "collector col\n";
  const std::string to_col = " src=192.0.2.1 dst=192.0.2.9 collector=col\n";
  const std::vector<std::pair<std::string, std::string>> cases = {
      {kBase + "clock p2\n", "usage: clock"},
      {kBase + "clock p2 37\n", "not a duration"},
      {kBase + "clock p2 +37us\n", "not a duration"},
      {kBase + "clock p2 0us\n", "leave it out"},
      {kBase + "clock p2 1us\nclock p2 2us\n", "already has a clock"},
      {kBase + "clock p9 1us\n", "unknown point"},
      {kBase + "clock p2 2s\n", "more than 1s"},
      {"epoch 0\n" + kBase + "clock p2 -1us\n", "before 1970"},
      {kBase + "queue p2 50us at=1us\n", "for="},
      {kBase + "queue p2 50us for=1us\n", "at="},
      {kBase + "queue p2 0us at=1us for=1us\n", "above 0"},
      {kBase + "queue p2 at=1us for=1us\n", "usage: queue"},
      {kBase + "queue p2 1us at=1us for=1us dir=a-b\n", "dir must be"},
      {kBase + "queue p2 1us at=1us for=1us cnp=fast\n", "cnp= is shared or strict"},
      {kBase + "queue p2 1us at=1us for=1us cnp=strict\n", ""},
      {kBase + "queue p2 10us at=0us for=10us\nqueue p2 1us at=19us for=1us\n", "overlaps the one on line 5"},
      {kBase + "queue p2 10us at=0us for=10us\nqueue p2 1us at=20us for=1us\n", ""},  // after the drain
      {kBase + "queue p2 10us at=0us for=10us dir=a->b\nqueue p2 1us at=5us for=1us dir=b->a\n", ""},
      {kBase + "queue p2 10us at=0us for=10us dir=a->b\nqueue p2 1us at=5us for=1us\n", "overlaps"},
      {kBase + "queue p1 10us at=0us for=10us\nqueue p2 1us at=5us for=1us\n", ""},  // another point
      {col + "queue col 1us at=0us for=1us\n", "is a collector"},
      {kBase + "collector p2\n", "already defined as a capture point"},
      {kBase + "collector a\n", "already defined as a host"},
      {col, "collector 'col' receives no erspan session"},
      {col + "path a 1us col 1us b\n", "these hosts already have a path"},
      {"host a 10.0.0.1 02:00:00:00:00:0a\nhost b 10.0.0.2 02:00:00:00:00:0b\ncollector col\n"
       "path a 1us col 1us b\n", "is a collector"},
      {col + "erspan p2 type=2" + to_col, "session="},
      {col + "erspan p2 session=1024 type=2" + to_col, "above 1023"},
      {col + "erspan p2 session=1 type=1" + to_col, "type must be 2"},
      {col + "erspan p2 session=1 type=2 src=192.0.2 dst=192.0.2.9 collector=col\n", "IPv4 addresses"},
      {col + "erspan p2 session=1 type=2 src=192.0.2.1 dst=192.0.2.9 collector=p1\n", "is not a collector"},
      {col + "erspan p2 session=1 type=2 src=192.0.2.1 dst=192.0.2.9 collector=nobody\n", "unknown point"},
      {col + "erspan col session=1 type=2" + to_col, "is a collector"},
      {col + "erspan p2 session=1 type=2" + to_col + "erspan p2 session=2 type=2" + to_col, "already has an erspan"},
      {col + "erspan p2 session=7 type=2" + to_col + "erspan p3 session=7 type=3" + to_col,
       "both send session 7 to 'col'"},
      {kBase + "erspan p2 session=7 type=2 src=192.0.2.1 dst=192.0.2.9\n"
               "erspan p3 session=7 type=3 src=192.0.2.1 dst=192.0.2.9\n", ""},  // two interfaces
      {col + "erspan p2 session=1 type=2" + to_col + "snaplen 128 point=p2\n", "give the snaplen to the collector"},
      {col + "erspan p2 session=1 type=2" + to_col + "clock p2 1us\n", "shows nowhere"},
      {col + "erspan p2 session=1 type=3" + to_col + "clock p2 1us\n", ""},  // stamps the type III header
      {col + "erspan p3 session=1 type=2" + to_col + "pfc p3 from=b prio=3 quanta=1 at=0ns\n",
       "does not copy PFC or LLDP"},
      {col + "erspan p2 session=1 type=2" + to_col + "mirror p2 dup=1us\n", ""},
      {col + "mirror col dup=1us\n", "is a collector"},
      {col + "speed col 25\n", "is a collector"},
      {col + "rewrite col dscp=0\n", "is a collector"},
  };
  test::expect_errors(cases);
}

}  // namespace
}  // namespace roceshark::gen
