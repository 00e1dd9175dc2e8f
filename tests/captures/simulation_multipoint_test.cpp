// SPDX-License-Identifier: GPL-2.0-or-later
// What the simulation hands over for matching packets across points:
// packet ids, lost_after, queue bursts, ERSPAN copies.
#include <gtest/gtest.h>

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
