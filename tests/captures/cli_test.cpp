// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/cli.h"

#include <gtest/gtest.h>

#include <stdexcept>

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

}  // namespace
}  // namespace roceshark::gen
