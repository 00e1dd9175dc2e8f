// SPDX-License-Identifier: GPL-2.0-or-later
// What the simulation hands over for matching packets across points:
// packet ids, lost_after, queue bursts, best-effort cross traffic, ERSPAN copies.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "captures/gen/erspan_frame.h"
#include "captures/gen/scenario_parser.h"
#include "captures/gen/simulation.h"

namespace roceshark::gen {
namespace {

struct Seen {
  size_t point;
  Ns time;
  FrameInfo info;
  std::vector<uint8_t> bytes;
  uint32_t wire_len;
  bool mirror;
  uint64_t id;
  bool lost_after;
  Ns queued;
};

class Collect : public FrameSink {
 public:
  void frame(const Frame& f) override {
    frames.push_back({f.point, f.time, *f.info, {f.data.begin(), f.data.end()}, f.wire_len, f.mirror, f.packet_id,
                      f.lost_after, f.queued});
  }
  std::vector<Seen> frames;
};

std::vector<Seen> run(const std::string& text) {
  Scenario sc = parse_scenario(text, "t.scn");
  Simulation sim(sc);
  Collect c;
  sim.run(c);
  return c.frames;
}

// a - 1us - p1 - 2us - p2 - 3us - p3 - 1us - b
const std::string kNet =
    "host a 10.0.0.1 02:00:00:00:00:0a\n"
    "host b 10.0.0.2 02:00:00:00:00:0b\n"
    "path a 1us p1 2us p2 3us p3 1us b\n"
    "qp q a:0x11 b:0x22 psn=100,500 mtu=1024\n";

// packet id -> point -> the frame there.
std::map<uint64_t, std::map<size_t, const Seen*>> by_id(const std::vector<Seen>& frames) {
  std::map<uint64_t, std::map<size_t, const Seen*>> m;
  for (const Seen& s : frames)
    if (!s.mirror) m[s.id][s.point] = &s;
  return m;
}

TEST(SimulationMultipoint, APacketIdNamesOneTransmissionAtEveryPoint) {
  auto f = run(kNet + "write q a 4K\ndrop q a psn=1 where=between:p2,p3\n");
  const auto ids = by_id(f);
  std::map<uint32_t, int> sends;  // request PSN -> transmissions
  uint64_t last_id = 0;
  for (const Seen& s : f) {
    ASSERT_GT(s.id, 0u);
    if (s.point == 0 && s.info.src_host == 0) {
      EXPECT_GT(s.id, last_id);  // in the order a sends them
      last_id = s.id;
    }
  }
  for (const auto& [id, at] : ids) {
    const Seen& first = *at.begin()->second;
    for (const auto& [point, s] : at) {
      EXPECT_EQ(s->info.psn, first.info.psn);
      EXPECT_EQ(s->info.kind, first.info.kind);
    }
    if (first.info.kind == FrameKind::req) ++sends[first.info.psn];
    const bool lost = first.info.kind == FrameKind::req && first.info.psn == 101 && first.info.cause == Cause::original;
    EXPECT_EQ(at.size(), lost ? 2u : 3u) << "packet " << id;
    for (const auto& [point, s] : at) EXPECT_EQ(s->lost_after, lost && point == 1) << "packet " << id << " at " << point;
  }
  EXPECT_EQ(sends[100], 1);
  EXPECT_EQ(sends[101], 2);  // the original and the go-back-N resend: two ids
  EXPECT_EQ(sends[103], 2);
}

TEST(SimulationMultipoint, ALossBeforeTheReceivingHostIsNoLossBetweenPoints) {
  auto f = run(kNet + "send q a 100\ndrop q a psn=0 where=receiver\n");
  int seen = 0;
  for (const Seen& s : f)
    if (s.info.kind == FrameKind::req && s.info.cause == Cause::original) {
      ++seen;
      EXPECT_FALSE(s.lost_after);  // p3 is the last point: nobody after it misses the packet
    }
  EXPECT_EQ(seen, 3);
}

TEST(SimulationMultipoint, MirrorCopiesKeepTheIdAndTheLoss) {
  auto f = run(kNet + "mirror p2 dup=100ns\nsend q a 100\ndrop q a psn=0 where=before:p3\n");
  std::vector<const Seen*> at_p2;
  for (const Seen& s : f)
    if (s.point == 1 && s.info.kind == FrameKind::req && s.info.cause == Cause::original) at_p2.push_back(&s);
  ASSERT_EQ(at_p2.size(), 2u);
  EXPECT_FALSE(at_p2[0]->mirror);
  EXPECT_TRUE(at_p2[1]->mirror);
  EXPECT_EQ(at_p2[0]->id, at_p2[1]->id);
  EXPECT_TRUE(at_p2[0]->lost_after);
  EXPECT_TRUE(at_p2[1]->lost_after);
}

TEST(SimulationMultipoint, AQueueBurstDelaysTheHopIntoItsPointOnly) {
  // One 1 KB write every 1us; from 5us for 5us the queue before p2 (a -> b)
  // fills to 10us, then drains until 20us.
  auto f = run(kNet + "write q a 1024 repeat=30 every=1us\nqueue p2 10us at=5us for=5us dir=a->b\n");
  QueueBurst q;
  q.delay = 10'000, q.at = 5'000, q.length = 5'000;
  int waited = 0, back_to_back = 0;
  Ns prev_exit = 0;
  for (const auto& [id, at] : by_id(f)) {
    const Seen& p1 = *at.at(0);
    const Seen& p2 = *at.at(1);
    const Seen& p3 = *at.at(2);
    EXPECT_EQ(p1.queued, 0);
    EXPECT_EQ(p3.queued, 0);
    if (p1.info.src_host != 0) {  // b's ACKs go the other way: no burst there
      EXPECT_EQ(p2.queued, 0);
      EXPECT_EQ(p1.time - p2.time, 2'000);
      continue;
    }
    EXPECT_EQ(p2.time - p1.time, 2'000 + p2.queued);
    EXPECT_EQ(p3.time - p2.time, 3'000);
    const Ns arrival = p2.time - p2.queued;
    const Ns b = q.backlog(arrival);
    EXPECT_GE(p2.queued, b);
    if (p2.queued > b) {  // behind the one before it: back to back at 100 Gb/s
      EXPECT_EQ(p2.time, prev_exit + ((static_cast<Ns>(p2.wire_len) + 24) * 8 * 1000 + 99'999) / 100'000) << id;
      ++back_to_back;
    }
    if (p2.queued > 0) ++waited, prev_exit = p2.time;
  }
  EXPECT_GT(waited, 10);
  EXPECT_GT(back_to_back, 3);  // everything that arrives while it drains leaves together
}

TEST(SimulationMultipoint, AQueueBurstThatHoldsNothingIsAnError) {
  EXPECT_THROW(run(kNet + "send q a 100\nqueue p2 10us at=1ms for=5us\n"), SimulationError);
}

// Best-effort cross traffic: a - 500ns - p1 - 2us - p2 - 1us - b at 25 Gb/s,
// the flow recorded at p1, then queued with RoCE feeding p2.
const std::string kBeNet =
    "link_gbps 25\n"
    "host a 10.0.0.1 02:00:00:00:00:0a\n"
    "host b 10.0.0.2 02:00:00:00:00:0b\n"
    "path a 500ns p1 2us p2 1us b\n"
    "qp q a:0x11 b:0x22 psn=100,500 mtu=1024\n";

uint32_t be_field(const Seen& s, size_t at, size_t len) {
  uint32_t v = 0;
  for (size_t i = 0; i < len; ++i) v = v << 8 | s.bytes[at + i];
  return v;
}

// The serialization time of a frame of `len` bytes at 25 Gb/s, unrounded.
double ser25(uint32_t len) { return (len + 24) * 8 / 25.0; }

struct BeRun {
  std::vector<Seen> frames;
  std::vector<const Seen*> roce_p2;  // a -> b RoCE at p2, in the order they leave
  std::map<uint64_t, std::vector<const Seen*>> be;  // packet id -> its copies
};

BeRun be_run(const std::string& traffic) {
  BeRun r;
  r.frames = run(kBeNet + traffic);
  for (const Seen& s : r.frames) {
    if (s.info.kind == FrameKind::besteffort) r.be[s.id].push_back(&s);
    else if (s.point == 1 && s.info.src_host == 0) r.roce_p2.push_back(&s);
  }
  return r;
}

// Every best-effort packet twice, p1 then p2, the same IPv4 ID and TCP
// sequence, sent `spacing` apart from `at`; at p2 later by the segment's
// 2 us + its wait + its serialization at 25 Gb/s. Returns the largest wait.
Ns check_be_copies(const BeRun& r, Ns at, Ns spacing, size_t count) {
  EXPECT_EQ(r.be.size(), count);
  Ns most = 0;
  uint32_t k = 0;
  for (const auto& [id, copies] : r.be) {
    EXPECT_EQ(copies.size(), 2u) << "packet " << id;
    if (copies.size() != 2) continue;
    const Seen &up = *copies[0], &down = *copies[1];
    EXPECT_EQ(up.point, 0u);
    EXPECT_EQ(down.point, 1u);
    EXPECT_EQ(up.wire_len, 1514u);
    EXPECT_EQ(up.time, at + static_cast<Ns>(k) * spacing) << "packet " << k;
    EXPECT_EQ(be_field(up, 18, 2), kBestEffortIpId + k);                 // IPv4 ID
    EXPECT_EQ(be_field(up, 38, 4), kBestEffortSeq + k * 1460);           // TCP sequence
    EXPECT_EQ(be_field(up, 34, 2), kBestEffortSport);
    EXPECT_EQ(be_field(up, 36, 2), kBestEffortDport);
    EXPECT_EQ(be_field(down, 18, 2), be_field(up, 18, 2));
    EXPECT_EQ(be_field(down, 38, 4), be_field(up, 38, 4));
    EXPECT_EQ(up.queued, 0);
    EXPECT_EQ(up.bytes[22], 64);    // TTL: a sent it, no switch yet
    EXPECT_EQ(down.bytes[22], 63);  // the switch between p1 and p2
    EXPECT_EQ(down.time - up.time, 2'000 + down.queued + 493);  // 1538 bytes at 25 Gb/s: 492.16 ns
    most = std::max(most, down.queued);
    ++k;
  }
  return most;
}

TEST(SimulationMultipoint, BestEffortInStrictPriorityStarvesRoce) {
  // RoCE: a 1 KB write every 1 us, 1098-byte frames: 36% of the link. The
  // flow: 20 Gb/s (f = 0.8) from 10 us for 40 us, above RoCE, which gets
  // 20% of the link meanwhile: its queue grows by 0.36 / 0.2 - 1 = 0.8 ns
  // per ns until the flow is over, then drains at line rate.
  BeRun r = be_run("write q a 1024 repeat=60 every=1us\n"
                   "besteffort p2 20gbps at=10us for=40us dir=a->b sched=strict\n");
  const Ns spacing = 616;  // 1538 bytes at 20 Gb/s: 615.2 ns
  EXPECT_EQ(check_be_copies(r, 10'000, spacing, 65), 0);  // best-effort never waits
  const Ns first = 12'000, end = 12'000 + 64 * spacing + 493;  // the flow at the queue
  ASSERT_FALSE(r.roce_p2.empty());
  const double ser = ser25(r.roce_p2[0]->wire_len);
  const Seen* prev = nullptr;
  const Seen *early = nullptr, *late = nullptr;  // queued during the flow, first and last
  int drained = 0;
  for (const Seen* s : r.roce_p2) {
    const Ns arrival = s->time - s->queued;
    if (prev) {
      EXPECT_GE(s->time, prev->time);  // FIFO
    }
    if (arrival < first) {
      EXPECT_EQ(s->queued, 0);
    } else if (prev && s->queued > 0) {
      if (s->time <= end) {  // served at 20% of the link behind the frame before it
        EXPECT_NEAR(static_cast<double>(s->time - prev->time), ser / 0.2, 1.0);
        if (!early) early = s;
        late = s;
      } else if (prev->time >= end) {  // the flow is over: back to back at line rate
        EXPECT_EQ(s->time - prev->time, static_cast<Ns>(std::ceil(ser)));
        ++drained;
      }
    }
    prev = s;
  }
  ASSERT_TRUE(early && late);
  const double slope = static_cast<double>(late->queued - early->queued) /
                       static_cast<double>((late->time - late->queued) - (early->time - early->queued));
  EXPECT_NEAR(slope, ser / 1000 / 0.2 - 1, 0.01);  // ~ (0.36 - 0.2) / 0.2 of the time elapsed
  EXPECT_GT(late->queued, 15'000);  // arrived at ~34 us, left as the flow ended
  EXPECT_GT(drained, 10);
  EXPECT_EQ(r.roce_p2.back()->queued, 0);  // all drained before the writes end
}

TEST(SimulationMultipoint, BestEffortWithinItsEtsShareLeavesRoceItsOwnQueue) {
  // RoCE at 88% of the link (a 1 KB write every 408 ns); ETS gives it 80%
  // and best-effort (5 Gb/s, f = 0.2) the rest: RoCE queues slowly, by
  // 0.88 / 0.8 - 1 = 0.1 ns per ns, best-effort not at all.
  BeRun r = be_run("write q a 1024 repeat=200 every=408ns\n"
                   "besteffort p2 5gbps at=10us for=50us dir=a->b sched=ets:80\n");
  const Ns spacing = 2'461;  // 1538 bytes at 5 Gb/s: 2460.8 ns
  EXPECT_EQ(check_be_copies(r, 10'000, spacing, 21), 0);
  const Ns end = 12'000 + 20 * spacing + 493;
  const double ser = ser25(r.roce_p2[0]->wire_len);
  const Seen *prev = nullptr, *early = nullptr, *late = nullptr;
  for (const Seen* s : r.roce_p2) {
    if (prev) {
      EXPECT_GE(s->time, prev->time);
    }
    if (prev && s->queued > 0 && s->time <= end) {
      EXPECT_NEAR(static_cast<double>(s->time - prev->time), ser / 0.8, 1.0);
      if (!early) early = s;
      late = s;
    }
    prev = s;
  }
  ASSERT_TRUE(early && late);
  const double slope = static_cast<double>(late->queued - early->queued) /
                       static_cast<double>((late->time - late->queued) - (early->time - early->queued));
  EXPECT_NEAR(slope, ser / 408 / 0.8 - 1, 0.01);
  EXPECT_GT(late->queued, 3'000);
  EXPECT_LT(late->queued, 8'000);
}

TEST(SimulationMultipoint, BestEffortOverItsEtsShareWaitsItself) {
  // 10 Gb/s (f = 0.4) against ets:80: while RoCE is backlogged, best-effort
  // gets 20% of the link, so it queues behind itself.
  BeRun r = be_run("write q a 1024 repeat=200 every=408ns\n"
                   "besteffort p2 10gbps at=10us for=20us dir=a->b sched=ets:80\n");
  std::vector<const Seen*> down;
  for (const auto& [id, copies] : r.be) down.push_back(copies.back());
  ASSERT_GT(down.size(), 5u);
  for (size_t i = 2; i < down.size(); ++i) {
    EXPECT_GT(down[i]->queued, down[i - 1]->queued);
    EXPECT_NEAR(static_cast<double>(down[i]->time - down[i - 1]->time), ser25(1514) / 0.2, 1.0);
  }
}

TEST(SimulationMultipoint, ABestEffortFlowNoRoceMeetsIsAnError) {
  // Its packets are recorded either way; what counts is a RoCE frame of its
  // direction reaching the queue while the flow runs.
  EXPECT_THROW(run(kBeNet + "send q a 100\nbesteffort p2 1gbps at=1ms for=5us dir=a->b sched=strict\n"),
               SimulationError);
  EXPECT_NO_THROW(run(kBeNet + "write q a 1024 repeat=20 every=1us\n"
                               "besteffort p2 1gbps at=1us for=20us dir=a->b sched=strict\n"));
}

const std::string kErspan = kNet +
    "collector col\n"
    "erspan p2 session=100 type=2 src=192.0.2.1 dst=192.0.2.9 collector=col latency=1us\n"
    "erspan p3 session=200 type=3 src=192.0.2.2 dst=192.0.2.9 collector=col\n"
    "clock p3 1us\n";

TEST(SimulationMultipoint, ErspanCopiesCarryTheFrameOfTheirPoint) {
  const std::string traffic = "qp t a:0x33 b:0x44 psn=1,1 vlan=20 pcp=3\nwrite q a 2K\nsend t a 100\n";
  auto plain = run(kNet + traffic);
  auto mirrored = run(kErspan + traffic);
  ASSERT_EQ(plain.size(), mirrored.size());
  std::map<size_t, uint32_t> seq;
  for (size_t i = 0; i < plain.size(); ++i) {
    const Seen &p = plain[i], &m = mirrored[i];
    ASSERT_EQ(p.point, m.point);
    EXPECT_EQ(p.time, m.time);  // the simulation does not change; the file's clock does
    if (m.point == 0) {
      EXPECT_EQ(m.bytes, p.bytes);
      continue;
    }
    const int type = m.point == 1 ? 2 : 3;
    const size_t over = erspan_overhead(type);
    ASSERT_EQ(m.bytes.size(), p.bytes.size() + over);
    EXPECT_EQ(m.wire_len, p.wire_len + over);
    EXPECT_EQ(std::vector<uint8_t>(m.bytes.begin() + static_cast<std::ptrdiff_t>(over), m.bytes.end()), p.bytes);
    const uint32_t gre_seq = uint32_t{m.bytes[38]} << 24 | uint32_t{m.bytes[39]} << 16 | m.bytes[40] << 8 | m.bytes[41];
    EXPECT_EQ(gre_seq, seq[m.point]++);  // per session, from 0
    const uint16_t session = static_cast<uint16_t>((m.bytes[44] & 3) << 8 | m.bytes[45]);
    EXPECT_EQ(session, type == 2 ? 100 : 200);
    const bool tagged = p.info.dest_qpn == 0x44 || p.info.dest_qpn == 0x33;
    EXPECT_EQ(m.bytes[42] & 0x0F, 0);
    EXPECT_EQ(m.bytes[43], tagged ? 20 : 0);     // the mirrored frame's VLAN
    EXPECT_EQ(m.bytes[44] >> 5, tagged ? 3 : 0);  // and its PCP
    if (type == 3) {
      const uint32_t stamp = uint32_t{m.bytes[46]} << 24 | uint32_t{m.bytes[47]} << 16 | m.bytes[48] << 8 | m.bytes[49];
      EXPECT_EQ(stamp, static_cast<uint32_t>((1'700'000'000'000'000'000 + m.time + 1'000) / 100));  // p3's clock
    }
  }
  EXPECT_GT(seq[1], 3u);
}

TEST(SimulationMultipoint, ASpanDuplicateOfAnErspanPointIsAnotherCopy) {
  auto f = run(kErspan + "mirror p2 dup=50ns\nsend q a 100\n");
  std::vector<uint32_t> seqs;
  for (const Seen& s : f)
    if (s.point == 1) seqs.push_back(uint32_t{s.bytes[40]} << 8 | s.bytes[41]);
  EXPECT_EQ(seqs, (std::vector<uint32_t>{0, 1, 2, 3}));  // request, its copy, ACK, its copy
}

TEST(SimulationMultipoint, TheCollectorsSnaplenCutsTheCopy) {
  auto f = run(kErspan + "snaplen 100 point=col\nwrite q a 2K\n");
  for (const Seen& s : f) {
    if (s.point == 0) EXPECT_EQ(s.bytes.size(), std::min<size_t>(s.wire_len, 65535));
    else EXPECT_EQ(s.bytes.size(), std::min<uint32_t>(s.wire_len, 100));
  }
}

}  // namespace
}  // namespace roceshark::gen
