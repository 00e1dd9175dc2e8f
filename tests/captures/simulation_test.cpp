// SPDX-License-Identifier: GPL-2.0-or-later
// End-to-end runs of small scenarios, looking at the frames the simulation
// hands to its sink.
#include "captures/gen/simulation.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <tuple>
#include <vector>

#include "captures/gen/lldp_frame.h"
#include "captures/gen/observer.h"
#include "captures/gen/opcodes.h"
#include "captures/gen/packet_builder.h"
#include "captures/gen/pfc_frame.h"
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
  bool paused;
  uint64_t pause_id, ctrl_id;
};

class Collect : public FrameSink {
 public:
  void frame(const Frame& f) override {
    Judgement j = obs_.judge(f, frames.size() + 1);
    frames.push_back({f.point, f.time, *f.info, {f.data.begin(), f.data.end()}, f.wire_len, f.mirror, f.ce, f.icrc_bad,
                      std::string(f.lost_before), j.verdict, f.paused, f.pause_id, f.ctrl_id});
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

uint32_t get_u16_be(const std::vector<uint8_t>& b, size_t at) { return uint32_t{b[at]} << 8 | b[at + 1]; }

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

Mac mac_at(const Seen& s, size_t offset) {
  Mac m{};
  std::copy_n(s.bytes.begin() + static_cast<std::ptrdiff_t>(offset), m.size(), m.begin());
  return m;
}

TEST(Simulation, FramesCarryTheMacsOfTheTappedLink) {
  // a - p1 - (switch p1+p2) - p2 - b; the v1 QP is bridged: host MACs end to end.
  auto f = run(kNet + "qp v a:0x33 b:0x44 psn=1,1 ver=v1\nsend q a 100\nsend q b 100\nsend v a 100\n");
  const Mac a = *parse_mac("02:00:00:00:00:0a"), b = *parse_mac("02:00:00:00:00:0b");
  const Mac sw = *parse_mac("02:53:57:00:00:01");
  int v2 = 0, v1 = 0;
  for (const auto& s : f) {
    const bool from_a = s.info.src_host == 0;
    Mac src = from_a ? a : b, dst = from_a ? b : a;
    if (s.info.dest_qpn == 0x33 || s.info.dest_qpn == 0x44) {
      ++v1;
    } else {
      ++v2;
      if (s.point == 0) (from_a ? dst : src) = sw;  // p1 taps a - switch
      else (from_a ? src : dst) = sw;               // p2 taps switch - b
    }
    EXPECT_EQ(mac_at(s, 6), src) << "frame at point " << s.point;
    EXPECT_EQ(mac_at(s, 0), dst) << "frame at point " << s.point;
  }
  EXPECT_EQ(v2, 8);  // two SENDs and their ACKs, at both points
  EXPECT_EQ(v1, 4);
}

TEST(Simulation, EveryNamedSwitchTakesOneOffTheTtl) {
  auto f = run("host a 10.0.0.1 02:00:00:00:00:0a\nhost b 10.0.0.2 02:00:00:00:00:0b\n"
               "switch tor 02:00:00:01:00:00\nswitch leaf 02:00:00:01:00:01\nswitch spine 02:00:00:01:00:02\n"
               "path a 500ns tor 500ns p1 1us leaf 1us spine 1us p2 1us b\n"
               "qp q a:0x11 b:0x22 psn=100,500\nsend q a 100\n");
  const Mac tor = *parse_mac("02:00:00:01:00:00"), leaf = *parse_mac("02:00:00:01:00:01");
  const Mac spine = *parse_mac("02:00:00:01:00:02"), b = *parse_mac("02:00:00:00:00:0b");
  ASSERT_EQ(f.size(), 4u);
  for (const auto& s : f) {
    const uint8_t ttl = s.bytes[14 + 8];
    if (s.info.src_host == 0) {
      EXPECT_EQ(ttl, s.point == 0 ? 63 : 61);  // tor; then leaf and spine
      EXPECT_EQ(mac_at(s, 6), s.point == 0 ? tor : spine);  // p1 taps tor - leaf, p2 spine - b
      EXPECT_EQ(mac_at(s, 0), s.point == 0 ? leaf : b);
    } else {
      EXPECT_EQ(ttl, s.point == 1 ? 64 : 62);  // b's ACK: p2 first, then spine and leaf
    }
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

// The first ATOMIC ACK is lost past p1, on its way to a: the second one does
// not complete the first FetchAdd, the timer resends both, and b answers
// them from its saved results, the same bytes at p1 (IP ID 0).
TEST(Simulation, LostAtomicAckIsAnsweredAgainFromTheSavedResult) {
  const std::string net = "host a 10.0.0.1 02:00:00:00:00:0a\nhost b 10.0.0.2 02:00:00:00:00:0b ipid=zero\n" +
                          kNet.substr(kNet.find("path"));
  auto f = run(net + "timeout 1ms\natomic q a fetchadd add=3\natomic q a fetchadd add=4\n"
                     "drop q a psn=0 kind=ack where=after:p1\n");
  std::vector<const Seen*> acks, resends;
  for (const auto& s : f) {
    if (s.point != 0) continue;  // p1
    if (s.info.opcode == op::kAtomicAck) acks.push_back(&s);
    if (s.info.cause == Cause::timeout) resends.push_back(&s);
  }
  ASSERT_EQ(resends.size(), 2u);  // the first FetchAdd and the second behind it
  EXPECT_EQ(resends[0]->info.psn, 100u);
  EXPECT_GE(resends[0]->time, 1'000'000);
  ASSERT_EQ(acks.size(), 4u);  // 100, 101, then both again
  EXPECT_EQ(acks[2]->info.psn, 100u);
  EXPECT_EQ(acks[2]->bytes, acks[0]->bytes);  // not executed again: the same original data
  EXPECT_EQ(acks[3]->bytes, acks[1]->bytes);
  EXPECT_EQ(acks[2]->verdict, "dup-ack");
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

TEST(Simulation, ReceiverWithItsNotificationPointOffSendsNoCnp) {
  // q's b has its NP off: the CE marks reach it, no CNP leaves it. r, the
  // same traffic with the NP on, answers (at most one CNP per 50us).
  const std::string net =
      "host a 10.0.0.1 02:00:00:00:00:0a\nhost b 10.0.0.2 02:00:00:00:00:0b\npath a 1us p1 1us p2 1us b\n"
      "qp q a:0x11 b:0x22 psn=100,500 np=off:b\nqp r a:0x33 b:0x44 psn=900,700\n";
  auto f = run(net + "write q a 4K repeat=3 every=60us\nwrite r a 4K repeat=3 every=60us\n"
                     "ecn_mark q a psn=0-11 at=p1\necn_mark r a psn=0-11 at=p1\n");
  int ce_q = 0, ce_r = 0, cnp_q = 0, cnp_r = 0, acks_q = 0;
  for (const auto& s : f) {
    if (s.ce) ++(s.info.dest_qpn == 0x22 ? ce_q : ce_r);
    if (s.info.kind == FrameKind::cnp) ++(s.info.dest_qpn == 0x11 ? cnp_q : cnp_r);
    if (s.info.kind == FrameKind::ack && s.info.dest_qpn == 0x11) ++acks_q;
  }
  EXPECT_EQ(ce_q, 2 * 12);  // every marked packet, at both points
  EXPECT_EQ(ce_r, 2 * 12);
  EXPECT_EQ(cnp_q, 0);
  EXPECT_EQ(cnp_r, 2 * 3);  // one per message, 60us apart, at both points
  EXPECT_EQ(acks_q, 2 * 3);  // the transport is unaffected

  // Only the end named: a's NP still answers CE-marked read responses on q.
  f = run(net + "read q a 2K\nwrite q a 1K\necn_mark q a psn=0-1 at=p2 kind=readresp\necn_mark q a psn=2 at=p1\n"
                "write r a 1K\n");
  int cnp_to_b = 0, cnp_to_a = 0;
  for (const auto& s : f)
    if (s.info.kind == FrameKind::cnp) ++(s.info.dest_qpn == 0x22 ? cnp_to_b : cnp_to_a);
  EXPECT_EQ(cnp_to_b, 2);  // from a, at both points
  EXPECT_EQ(cnp_to_a, 0);

  // An NP turned off that never meets a CE mark says nothing: an error, like a fault that touches nothing.
  try {
    run(net + "write q a 1K\nwrite r a 1K\necn_mark r a psn=0 at=p1\n");
    ADD_FAILURE() << "no error";
  } catch (const SimulationError& e) {
    EXPECT_NE(std::string(e.what()).find("np=off on line 4: b never received a CE mark on qp 'q'"), std::string::npos)
        << e.what();
  }
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

// ---- PFC pauses, pacing and marking -----------------------------------------

// Link time of a frame at a rate, as a tap sees consecutive frames end.
Ns wire_ns(const Seen& s, double gbps) {
  const double bits = (static_cast<double>(s.bytes.size()) + 24) * 8;
  return static_cast<Ns>(std::ceil(bits / gbps));
}

bool is_q(const Seen& s, uint32_t qpn) { return is_roce(s.info.kind) && s.info.dest_qpn == qpn; }

// q (PCP 3) and r (PCP 0) both send a -> b; b sends on q too.
const std::string kPfcNet =
    "host a 10.0.0.1 02:00:00:00:00:0a\n"
    "host b 10.0.0.2 02:00:00:00:00:0b\n"
    "path a 1us p1 1us p2 1us b\n"
    "qp q a:0x11 b:0x22 psn=100,500 mtu=1024 vlan=7 pcp=3\n"
    "qp r a:0x13 b:0x24 psn=100,500 mtu=1024 vlan=7 pcp=0\n"
    "write q a 8K\nwrite r a 8K\nsend q b 4K\n";

TEST(SimulationPfc, HoldsThePausedClassTowardsThePauserOnly) {
  auto f = run(kPfcNet + "pfc p2 from=b prio=3 quanta=1000 at=2us\n");  // 5.12 us at 100G
  int held = 0;
  const Seen* pfc = nullptr;
  const Seen* prev = nullptr;
  for (const auto& s : f) {
    if (s.info.kind == FrameKind::pfc) {
      pfc = &s;
      EXPECT_EQ(s.point, 1u);
      EXPECT_EQ(s.time, 2000);
      EXPECT_EQ(s.bytes, build_pfc({*parse_mac("02:00:00:00:00:0b"), kPfcDestination, 1 << 3, 0, {0, 0, 0, 1000}, {}}));
      continue;
    }
    const bool towards_b = s.info.dst_host == 1;
    if (s.paused) {
      held += s.info.kind == FrameKind::req;  // and a's ACKs of b's SEND, also priority 3
      EXPECT_EQ(s.point, 1u);  // only at the point of the pause
      EXPECT_TRUE(towards_b);  // only the pauser's direction
      EXPECT_TRUE(is_q(s, 0x22)) << "only priority 3";
      ASSERT_NE(pfc, nullptr);
      EXPECT_EQ(s.pause_id, pfc->ctrl_id);
      // Released at the end of the window, then back to back at line rate.
      if (prev) {
        EXPECT_EQ(s.time, prev->time + wire_ns(s, 100));
      } else {
        EXPECT_EQ(s.time, 2000 + 5120 + wire_ns(s, 100));
      }
      prev = &s;
    } else if (s.point == 1 && towards_b && is_q(s, 0x22)) {
      EXPECT_TRUE(s.time <= 2000 || s.time >= 7120) << "priority 3 passed p2 during the pause at " << s.time;
    }
  }
  EXPECT_EQ(held, 8);  // all of q's WRITE reached p2 inside the window
  // p1, upstream, saw q's WRITE as a sent it (interleaved with r's, ~1.1 to 2.4 us):
  // the pause shifts only what follows p2.
  for (const auto& s : f)
    if (s.point == 0 && is_q(s, 0x22) && s.info.kind == FrameKind::req) {
      EXPECT_LT(s.time, 2500);
    }
}

TEST(SimulationPfc, RefreshExtendsAndXonEndsEarly) {
  auto f = run(kPfcNet + "pfc p2 from=b prio=3 quanta=1000 at=2us\n"
                         "pfc p2 from=b prio=3 quanta=1000 at=5us\n"  // until 10.12 us ...
                         "xon p2 from=b prio=3 at=8us\n");            // ... cut at 8 us
  std::vector<uint64_t> ids;
  Ns first = 0;
  for (const auto& s : f) {
    if (s.info.kind == FrameKind::pfc) ids.push_back(s.ctrl_id);
    if (s.paused) {
      EXPECT_EQ(s.pause_id, 1u);  // the XOFF that opened the pause, not the refresh or the XON
      if (!first) first = s.time;
    }
  }
  EXPECT_EQ(ids, (std::vector<uint64_t>{1, 2, 3}));
  EXPECT_GT(first, 8000);
  EXPECT_LT(first, 8000 + 100);  // one serialization time after the XON
}

TEST(SimulationPfc, RefreshWithoutXonHoldsUntilTheLastWindowEnds) {
  auto f = run(kPfcNet + "pfc p2 from=b prio=3 quanta=1000 at=2us repeat=3 every=3us\n");  // last: 8 us + 5.12 us
  for (const auto& s : f)
    if (s.paused) {
      EXPECT_GT(s.time, 8000 + 5120);
    }
}

TEST(SimulationPfc, SwitchPortPausesTheHostTowardsIt) {
  // The switch's port on p1's link pauses what a sends, which p1 records
  // with that switch's MAC as the destination: the PFC frame's source.
  auto f = run(kPfcNet + "pfc p1 from=p1+p2 prio=3 quanta=1000 at=1us\n");
  int held = 0;
  Mac pauser{};
  for (const auto& s : f) {
    if (s.info.kind == FrameKind::pfc) pauser = mac_at(s, 6);
    if (s.paused) {
      held += s.info.kind == FrameKind::req;
      EXPECT_EQ(s.point, 0u);
      EXPECT_EQ(s.info.src_host, 0u);
      EXPECT_EQ(mac_at(s, 0), pauser);
    }
  }
  EXPECT_EQ(pauser, *parse_mac("02:53:57:00:00:01"));
  EXPECT_EQ(held, 8);
}

// `bridged`: RoCEv2 keeps the hosts' MACs and TTL at every point, and a
// pause from the switch port holds a's frames although they go to b's MAC.
TEST(SimulationPfc, BridgedFabricHoldsByLinkNotByMac) {
  auto f = run("bridged\n" + kPfcNet + "pfc p1 from=p1+p2 prio=3 quanta=1000 at=1us\n");
  const Mac a = *parse_mac("02:00:00:00:00:0a"), b = *parse_mac("02:00:00:00:00:0b");
  int held = 0;
  for (const auto& s : f) {
    if (s.info.kind == FrameKind::pfc) {
      EXPECT_EQ(mac_at(s, 6), *parse_mac("02:53:57:00:00:01"));
      continue;
    }
    const bool from_a = s.info.src_host == 0;
    EXPECT_EQ(mac_at(s, 6), from_a ? a : b);
    EXPECT_EQ(mac_at(s, 0), from_a ? b : a);
    EXPECT_EQ(s.bytes[18 + 8], 64) << "no TTL decrement in an L2 fabric";  // tagged: IPv4 after 18 bytes
    if (s.paused) {
      held += s.info.kind == FrameKind::req;
      EXPECT_EQ(s.point, 0u);
      EXPECT_TRUE(from_a) << "only what a transmits towards the pausing port";
    }
  }
  EXPECT_EQ(held, 8);
}

// `port_mac=`: PFC comes from the port MAC, a's frames still go to the
// router MAC, and the pause holds them all the same.
TEST(SimulationPfc, PortMacPausesWhatGoesToTheRouterMac) {
  auto f = run("host a 10.0.0.1 02:00:00:00:00:0a\nhost b 10.0.0.2 02:00:00:00:00:0b\n"
               "switch leaf 02:00:00:01:00:01 port_mac=02:00:00:01:10:01\n"
               "path a 1us p1 1us leaf 1us b\n"
               "qp q a:0x11 b:0x22 psn=100,500 mtu=1024 vlan=7 pcp=3\nwrite q a 8K\n"
               "pfc p1 from=leaf prio=3 quanta=1000 at=1us\n");
  const Mac router = *parse_mac("02:00:00:01:00:01"), port = *parse_mac("02:00:00:01:10:01");
  int held = 0;
  for (const auto& s : f) {
    if (s.info.kind == FrameKind::pfc) {
      EXPECT_EQ(mac_at(s, 6), port);
      continue;
    }
    if (s.info.src_host == 0) {
      EXPECT_EQ(mac_at(s, 0), router);
    }
    if (s.paused) {
      held += s.info.kind == FrameKind::req;
      EXPECT_EQ(s.info.src_host, 0u);
    }
  }
  EXPECT_EQ(held, 8);
}

TEST(SimulationPfc, ABusyPeriodKeepsTheXoffThatBeganIt) {
  // The first pause ends at 7.12 us and its backlog starts to drain; a new
  // XOFF at 7.3 us (a new pause: the window had expired) stops it again.
  // What is left still waits in the busy period the first pause began.
  auto f = run(kPfcNet + "pfc p2 from=b prio=3 quanta=1000 at=2us\npfc p2 from=b prio=3 quanta=1000 at=7.3us\n");
  int before = 0, after = 0;
  for (const auto& s : f)
    if (s.paused) {
      EXPECT_EQ(s.pause_id, 1u);
      (s.time < 7300 ? before : after)++;
      if (s.time > 7300) {
        EXPECT_GT(s.time, 7300 + 5120);
      }
    }
  EXPECT_GT(before, 0);
  EXPECT_GT(after, 0);
}

TEST(SimulationPfc, ANewBusyPeriodNamesItsOwnPause) {
  // q is untagged with DSCP 26: priority 3. Each pause holds one message at p2.
  auto f = run(kNet + "write q a 4K repeat=2 every=20us\n"
                      "pfc p2 from=b prio=3 quanta=1000 at=1.5us\npfc p2 from=b prio=3 quanta=1000 at=21.5us\n");
  std::vector<uint64_t> ids;
  for (const auto& s : f)
    if (s.paused) ids.push_back(s.pause_id);
  EXPECT_EQ(ids, (std::vector<uint64_t>{1, 1, 1, 1, 2, 2, 2, 2}));
}

TEST(SimulationPfc, PacingAloneIsNoPause) {
  // At 25G the 100G sender's packets queue for the link. The second
  // message reaches p2 from 42.09 us on: its first packet leaves at once, the
  // second is on the wire when the pause comes at 42.3 us, and it catches the
  // last two waiting. The first and the third message only wait for pacing.
  auto f = run(kNet + "speed p2 25\nwrite q a 4K repeat=3 every=40us\n"
                      "pfc p2 from=b prio=3 quanta=1000 at=42.3us\n");  // 20.48 us at 25G
  std::array<int, 3> held{}, paced{};
  Ns prev = 0;
  for (const auto& s : f) {
    if (s.point != 1 || s.info.kind != FrameKind::req) continue;
    const size_t msg = (s.info.psn - 100) / 4;
    ASSERT_LT(msg, 3u);
    held[msg] += s.paused;
    if (s.time - prev == wire_ns(s, 25)) ++paced[msg];  // right behind the one before
    prev = s.time;
    if (s.paused) {
      EXPECT_EQ(s.pause_id, 1u);
      EXPECT_GE(s.time, 42'300 + 20'480);
    }
  }
  EXPECT_EQ(held, (std::array<int, 3>{0, 2, 0}));
  EXPECT_EQ(paced[0], 3);
  EXPECT_EQ(paced[2], 3);
}

TEST(SimulationPfc, OnlyWellFormedFramesPause) {
  EXPECT_EQ(run(kPfcNet + "pfc p2 from=b prio=3 quanta=1000 at=2us reserved=0x01\n").size(),
            run(kPfcNet + "pfc p2 from=b prio=3 quanta=1000 at=2us\n").size());
  for (const char* bad : {"truncate=30", "dst=ff:ff:ff:ff:ff:ff"}) {
    auto f = run(kPfcNet + "pfc p2 from=b prio=3 quanta=1000 at=2us " + bad + "\n");
    for (const auto& s : f) EXPECT_FALSE(s.paused) << bad;
  }
  auto held = run(kPfcNet + "pfc p2 from=b prio=3 quanta=1000 at=2us reserved=0x01\n");
  EXPECT_TRUE(std::any_of(held.begin(), held.end(), [](const Seen& s) { return s.paused; }));  // reserved bits ignored
  auto runt = run(kPfcNet + "pfc p2 from=b prio=3 quanta=1000 at=2us truncate=30\n");
  for (const auto& s : runt)
    if (s.info.kind == FrameKind::pfc) {
      EXPECT_EQ(s.bytes.size(), 30u);
    }
}

TEST(SimulationPfc, ALongPauseTriggersTheTransportTimer) {
  auto f = run(kPfcNet + "timeout 2ms\n"
                         "pfc p2 storm from=b prio=3 quanta=0xffff at=2us every=300us until=2.5ms\n"
                         "xon p2 from=b prio=3 at=2.6ms\n");
  int at_p1 = 0, at_p2 = 0;
  for (const auto& s : f)
    if (s.info.kind == FrameKind::req && s.info.cause == Cause::timeout && s.info.dest_qpn == 0x22) {
      if (s.point == 0) {
        ++at_p1;
        EXPECT_EQ(s.verdict, "timeout");  // p1 saw the silence
      } else {
        ++at_p2;
        EXPECT_TRUE(s.paused);
        EXPECT_EQ(s.verdict, "retransmission");  // p2 saw them right behind the originals
      }
    }
  EXPECT_EQ(at_p1, 8);
  EXPECT_EQ(at_p2, 8);
}

TEST(SimulationPfc, PacedLinkAndQuantaAtItsSpeed) {
  auto f = run(kPfcNet + "speed p2 25\npfc p2 from=b prio=3 quanta=1000 at=2us\n");  // 20.48 us at 25G
  const Seen* prev = nullptr;
  for (const auto& s : f) {
    if (s.point != 1 || s.info.dst_host != 1 || !is_roce(s.info.kind)) continue;
    if (prev) {
      EXPECT_GE(s.time - prev->time, wire_ns(s, 25)) << "frames overlap on the 25G link";
    }
    if (s.paused) {
      EXPECT_GE(s.time, 2000 + 20480 + wire_ns(s, 25));
    }
    prev = &s;
  }
}

TEST(SimulationPfc, OnAPacedLinkAFrameRightBehindTheBacklogIsPausedToo) {
  // a sends at 10G, p2 runs at 25G. The 2K WRITE's first packet reaches p2
  // at 2,898 ns; the pause (20 quanta: 410 ns at 25G) holds it until
  // 3,260 ns, so it ends at 3,620 ns. The second packet arrives at 3,783 ns,
  // after that, but still has to wait for it (354 ns of link time): it
  // queues behind the backlog and ends at 3,974 ns, back to back.
  auto f = run("link_gbps 10\n" + kNet + "speed p2 25\nwrite q a 2K\npfc p2 from=b prio=3 quanta=20 at=2850ns\n");
  std::vector<std::pair<Ns, bool>> got;
  for (const auto& s : f)
    if (s.point == 1 && s.info.kind == FrameKind::req) got.push_back({s.time, s.paused});
  EXPECT_EQ(got, (std::vector<std::pair<Ns, bool>>{{3620, true}, {3974, true}}));
}

TEST(SimulationQos, RewriteAtAPointStaysDownstream) {
  auto f = run(kNet + "send q a 4K\nsend q b 1K\nrewrite p2 dscp=26:0 pcp=5 dir=a->b\n");
  for (const auto& s : f) {
    const uint8_t dscp = s.bytes[15] >> 2;
    if (s.info.src_host == 0) {
      EXPECT_EQ(dscp, s.point == 0 ? 26 : 0);
    }
    else EXPECT_EQ(dscp, 26);  // the other direction passes unchanged
  }
}

TEST(SimulationQos, RewriteFromItsTimeOnly) {
  // p2's rewrite starts at 45 us: the messages passing p2 before keep DSCP 26.
  auto f = run(kNet + "send q a 1K repeat=10 every=10us\nrewrite p2 dscp=26:0 dir=a->b at=45us\n");
  int kept = 0, rewritten = 0;
  for (const auto& s : f) {
    if (s.point != 1 || s.info.kind != FrameKind::req) continue;
    const uint8_t dscp = s.bytes[15] >> 2;
    EXPECT_EQ(dscp, s.time < 45'000 ? 26 : 0) << "at " << s.time;
    ++(dscp == 26 ? kept : rewritten);
  }
  EXPECT_EQ(kept, 5);
  EXPECT_EQ(rewritten, 5);
  EXPECT_THROW(run(kNet + "send q a 100\nrewrite p1 dscp=0 at=1ms\n"), SimulationError);  // all passed before
}

TEST(SimulationQos, MarkingChangesFromItsTime) {
  auto f = run(kNet + "send q a 1K repeat=10 every=10us\nmarking q a dscp=10 ecn=1 at=45us\n");
  int before = 0, after = 0;
  for (const auto& s : f) {
    if (s.info.kind != FrameKind::req) continue;
    const uint8_t tos = s.bytes[15];
    if (s.time < 45'000) {
      ++before;
      EXPECT_EQ(tos, 26 << 2 | 2);
    } else if (s.time > 47'000) {
      ++after;
      EXPECT_EQ(tos, 10 << 2 | 1);
    }
  }
  EXPECT_EQ(before, 10);  // 5 messages, 2 points
  EXPECT_EQ(after, 10);
}

TEST(SimulationQos, MarkingOrRewriteThatTouchesNothingIsAnError) {
  EXPECT_THROW(run(kNet + "send q a 100\nmarking q a dscp=0 at=1ms\n"), SimulationError);  // all sent before
  EXPECT_THROW(run(kNet + "send q a 100\nrewrite p1 dscp=10:0\n"), SimulationError);     // no DSCP 10 passes
  EXPECT_THROW(run(kNet + "send q a 100\nrewrite p1 pcp=3\n"), SimulationError);         // nothing tagged
  EXPECT_NO_THROW(run(kNet + "send q a 100\nrewrite p1 dscp=26:0\nmarking q b dscp=4 at=0ns\n"));  // b's ACK
}

TEST(SimulationQos, CnpsCarryTheCnpClass) {
  const std::string net =
      "host a 10.0.0.1 02:00:00:00:00:0a\nhost b 10.0.0.2 02:00:00:00:00:0b\npath a 1us p1 1us b\n";
  for (auto [opts, pcp, dscp] : {std::tuple{"", 6, 48}, std::tuple{" cnp_pcp=1 cnp_dscp=0", 1, 0}}) {
    auto f = run(net + "qp q a:0x11 b:0x22 vlan=7 pcp=3" + opts + "\nsend q a 100\necn_mark q a psn=0 at=p1\n");
    int cnps = 0;
    for (const auto& s : f)
      if (s.info.kind == FrameKind::cnp) {
        ++cnps;
        EXPECT_EQ(get_pcp(s.bytes), pcp);
        EXPECT_EQ(get_u16_be(s.bytes, 14) & 0x0FFF, 7);  // the QP's VLAN
        EXPECT_EQ(s.bytes[18 + 1] >> 2, dscp);
      } else if (s.info.kind == FrameKind::ack) {
        EXPECT_EQ(get_pcp(s.bytes), 3);  // ACKs are marked like their QP
        EXPECT_EQ(s.bytes[18 + 1] >> 2, 26);
      }
    EXPECT_EQ(cnps, 1);
  }
}

TEST(SimulationQos, NotEctIsNeverMarkedCe) {
  auto f = run(kNet + "send q a 1K repeat=2 every=20us\nmarking q a ecn=0 at=10us\necn_mark q a psn=0-1 at=p1\n");
  int ce = 0;
  for (const auto& s : f) ce += s.ce;
  EXPECT_EQ(ce, 2);  // the first message, at both points; the second is Not-ECT
}

TEST(SimulationLinkLocal, LldpFramesAreRecordedAtTheirPoint) {
  auto f = run(kNet + "send q a 100\nlldp p2 from=b pfc=3 app=26:3 at=1us repeat=2 every=5us\n");
  std::vector<Ns> times;
  for (const auto& s : f)
    if (s.info.kind == FrameKind::lldp) {
      times.push_back(s.time);
      EXPECT_EQ(s.point, 1u);
      LldpFields l;
      l.src = *parse_mac("02:00:00:00:00:0b");
      l.port = "b";
      l.pfc_enable = 1 << 3;
      l.app = {{3, kAppSelectorDscp, 26}};
      EXPECT_EQ(s.bytes, build_lldp(l));
      EXPECT_EQ(s.ctrl_id, 0u);
    }
  EXPECT_EQ(times, (std::vector<Ns>{1000, 6000}));
}

// ---- what real NICs and fabrics do: reordering, placement, IP IDs, SPAN

const std::string kNicHosts =
    "host a 10.0.0.1 02:00:00:00:00:0a\n"
    "host b 10.0.0.2 02:00:00:00:00:0b\n";
const std::string kNicNet = kNicHosts + "path a 1us p1 1us p2 1us b\n";

std::vector<uint32_t> request_psns(const std::vector<Seen>& f, size_t point) {
  std::vector<uint32_t> v;
  for (const auto& s : f)
    if (s.point == point && s.info.kind == FrameKind::req && !s.mirror) v.push_back(s.info.psn);
  return v;
}

uint32_t ip_id(const Seen& s) { return uint32_t{s.bytes[18]} << 8 | s.bytes[19]; }

TEST(NicSimulation, ReorderSwapsOnlyDownstreamAndOooReceiverDoesNotNak) {
  auto f = run(kNicNet + "qp q a:0x11 b:0x22 psn=0,0 ooo=b\nwrite q a 4K\n"
                            "reorder q a psn=1 by=150ns where=between:p1,p2\n");
  EXPECT_EQ(request_psns(f, 0), (std::vector<uint32_t>{0, 1, 2, 3}));
  EXPECT_EQ(request_psns(f, 1), (std::vector<uint32_t>{0, 2, 1, 3}));
  for (const auto& s : f) EXPECT_NE(s.info.kind, FrameKind::nak);
}

TEST(NicSimulation, ReorderWithoutOooNaksAndGoesBack) {
  auto f = run(kNicNet + "qp q a:0x11 b:0x22 psn=0,0\nwrite q a 4K\n"
                            "reorder q a psn=1 by=150ns where=between:p1,p2\n");
  size_t naks = 0, gbn = 0;
  for (const auto& s : f) {
    naks += s.info.kind == FrameKind::nak && s.point == 1;
    gbn += s.info.cause == Cause::gbn && s.point == 1;
  }
  EXPECT_GE(naks, 1u);
  EXPECT_GE(gbn, 1u);
}

TEST(NicSimulation, ResendIpIdSameAndZero) {
  const std::string net =
      "host a 10.0.0.1 02:00:00:00:00:0a resend_ipid=same\n"
      "host b 10.0.0.2 02:00:00:00:00:0b ipid=zero\n"
      "path a 1us p1 1us b\nqp q a:0x11 b:0x22 psn=0,0\nwrite q a 4K\ndrop q a psn=1 where=after:p1\n";
  auto f = run(net);
  std::vector<const Seen*> psn2;
  for (const auto& s : f) {
    if (s.info.src_host == 1) {
      EXPECT_EQ(ip_id(s), 0u);  // b's ACK and NAK
    }
    if (s.info.kind == FrameKind::req && s.info.psn == 2) psn2.push_back(&s);
  }
  ASSERT_EQ(psn2.size(), 2u);
  EXPECT_EQ(psn2[1]->info.cause, Cause::gbn);
  EXPECT_EQ(psn2[0]->bytes, psn2[1]->bytes);  // byte-identical
}

TEST(NicSimulation, MirrorRewriteShowsTheSwitchsOtherSide) {
  const std::string net = kNicHosts +
                          "switch s 02:53:00:00:00:01\npath a 1us p1 1us s 1us b\nmirror p1 dup=1us rewrite=on\n"
                          "qp q a:0x11 b:0x22 psn=0,0\nsend q a 100\n";
  auto f = run(net);
  ASSERT_EQ(f.size(), 4u);  // the SEND and its ACK, each twice
  for (size_t i = 0; i + 1 < f.size(); ++i) {
    if (f[i].mirror) continue;
    const Seen* copy = nullptr;
    for (const auto& s : f)
      if (s.mirror && s.info.kind == f[i].info.kind) copy = &s;
    ASSERT_TRUE(copy);
    const bool into_switch = f[i].info.src_host == 0;
    EXPECT_EQ(copy->bytes[22], into_switch ? f[i].bytes[22] - 1 : f[i].bytes[22] + 1);  // TTL
    const std::vector<uint8_t> src(copy->bytes.begin() + 6, copy->bytes.begin() + 12);
    const std::vector<uint8_t> want = into_switch ? std::vector<uint8_t>{2, 0x53, 0, 0, 0, 1}   // the switch, leaving
                                                  : std::vector<uint8_t>{2, 0, 0, 0, 0, 0x0b};  // b, coming in
    EXPECT_EQ(src, want);
  }
}

}  // namespace
}  // namespace roceshark::gen
