// SPDX-License-Identifier: GPL-2.0-or-later
// The compact per-frame store gives back every verdict exactly, and keeps
// the common ones compact.
#include "epan-ext/analysis/verdict_store.h"

#include <gtest/gtest.h>

#include <random>
#include <vector>

namespace roceshark {
namespace {

Verdict in_order_request(uint32_t frame, uint32_t psn) {
  Verdict v;
  v.frame = frame, v.flow = 3, v.row_flow = 3, v.stream = 1, v.point = 0x10002;
  v.role = Role::request, v.seq = SeqClass::in_order, v.has_expected = true, v.expected_psn = psn;
  v.pkt.psn = psn, v.pkt.payload_len = 4096, v.pkt.opcode = 0x0a, v.pkt.dscp = 26, v.pkt.ecn = 2, v.pkt.pcp = 3;
  v.pkt.vlan_id = 100, v.pkt.ttl = 64, v.pkt.icrc = IcrcState::not_captured, v.pkt.ack_req = psn % 8 == 0;
  v.qos.priority = 3, v.pfc.priority = 3;
  return v;
}

TEST(VerdictStore, CommonVerdictsStayCompact) {
  VerdictStore s;
  std::vector<Verdict> kept;
  for (uint32_t i = 1; i <= 100; ++i) kept.push_back(in_order_request(2 * i, 0xFFFF00 + i));  // PSNs wrap at 2^24
  Verdict ack;
  ack.frame = 201, ack.flow = 4, ack.row_flow = 3, ack.stream = 1, ack.role = Role::response, ack.pkt.has_aeth = true;
  ack.pkt.pcp = -1, ack.pkt.opcode = 0x11, ack.pkt.syndrome = 0x1f, ack.first_unchecked = true, ack.pair_ambiguous = true;
  kept.push_back(ack);
  for (const Verdict& v : kept) s.push(v);
  EXPECT_EQ(s.whole_count(), 0u);
  for (const Verdict& v : kept) EXPECT_EQ(s.find(v.frame), v) << v.frame;
  EXPECT_FALSE(s.find(3));  // between two kept frames
  EXPECT_FALSE(s.find(0));
  EXPECT_FALSE(s.find(202));
  EXPECT_EQ(s.last_frame(), 201u);
}

TEST(VerdictStore, RareFieldsAndWideValuesAreKeptWhole) {
  std::vector<Verdict> odd;
  const auto with = [&](auto change) {
    Verdict v = in_order_request(static_cast<uint32_t>(odd.size() + 1), 7);
    change(v);
    odd.push_back(v);
  };
  with([](Verdict& v) { v.seq = SeqClass::gap, v.gap = 2, v.expected_psn = 5; });
  with([](Verdict& v) { v.seq = SeqClass::gbn_resend, v.original_frame = 1, v.nak_frame = 2; });
  with([](Verdict& v) { v.request_frame = 1, v.covered = 2, v.rtt_ns = 4000, v.rtt_first = 9; });
  with([](Verdict& v) { v.quiet_ns = 1; });
  with([](Verdict& v) { v.pfc.held = true, v.pfc.pause_frame = 1, v.pfc.stall_ns = 300; });
  with([](Verdict& v) { v.pfc.wrong_class_pfc = 0x10; });
  with([](Verdict& v) { v.pkt.payload_len = 70'000; });
  with([](Verdict& v) { v.pkt.psn = 1u << 24; });
  with([](Verdict& v) { v.pkt.dscp = 64; });
  with([](Verdict& v) { v.qos.priority = 8; });
  with([](Verdict& v) { v.has_expected = false, v.expected_psn = 7; });
  VerdictStore s;
  for (const Verdict& v : odd) s.push(v);
  EXPECT_EQ(s.whole_count(), odd.size());
  for (const Verdict& v : odd) EXPECT_EQ(s.find(v.frame), v) << v.frame;
}

// Any verdict at all comes back as it went in, whichever way it was kept.
TEST(VerdictStore, RandomVerdictsRoundTrip) {
  std::mt19937 rng(7);
  const auto r32 = [&] { return static_cast<uint32_t>(rng()); };
  const auto pick = [&](uint32_t n) { return r32() % n; };
  VerdictStore s;
  std::vector<Verdict> kept;
  for (uint32_t frame = 1; frame <= 20'000; frame += 1 + pick(3)) {
    Verdict v = in_order_request(frame, pick(1u << 24));
    v.role = static_cast<Role>(pick(5)), v.seq = static_cast<SeqClass>(pick(11)), v.nak = static_cast<NakCode>(pick(8));
    v.flow = r32(), v.row_flow = pick(2) ? v.flow : r32(), v.stream = r32(), v.point = r32();
    v.has_hop = pick(2), v.ambiguous = pick(2), v.run_start = pick(2), v.clock_back = pick(2);
    v.pkt.syndrome = static_cast<uint8_t>(rng()), v.pkt.ttl = static_cast<uint8_t>(rng());
    v.pkt.pcp = static_cast<int8_t>(pick(9)) - 1, v.pkt.vlan_id = static_cast<uint16_t>(pick(4096));
    v.qos.failed = static_cast<uint8_t>(rng()), v.qos.first = static_cast<uint8_t>(rng()), v.qos.learning = pick(2);
    if (pick(10) == 0) v.gap = pick(100);
    if (pick(10) == 0) v.pkt.payload_len = r32();
    if (pick(10) == 0) v.expected_psn = r32();
    kept.push_back(v);
    s.push(v);
  }
  EXPECT_GT(s.whole_count(), 0u);
  EXPECT_LT(s.whole_count(), kept.size() / 2);
  for (const Verdict& v : kept) ASSERT_EQ(s.find(v.frame), v) << v.frame;
  for (auto it = kept.rbegin(); it != kept.rend(); ++it) ASSERT_EQ(s.find(it->frame), *it) << it->frame;
}

// A copy's hop verdict: compact unless a rare field is set or a time is
// too long for 32 bits; either way it comes back exactly.
TEST(HopStore, HopVerdictsRoundTrip) {
  std::mt19937 rng(11);
  const auto r32 = [&] { return static_cast<uint32_t>(rng()); };
  HopStore s;
  std::vector<hop::HopVerdict> kept;
  for (uint32_t frame = 1; frame <= 20'000; frame += 1 + r32() % 3) {
    hop::HopVerdict h;
    h.frame = frame, h.prev_point = r32(), h.prev_frame = frame - 1, h.first_point = r32();
    h.latency_ns = 2'000 + r32() % 50'000, h.queue_ns = r32() % 40'000, h.e2e_ns = h.latency_ns;
    h.ttl_delta = -1, h.prev_dscp = 26, h.prev_ecn = static_cast<uint8_t>(r32() % 4);
    h.prev_pcp = static_cast<int8_t>(r32() % 9) - 1, h.vlan = h.prev_vlan = 100, h.prev_len = 1086;
    h.overtaken = r32() % 2, h.ce_set = r32() % 2, h.be_starved_first = r32() % 2;
    switch (r32() % 16) {
      case 0: h.latency_ns = -5'000'000'000; break;  // clocks seconds apart
      case 1: h.queue_ns = 5'000'000'000; break;
      case 2: h.cnp_wait_ns = 12'000; break;
      case 3: h.be_share_pct = 60, h.be_fill_pct = 95, h.be_wait_ns = 30'000; break;
      case 4: h.ttl_delta = 300; break;
      default: break;
    }
    kept.push_back(h);
    s.push(h);
  }
  EXPECT_GT(s.whole_count(), kept.size() / 5);
  EXPECT_LT(s.whole_count(), kept.size() / 2);
  for (const hop::HopVerdict& h : kept) ASSERT_EQ(s.find(h.frame), h) << h.frame;
  EXPECT_FALSE(s.find(kept.back().frame + 1));
}

}  // namespace
}  // namespace roceshark
