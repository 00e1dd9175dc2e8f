// SPDX-License-Identifier: GPL-2.0-or-later
// The truth file as Output writes it: the columns of link-local frames and
// the pause_frame numbers of held ones, in whole-capture and per-point files.
#include "captures/gen/output.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "captures/gen/scenario_parser.h"
#include "captures/gen/simulation.h"

namespace roceshark::gen {
namespace {

using Row = std::vector<std::string>;

std::vector<Row> truth_of(const std::string& scenario, std::optional<size_t> only_point = std::nullopt) {
  const std::string base = ::testing::TempDir() + "roceshark-output-test";
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

enum Col { kFrame, kPoint, kTs, kDir, kKind, kQpn, kPsn, kOpcode, kVerdict, kCause, kRequest, kNote, kPaused, kPause };

TEST(Output, TruthColumnsForPfcLldpAndHeldFrames) {
  auto rows = truth_of(kScenario);
  ASSERT_GT(rows.size(), 1u);
  EXPECT_EQ(rows[0].size(), 14u);
  EXPECT_EQ(rows[0][kPaused], "paused");
  EXPECT_EQ(rows[0][kPause], "pause_frame");
  std::string pfc_frame;
  int held = 0;
  for (size_t i = 1; i < rows.size(); ++i) {
    const Row& r = rows[i];
    ASSERT_EQ(r.size(), 14u);
    if (r[kKind] == "pfc") {
      pfc_frame = r[kFrame];
      EXPECT_EQ(r[kDir], "b->-");
      EXPECT_EQ(r[kVerdict], "pfc-xoff");
      EXPECT_EQ(r[kNote], "3:1000;5:7;storm");
      for (Col c : {kQpn, kPsn, kOpcode, kCause, kRequest, kPaused, kPause}) EXPECT_EQ(r[c], "-");
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

}  // namespace
}  // namespace roceshark::gen
