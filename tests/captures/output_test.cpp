// SPDX-License-Identifier: GPL-2.0-or-later
// The truth file as Output writes it: the columns of link-local frames and
// the pause_frame numbers of held ones, in whole-capture and per-point files.
#include "captures/gen/output.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <map>
#include <sstream>
#include <string>
#include <vector>

#include "captures/gen/scenario_parser.h"
#include "captures/gen/simulation.h"

namespace roceshark::gen {
namespace {

using Row = std::vector<std::string>;

std::vector<Row> truth_of(const std::string& scenario, std::optional<size_t> only_point = std::nullopt) {
  // ctest runs each test as its own process, in parallel: one file set per test.
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  const std::string base = ::testing::TempDir() + "roceshark-output-" + test->name();
  Scenario sc = parse_scenario(scenario, "t.scn");
  Output out(sc, {base + ".pcapng", base + ".tsv", only_point});
  Simulation sim(sc);
  sim.run(out);
  out.close();
  std::ifstream in(base + ".tsv");
  std::vector<Row> rows;
  for (std::string line; std::getline(in, line);) {
    Row r;
    std::istringstream ls(line);
    for (std::string cell; std::getline(ls, cell, '\t');) r.push_back(cell);
    rows.push_back(r);
  }
  std::remove((base + ".pcapng").c_str());
  std::remove((base + ".tsv").c_str());
  return rows;
}

const std::string kScenario =
    "host a 10.0.0.1 02:00:00:00:00:0a\n"
    "host b 10.0.0.2 02:00:00:00:00:0b\n"
    "switch sw 02:00:00:00:01:01\n"
    "path a 1us p1 500ns sw 500ns p2 1us b\n"
    "qp q a:0x11 b:0x22 psn=100,500 mtu=1024 vlan=7 pcp=3\n"
    "write q a 4K\n"
    "pfc p2 storm from=b prio=3,5 quanta=1000,7 at=2us\n"
    "lldp p1 from=sw pfc=3,4 app=26:3,48:6 at=500ns\n";

enum Col {
  kFrame, kPoint, kTs, kDir, kKind, kQpn, kPsn, kOpcode, kVerdict, kCause, kRequest, kNote, kPaused, kPause,
  kTrueTs, kPacketId, kLostAfter, kQueue, kInterface, kSpanId, kColumns
};

TEST(Output, TruthColumnsForPfcLldpAndHeldFrames) {
  auto rows = truth_of(kScenario);
  ASSERT_GT(rows.size(), 1u);
  EXPECT_EQ(rows[0].size(), size_t{kColumns});
  EXPECT_EQ(rows[0][kPaused], "paused");
  EXPECT_EQ(rows[0][kPause], "pause_frame");
  std::string pfc_frame;
  int held = 0;
  for (size_t i = 1; i < rows.size(); ++i) {
    const Row& r = rows[i];
    ASSERT_EQ(r.size(), size_t{kColumns});
    EXPECT_EQ(r[kTrueTs], r[kTs]);  // no clock offsets here
    EXPECT_EQ(r[kInterface], r[kPoint]);
    EXPECT_EQ(r[kSpanId], "-");
    if (r[kKind] == "pfc") {
      pfc_frame = r[kFrame];
      EXPECT_EQ(r[kDir], "b->-");
      EXPECT_EQ(r[kVerdict], "pfc-xoff");
      EXPECT_EQ(r[kNote], "3:1000;5:7;storm");
      for (Col c : {kQpn, kPsn, kOpcode, kCause, kRequest, kPaused, kPause, kPacketId, kLostAfter, kQueue})
        EXPECT_EQ(r[c], "-");
    } else if (r[kKind] == "lldp") {
      EXPECT_EQ(r[kDir], "sw->-");
      EXPECT_EQ(r[kVerdict], "lldp");
      EXPECT_EQ(r[kNote], "pfc=3,4;app=26:3,48:6");
      EXPECT_EQ(r[kPaused], "-");
    } else if (r[kPaused] == "1") {
      ++held;
      EXPECT_EQ(r[kPoint], "p2");
      EXPECT_EQ(r[kPause], pfc_frame);  // the number of the PFC frame in this file
    } else {
      EXPECT_EQ(r[kPaused], "0");
      EXPECT_EQ(r[kPause], "-");
    }
  }
  EXPECT_EQ(held, 4);
}

TEST(Output, PauseFrameNumbersFollowThePerPointFile) {
  auto all = truth_of(kScenario);
  auto p2 = truth_of(kScenario, 1);
  std::string pfc_here;
  for (size_t i = 1; i < p2.size(); ++i) {
    EXPECT_EQ(p2[i][kPoint], "p2");
    if (p2[i][kKind] == "pfc") pfc_here = p2[i][kFrame];
    if (p2[i][kPaused] == "1") {
      EXPECT_EQ(p2[i][kPause], pfc_here);
    }
  }
  std::string pfc_all;
  for (size_t i = 1; i < all.size(); ++i)
    if (all[i][kKind] == "pfc") pfc_all = all[i][kFrame];
  EXPECT_NE(pfc_here, pfc_all);  // numbered differently: lldp and p1's frames come first in the full file
}

const std::string kThreePoints =
    "host a 10.0.0.1 02:00:00:00:00:0a\n"
    "host b 10.0.0.2 02:00:00:00:00:0b\n"
    "path a 1us p1 2us p2 3us p3 1us b\n"
    "qp q a:0x11 b:0x22 psn=100,500 mtu=1024\n"
    "write q a 8K\n"
    "send q b 2K at=3us\n"
    "drop q a psn=2 where=between:p1,p2\n";

TEST(Output, MatchingColumns) {
  auto rows = truth_of(kThreePoints + "queue p3 5us at=4us for=2us dir=a->b\n");
  EXPECT_EQ(rows[0][kTrueTs], "true_ts_ns");
  EXPECT_EQ(rows[0][kSpanId], "span_id");
  std::map<std::string, std::vector<Row>> by_id;
  int queued = 0;
  for (size_t i = 1; i < rows.size(); ++i) by_id[rows[i][kPacketId]].push_back(rows[i]);
  for (const auto& [id, copies] : by_id) {
    for (const Row& r : copies) {
      EXPECT_EQ(r[kPsn], copies[0][kPsn]);
      EXPECT_EQ(r[kLostAfter], r[kPsn] == "102" && r[kCause] == "original" && r[kPoint] == "p1" ? "1" : "0") << id;
      if (r[kQueue] != "0") {
        ++queued;
        EXPECT_EQ(r[kPoint], "p3");
        EXPECT_EQ(r[kDir], "a->b");
      }
    }
  }
  EXPECT_GT(queued, 0);
}

TEST(Output, AClockOffsetShiftsThePointsTimestampsAndTheFileStaysInOrder) {
  const auto plain = truth_of(kThreePoints);
  const auto skewed = truth_of(kThreePoints + "clock p2 37us\nclock p3 -500ns\n");
  ASSERT_EQ(plain.size(), skewed.size());
  std::map<std::pair<std::string, std::string>, std::string> true_ts;  // (packet, point) -> true time
  for (size_t i = 1; i < plain.size(); ++i) true_ts[{plain[i][kPacketId], plain[i][kPoint]}] = plain[i][kTs];
  int64_t last = 0;
  bool reordered = false;
  for (size_t i = 1; i < skewed.size(); ++i) {
    const Row& r = skewed[i];
    const int64_t ts = std::stoll(r[kTs]), truth = std::stoll(r[kTrueTs]);
    const int64_t offset = r[kPoint] == "p2" ? 37'000 : r[kPoint] == "p3" ? -500 : 0;
    EXPECT_EQ(ts - truth, offset) << "frame " << r[kFrame];
    EXPECT_EQ(r[kTrueTs], true_ts.at({r[kPacketId], r[kPoint]}));  // the same simulation underneath
    EXPECT_GE(ts, last) << "frame " << r[kFrame];
    last = ts;
    reordered = reordered || r[kPacketId] != plain[i][kPacketId] || r[kPoint] != plain[i][kPoint];
  }
  EXPECT_TRUE(reordered);  // 37us is enough to move p2's frames past others
}

TEST(Output, ACollectorRecordsTheErspanCopiesOfItsPoints) {
  const std::string sc = kThreePoints +
                         "collector col\n"
                         "erspan p2 session=5 type=2 src=192.0.2.1 dst=192.0.2.9 collector=col latency=2us\n"
                         "erspan p3 session=6 type=3 src=192.0.2.2 dst=192.0.2.9 collector=col\n";
  const auto all = truth_of(sc);
  int p2 = 0, p3 = 0;
  for (size_t i = 1; i < all.size(); ++i) {
    const Row& r = all[i];
    if (r[kPoint] == "p1") {
      EXPECT_EQ(r[kInterface], "p1");
      EXPECT_EQ(r[kSpanId], "-");
      continue;
    }
    EXPECT_EQ(r[kInterface], "col");
    EXPECT_EQ(r[kSpanId], r[kPoint] == "p2" ? "5" : "6");
    EXPECT_EQ(std::stoll(r[kTs]) - std::stoll(r[kTrueTs]), r[kPoint] == "p2" ? 2'000 : 0);
    ++(r[kPoint] == "p2" ? p2 : p3);
  }
  const size_t col = 3;  // points p1, p2, p3, then the collector
  const auto only = truth_of(sc, col);
  EXPECT_EQ(only.size() - 1, static_cast<size_t>(p2 + p3));
  for (size_t i = 1; i < only.size(); ++i) EXPECT_EQ(only[i][kInterface], "col");
}

}  // namespace
}  // namespace roceshark::gen
