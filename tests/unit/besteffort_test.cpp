// SPDX-License-Identifier: GPL-2.0-or-later
// RoCE's waits at a hop weighed against the best-effort traffic that left
// meanwhile (docs/multipoint.md, "RoCE starved by best-effort").
#include "epan-ext/analysis/besteffort.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <vector>

namespace roceshark::hop {
namespace {

constexpr uint64_t us = 1000;
constexpr uint32_t kUp = 1, kDown = 2;
constexpr double kGbps = 25;
constexpr uint64_t kBase = 2 * us;  // the hop's latency unqueued

CrossPacket tcp(uint32_t n, uint32_t point, uint64_t ts) {
  CrossPacket c;
  c.src = Address::from(std::vector<uint8_t>{10, 0, 0, 9});
  c.dst = Address::from(std::vector<uint8_t>{10, 0, 0, 2});
  c.proto = 6, c.sport = 40000, c.dport = 5201, c.ip_id = static_cast<uint16_t>(n), c.seq = n * 1460;
  c.ip_len = 1500, c.frame_len = 1514, c.point = point, c.ts_ns = ts;
  return c;
}

// A port of kGbps: from `start` for `length`, best-effort leaves at `be`
// of the link and RoCE at `roce`, RoCE's wait growing by `growth` ns per ns
// (best-effort's by `be_growth`). Returns the starved packets' figures.
struct Port {
  double be = 0.8, roce = 0.2, growth = 0.5, be_growth = 0;
  uint64_t start = 100 * us, length = 100 * us, be_from = 0;
  uint8_t share_pct = 50;

  std::vector<Starvation> run() const {
    struct Ev {
      uint64_t ts;
      int kind;  // 0 best-effort upstream, 1 best-effort downstream, 2 RoCE downstream
      uint32_t n;
    };
    std::vector<Ev> ev;
    const double be_gap = 1538 * 8 / (kGbps * be), roce_gap = 1106 * 8 / (kGbps * roce);
    uint32_t n = 0;
    for (double t = static_cast<double>(start + be_from); be > 0 && t < static_cast<double>(start + length); t += be_gap) {
      const auto left = static_cast<uint64_t>(t);
      ev.push_back({left - kBase - static_cast<uint64_t>(be_growth * (t - static_cast<double>(start))), 0, n});
      ev.push_back({left, 1, n++});
    }
    n = 0;
    for (double t = static_cast<double>(start); t < static_cast<double>(start + length); t += roce_gap)
      ev.push_back({static_cast<uint64_t>(t), 2, n++});
    std::stable_sort(ev.begin(), ev.end(), [](const Ev& a, const Ev& b) { return a.ts < b.ts; });
    BestEffort b(share_pct, 10'000 * us);
    std::vector<Starvation> out;
    for (const Ev& e : ev) {
      if (e.kind < 2) {
        b.cross(tcp(e.n, e.kind ? kDown : kUp, e.ts), static_cast<int64_t>(e.ts));
        continue;
      }
      const auto wait = static_cast<uint64_t>(growth * static_cast<double>(e.ts - start));
      if (const Starvation s = b.roce(kUp, kDown, e.ts, 1082, wait, true, kGbps); s.be_share_pct) out.push_back(s);
    }
    return out;
  }
};

TEST(BestEffort, StrictPriorityBestEffortStarvesRoce) {
  const auto s = Port{}.run();  // best-effort takes 80% while RoCE waits up to 50 us
  ASSERT_GE(s.size(), BestEffort::kMinEvidence);
  EXPECT_TRUE(s[BestEffort::kMinEvidence - 1].enough);  // the hop is reported from its fifth
  EXPECT_EQ(std::count_if(s.begin(), s.end(), [](const Starvation& x) { return x.enough; }), 1);
  double sum = 0;
  for (const Starvation& x : s) {
    EXPECT_GE(x.be_share_pct, 75);  // a short wait holds few frames: its share is coarse
    EXPECT_GE(x.fill_pct, 80);
    EXPECT_EQ(x.be_wait_ns, 0u);
    sum += x.be_share_pct;
  }
  EXPECT_NEAR(sum / static_cast<double>(s.size()), 80, 3);
}

TEST(BestEffort, BestEffortWithinItsShareIsFair) {
  Port p;
  p.be = 0.2, p.roce = 0.8;  // RoCE over its own share: it queues, best-effort keeps to 20%
  EXPECT_TRUE(p.run().empty());
  p.share_pct = 15;  // roce.besteffort_share_pct below what it takes: then it is too much
  EXPECT_FALSE(p.run().empty());
}

TEST(BestEffort, BestEffortWaitingAsLongSharesTheQueue) {
  Port p;
  p.be_growth = 0.5;  // best-effort queues too (the same FIFO, or both classes backlogged)
  EXPECT_TRUE(p.run().empty());
}

TEST(BestEffort, NotEnoughEvidenceSaysNothing) {
  Port half;
  half.be = 0.3, half.roce = 0.2;  // the taps saw half the link's time: the rest is unknown
  EXPECT_TRUE(half.run().empty());
  Port late;
  late.be_from = 60 * us, late.growth = 0.2;  // waits that began before any best-effort crossed
  const auto s = late.run();
  for (const Starvation& x : s) EXPECT_GE(x.be_share_pct, 51);
  EXPECT_LT(s.size(), Port{}.run().size());
  Port none;
  none.be = 0;  // RoCE alone: nothing to weigh against
  EXPECT_TRUE(none.run().empty());
}

TEST(BestEffort, CopiesAtOnePointAreNoHop) {
  BestEffort b(50, 10'000 * us);
  for (uint32_t n = 0; n < 50; ++n) {
    b.cross(tcp(n, kDown, n * us), static_cast<int64_t>(n * us));
    b.cross(tcp(n, kDown, n * us + 100), static_cast<int64_t>(n * us + 100));  // a mirror's second copy
  }
  EXPECT_EQ(b.roce(kUp, kDown, 60 * us, 1082, 20 * us, true, kGbps).be_share_pct, 0);
}

TEST(BestEffort, IdentityIsWhatNoHopChanges) {
  CrossPacket a = tcp(7, kUp, 0), b = tcp(7, kDown, 5 * us);
  b.dscp = 10, b.pcp = 0, b.frame_len = 1518;  // remarked, tagged: the same packet
  EXPECT_EQ(a.identity(), b.identity());
  b.seq += 1460;
  EXPECT_NE(a.identity(), b.identity());
}

}  // namespace
}  // namespace roceshark::hop
