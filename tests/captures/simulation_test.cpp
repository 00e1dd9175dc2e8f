// SPDX-License-Identifier: GPL-2.0-or-later
// End-to-end runs of small scenarios, looking at the frames the simulation
// hands to its sink.
#include "captures/gen/simulation.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "captures/gen/observer.h"
#include "captures/gen/opcodes.h"
#include "captures/gen/scenario_parser.h"

namespace roceshark::gen {
namespace {

struct Seen {
  size_t point;
  Ns time;
  FrameInfo info;
  std::vector<uint8_t> bytes;
  uint32_t wire_len;
  bool mirror, ce, icrc_bad;
  std::string lost_before, verdict;
};

class Collect : public FrameSink {
 public:
  void frame(const Frame& f) override {
    Judgement j = obs_.judge(f, frames.size() + 1);
    frames.push_back({f.point, f.time, *f.info, {f.data.begin(), f.data.end()}, f.wire_len, f.mirror, f.ce, f.icrc_bad,
                      std::string(f.lost_before), j.verdict});
  }
  std::vector<Seen> frames;

 private:
  Observer obs_;
};

const std::string kNet =
    "host a 10.0.0.1 02:00:00:00:00:0a\n"
    "host b 10.0.0.2 02:00:00:00:00:0b\n"
    "path a 1us p1 1us p2 1us b\n"
    "qp q a:0x11 b:0x22 psn=100,500 mtu=1024\n";

std::vector<Seen> run(const std::string& text) {
  Scenario sc = parse_scenario(text, "t.scn");
  Simulation sim(sc);
  Collect c;
  sim.run(c);
  return c.frames;
}

TEST(Simulation, FramesComeInTimeOrderAtBothPoints) {
  auto f = run(kNet + "write q a 4K\nsend q b 2K\n");
  ASSERT_FALSE(f.empty());
  for (size_t i = 1; i < f.size(); ++i) EXPECT_LE(f[i - 1].time, f[i].time);
  size_t at_p1 = 0, at_p2 = 0;
  for (const auto& s : f) (s.point == 0 ? at_p1 : at_p2)++;
  EXPECT_EQ(at_p1, at_p2);  // nothing lost: both points see everything
}

TEST(Simulation, TtlDropsByOneAfterTheFirstPoint) {
  auto f = run(kNet + "send q a 100\n");
  for (const auto& s : f) {
    const uint8_t ttl = s.bytes[14 + 8];
    // a -> b meets p1 first; b -> a meets p2 first.
    const bool first = (s.info.src_host == 0) == (s.point == 0);
    EXPECT_EQ(ttl, first ? 64 : 63);
  }
}

TEST(Simulation, LossBetweenPointsGivesNakAndGoBackN) {
  auto f = run(kNet + "write q a 4K\ndrop q a psn=1 where=between:p1,p2\n");
  int naks = 0, gbn_at_p2 = 0;
  bool gap_at_p2 = false, lost_note = false;
  for (const auto& s : f) {
    if (s.info.kind == FrameKind::nak) {
      ++naks;
      EXPECT_EQ(s.info.psn, 101u);
    }
    if (s.point == 1 && s.verdict == "gap:1") gap_at_p2 = true;
    if (s.point == 1 && s.verdict == "gbn") ++gbn_at_p2;
    if (s.point == 0 && s.info.psn == 101 && s.lost_before == "p2") lost_note = true;
  }
  EXPECT_EQ(naks, 2);  // one NAK, seen at both points
  EXPECT_TRUE(gap_at_p2);
  EXPECT_EQ(gbn_at_p2, 3);  // 101 to 103: all at or below the highest PSN p2 had seen
  EXPECT_TRUE(lost_note);
}

TEST(Simulation, TailLossIsRecoveredByTheTimer) {
  auto f = run(kNet + "timeout 1ms\nwrite q a 2K\ndrop q a psn=1 where=receiver\n");
  int resent = 0;
  for (const auto& s : f)
    if (s.info.cause == Cause::timeout) {
      ++resent;
      EXPECT_GE(s.time, 1'000'000);
    }
  EXPECT_EQ(resent, 2 * 2);  // both packets, at both points
}

TEST(Simulation, CeMarkPersistsDownstreamAndBringsACnp) {
  auto f = run(kNet + "send q a 100\necn_mark q a psn=0 at=p1\n");
  int ce = 0, cnp = 0;
  for (const auto& s : f) {
    if (s.ce) {
      ++ce;
      EXPECT_EQ(s.bytes[15] & 3, 3);
    }
    if (s.info.kind == FrameKind::cnp) {
      ++cnp;
      EXPECT_EQ(s.info.opcode, op::kCnp);
      EXPECT_EQ(s.info.dest_qpn, 0x11u);  // to the sender's QP
      EXPECT_EQ(s.bytes[14 + 20 + 8 + 4] & 0x40, 0x40);  // BECN
      EXPECT_EQ(s.bytes[15] >> 2, 48);  // default CNP DSCP
    }
  }
  EXPECT_EQ(ce, 2);
  EXPECT_EQ(cnp, 2);
}

TEST(Simulation, MirrorRecordsEveryFrameTwice) {
  auto f = run(kNet + "mirror p1 dup=500ns\nsend q a 100\n");
  int orig = 0, copies = 0;
  for (const auto& s : f)
    if (s.point == 0) (s.mirror ? copies : orig)++;
  EXPECT_EQ(orig, 2);  // request and ACK
  EXPECT_EQ(copies, 2);
}

TEST(Simulation, OneDirectionalTapAndSnaplen) {
  auto f = run(kNet + "capture p1 dir=a->b\nsnaplen 64 point=p2\nwrite q a 2K\n");
  for (const auto& s : f) {
    if (s.point == 0) {
      EXPECT_EQ(s.info.src_host, 0u);
    } else {
      EXPECT_LE(s.bytes.size(), 64u);
    }
  }
}

TEST(Simulation, FaultThatNeverMatchesIsAnError) {
  EXPECT_THROW(run(kNet + "send q a 100\ndrop q a psn=9 where=receiver\n"), SimulationError);
  EXPECT_THROW(run(kNet + "send q a 0\ncorrupt q a psn=0 where=receiver\n"), SimulationError);  // no payload
}

TEST(Simulation, CmExchangeComesFirst) {
  auto f = run(kNet + "cm q\nsend q a 100\n");
  ASSERT_GE(f.size(), 6u);
  EXPECT_EQ(f[0].verdict, "cm-req");
  EXPECT_EQ(f[0].info.dest_qpn, 1u);
  bool data_after_rtu = false, rtu = false;
  for (const auto& s : f) {
    if (s.verdict == "cm-rtu") rtu = true;
    if (s.info.kind == FrameKind::req) data_after_rtu = rtu;
  }
  EXPECT_TRUE(data_after_rtu);
}

TEST(Simulation, SameScenarioSameFrames) {
  const std::string s = kNet + "jitter 100ns\nwrite q a 8K\nsend q b 3K\ndrop q a psn=3 where=after:p1\n";
  auto x = run(s), y = run(s);
  ASSERT_EQ(x.size(), y.size());
  for (size_t i = 0; i < x.size(); ++i) {
    EXPECT_EQ(x[i].time, y[i].time);
    EXPECT_EQ(x[i].bytes, y[i].bytes);
  }
}

}  // namespace
}  // namespace roceshark::gen
