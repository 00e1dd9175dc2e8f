// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/cli.h"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <string>

namespace roceshark::gen {
namespace {

TEST(Cli, ParsesAllOptions) {
  CliOptions o = parse_cli({"s.scn", "-o", "x.pcapng", "--truth", "x.tsv", "--only-point", "leaf-1", "--stats"});
  EXPECT_EQ(o.scenario, "s.scn");
  EXPECT_EQ(o.output, "x.pcapng");
  EXPECT_EQ(o.truth, "x.tsv");
  EXPECT_EQ(o.only_point, "leaf-1");
  EXPECT_TRUE(o.stats);
}

TEST(Cli, RejectsIncompleteCommandLines) {
  EXPECT_THROW(parse_cli({}), std::invalid_argument);
  EXPECT_THROW(parse_cli({"s.scn"}), std::invalid_argument);
  EXPECT_THROW(parse_cli({"s.scn", "-o"}), std::invalid_argument);
  EXPECT_THROW(parse_cli({"s.scn", "t.scn", "-o", "x"}), std::invalid_argument);
  EXPECT_THROW(parse_cli({"s.scn", "-o", "x", "--frobnicate"}), std::invalid_argument);
}

TEST(Cli, ExitStatus) {
  EXPECT_EQ(run_cli({"/nonexistent.scn", "-o", "/tmp/roceshark-gen-cli-test.pcapng"}), 1);  // scenario error
  EXPECT_EQ(run_cli({"-o"}), 2);  // usage error
}

TEST(Cli, OnlyPointNamesAnInterface) {
  const std::string base = ::testing::TempDir() + "roceshark-cli-test";
  {
    std::ofstream scn(base + ".scn");
    scn << "host a 10.0.0.1 02:00:00:00:00:0a\nhost b 10.0.0.2 02:00:00:00:00:0b\ncollector col\n"
           "path a 1us p1 1us p2 1us b\nqp q a:5 b:6\nsend q a 100\n"
           "erspan p2 session=1 type=2 src=192.0.2.1 dst=192.0.2.2 collector=col\n";
  }
  const std::string out = base + ".pcapng";
  EXPECT_EQ(run_cli({base + ".scn", "-o", out, "--only-point", "col"}), 0);
  EXPECT_EQ(run_cli({base + ".scn", "-o", out, "--only-point", "p1"}), 0);
  EXPECT_EQ(run_cli({base + ".scn", "-o", out, "--only-point", "p2"}), 1);  // recorded at col
  std::ifstream gone(out);
  EXPECT_FALSE(gone.good());  // nothing half-written is left
  std::remove((base + ".scn").c_str());
}

}  // namespace
}  // namespace roceshark::gen
