// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/scenario_parser.h"

#include <gtest/gtest.h>

#include <string>

namespace roceshark::gen {
namespace {

const std::string kBase =
    "host a 10.0.0.1 02:00:00:00:00:0a\n"
    "host b 10.0.0.2 02:00:00:00:00:0b ip6=fd00::b\n"
    "path a 1us p1 1.5us p2 2us b\n"
    "qp q a:0x11 b:0x22 psn=100,0xfffff0 mtu=2048 vlan=7 pcp=5 dscp=24 ecn=1\n";

// The message of the error a scenario raises, or "" if it parses.
std::string error_of(const std::string& text) {
  try {
    parse_scenario(text, "t.scn");
  } catch (const ScenarioError& e) {
    return e.what();
  }
  return "";
}

TEST(ScenarioParser, ReadsTheNetwork) {
  Scenario s = parse_scenario(kBase + "send q a 4K\nwrite q b 100 imm id=w1 at=3us\n");
  ASSERT_EQ(s.hosts.size(), 2u);
  EXPECT_EQ(s.hosts[1].ip6.has_value(), true);
  ASSERT_EQ(s.points.size(), 2u);
  EXPECT_EQ(s.points[1].name, "p2");
  ASSERT_EQ(s.paths.size(), 1u);
  EXPECT_EQ(s.paths[0].latency, (std::vector<Ns>{1000, 1500, 2000}));
  const Qp& q = s.qps[0];
  EXPECT_EQ(q.side[0].qpn, 0x11u);
  EXPECT_EQ(q.side[1].start_psn, 0xFFFFF0u);
  EXPECT_EQ(q.mtu, 2048u);
  EXPECT_EQ(q.vlan, 7);
  EXPECT_EQ(q.pcp, 5);
  EXPECT_EQ(q.dscp, 24);
  EXPECT_EQ(q.ecn, 1);
  ASSERT_EQ(s.messages.size(), 2u);
  EXPECT_EQ(s.messages[0].length, 4096u);
  EXPECT_EQ(s.messages[1].side, 1);
  EXPECT_TRUE(s.messages[1].imm);
  EXPECT_EQ(s.messages[1].at, 3000);
  EXPECT_EQ(s.messages[1].id, "w1");
}

TEST(ScenarioParser, ResolvesWhereInTheTravelDirection) {
  Scenario s = parse_scenario(kBase + "send q a 4K\n"
                              "drop q a psn=1 where=before:p2\n"
                              "drop q a psn=2 where=after:p2\n"
                              "drop q a psn=3 where=between:p1,p2\n"
                              "drop q a psn=4 kind=ack where=after:p2\n"  // b -> a: p2 comes first
                              "drop q a psn=5 where=receiver times=all\n"
                              "ecn_mark q a psn=0-3 at=p2\n");
  EXPECT_EQ(s.drops[0].where.segment, 1u);
  EXPECT_EQ(s.drops[1].where.segment, 2u);
  EXPECT_EQ(s.drops[2].where.segment, 1u);
  EXPECT_EQ(s.drops[3].where.segment, 1u);
  EXPECT_EQ(s.drops[3].sel.traffic, Traffic::ack);
  EXPECT_EQ(s.drops[4].where.segment, 2u);
  EXPECT_EQ(s.drops[4].sel.times, 0u);
  EXPECT_EQ(s.marks[0].hop, 1u);
  EXPECT_EQ(s.marks[0].sel.last, 3u);
}

TEST(ScenarioParser, GlobalsAndCapture) {
  Scenario s = parse_scenario(kBase + "seed 9\nsnaplen 128\nsnaplen 256 point=p2\ntimeout 2ms\nack_coalesce 3us\n"
                              "mirror p1 dup=1us\ncapture p2 dir=a->b\nlink_gbps 25\ncnp_dscp 46\nexpect bad_icrc=2\n");
  EXPECT_EQ(s.seed, 9u);
  EXPECT_EQ(s.snaplen_of(0), 128u);
  EXPECT_EQ(s.snaplen_of(1), 256u);
  EXPECT_EQ(s.timing.timeout, 2'000'000);
  EXPECT_EQ(s.timing.ack_coalesce, 3000);
  EXPECT_EQ(s.points[0].mirror_dup, 1000);
  EXPECT_EQ(s.points[1].only_dir, (std::array<size_t, 2>{0, 1}));
  EXPECT_EQ(s.timing.link_gbps, 25);
  EXPECT_EQ(s.timing.cnp_dscp, 46);
  EXPECT_EQ(s.expect.at("bad_icrc"), "2");
}

TEST(ScenarioParser, DefaultStartPsnsComeFromTheSeed) {
  const std::string t = "host a 10.0.0.1 02:00:00:00:00:0a\nhost b 10.0.0.2 02:00:00:00:00:0b\n"
                        "path a 1us p 1us b\nqp q a:2 b:3\n";
  Scenario x = parse_scenario("seed 1\n" + t), y = parse_scenario("seed 1\n" + t), z = parse_scenario("seed 2\n" + t);
  EXPECT_EQ(x.qps[0].side[0].start_psn, y.qps[0].side[0].start_psn);
  EXPECT_NE(x.qps[0].side[0].start_psn, z.qps[0].side[0].start_psn);
  EXPECT_LE(x.qps[0].side[1].start_psn, 0xFFFFFFu);
}

TEST(ScenarioParser, ErrorsNameTheLine) {
  std::string e = error_of(kBase + "\n# comment\nbogus 1\n");
  EXPECT_NE(e.find("t.scn:7:"), std::string::npos) << e;
  EXPECT_NE(e.find("unknown directive 'bogus'"), std::string::npos) << e;
}

TEST(ScenarioParser, RejectsBadInput) {
  const std::pair<std::string, std::string> cases[] = {
      {"host a 10.0.0.1 02:00:00:00:00\n", "bad MAC"},
      {"host a 10.0.0.300 02:00:00:00:00:0a\n", "bad IPv4"},
      {kBase + "host a 10.0.0.3 02:00:00:00:00:0c\n", "defined twice"},
      {kBase + "path a 1us x 1us\n", "usage: path"},
      {kBase + "host c 10.0.0.3 02:00:00:00:00:0c\npath a 1us b 1us c\n", "is a host"},
      {kBase + "qp r a:1 b:2\n", "special QPs"},
      {kBase + "qp r a:5 a:6\n", "two different hosts"},
      {kBase + "qp r a:5 c:6\n", "unknown host 'c'"},
      {kBase + "qp r a:5 b:6 mtu=1500\n", "mtu must be"},
      {kBase + "qp r a:5 b:6 pcp=3\n", "pcp needs a vlan"},
      {kBase + "qp r a:5 b:6 ver=v3\n", "ver must be"},
      {kBase + "qp r a:5 b:6 colour=red\n", "no option 'colour'"},
      {kBase + "qp r a:5 b:6 mtu=1024 mtu=2048\n", "given twice"},
      {kBase + "qp r a:0x11 b:0x23\n", "reuses a QPN"},
      {kBase + "qp r a:0x11 b:0x23 after=q\n", ""},  // reuse once q is done: fine
      {kBase + "qp r a:5 b:6 ver=v2-ipv6\n", "needs ip6="},
      {kBase + "send q c 10\n", "unknown host"},
      {kBase + "send q a lots\n", "message size"},
      {kBase + "read q a 10 imm\n", "no immediate"},
      {kBase + "send q a 10 id=x repeat=2\n", "cannot be used with repeat"},
      {kBase + "send q a 10 id=x\nsend q a 10 id=x\n", "used twice"},
      {kBase + "send q a 10 at=5\n", "not a duration"},
      {kBase + "read q a 10 id=r\nrnr r\n", "only a SEND"},
      {kBase + "send q a 10 id=s\nnak s fatal\n", "nak code"},
      {kBase + "send q a 10 id=s\nrnr s\nnak s inv-req\n", "already has a forced reply"},
      {kBase + "rnr nobody\n", "unknown message id"},
      {kBase + "drop q a psn=1\n", "where="},
      {kBase + "drop q a where=receiver\n", "psn="},
      {kBase + "drop q a psn=5-2 where=receiver\n", "backwards"},
      {kBase + "drop q a psn=1 where=before:nowhere\n", "unknown point"},
      {kBase + "drop q a psn=1 where=between:p2,p1\n", "must follow"},
      {kBase + "drop q a psn=1 where=receiver times=0\n", "at least 1"},
      {kBase + "drop q a psn=1 where=receiver kind=cnp\n", "kind must be"},
      {kBase + "corrupt q a psn=1 where=receiver kind=ack\n", "kind must be"},
      {kBase + "qp n a:5 b:6 ecn=0\necn_mark n a psn=1 at=p1\n", "Not-ECT"},
      {kBase + "qp v a:5 b:6 ver=v1 ecn=2\n", "RoCEv1 has no ECN"},
      {kBase + "mirror p1\n", "dup="},
      {kBase + "capture p1 dir=a-b\n", "dir must be"},
      {kBase + "snaplen 20\n", "below 64"},
      {kBase + "timeout 0ns\n", "above 0"},
      {kBase + "cm q\ncm q\n", "already has a cm"},
      {"host a 10.0.0.1 02:00:00:00:00:0a\n", "no capture points"},
      {"host a 10.0.0.1 02:00:00:00:00:0a\nhost b 10.0.0.2 02:00:00:00:00:0b\nhost c 10.0.0.3 02:00:00:00:00:0c\n"
       "path a 1us p 1us b\nqp q a:5 c:6\n",
       "no path joins"},
  };
  for (const auto& [text, want] : cases) {
    std::string e = error_of(text);
    if (want.empty()) {
      EXPECT_EQ(e, "") << text;
    } else {
      EXPECT_NE(e.find(want), std::string::npos) << "input:\n" << text << "error: " << e;
    }
  }
}

}  // namespace
}  // namespace roceshark::gen
