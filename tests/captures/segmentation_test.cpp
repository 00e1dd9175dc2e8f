// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/segmentation.h"

#include <gtest/gtest.h>

#include "captures/gen/opcodes.h"

namespace roceshark::gen {
namespace {

TEST(Segmentation, PacketCount) {
  EXPECT_EQ(packet_count(0, 1024), 1u);  // zero-length SEND ONLY
  EXPECT_EQ(packet_count(1, 1024), 1u);
  EXPECT_EQ(packet_count(1024, 1024), 1u);
  EXPECT_EQ(packet_count(1025, 1024), 2u);
  EXPECT_EQ(packet_count(4096, 1024), 4u);
  EXPECT_EQ(packet_count(64 * 1024, 4096), 16u);
}

TEST(Segmentation, PadMakesMultipleOfFour) {
  for (uint64_t n = 0; n < 12; ++n) {
    EXPECT_EQ((n + pad_count(n)) % 4, 0u) << n;
    EXPECT_LT(pad_count(n), 4);
  }
  EXPECT_EQ(pad_count(7), 1);
  EXPECT_EQ(pad_count(1024), 0);
}

TEST(Segmentation, SendFirstMiddleLast) {
  // 2500 bytes at MTU 1024: 1024 + 1024 + 452.
  Segment a = request_segment(MsgType::send, false, 2500, 1024, 0);
  Segment b = request_segment(MsgType::send, false, 2500, 1024, 1);
  Segment c = request_segment(MsgType::send, false, 2500, 1024, 2);
  EXPECT_EQ(a.opcode, op::kSendFirst);
  EXPECT_EQ(b.opcode, op::kSendMiddle);
  EXPECT_EQ(c.opcode, op::kSendLast);
  EXPECT_EQ(a.payload, 1024u);
  EXPECT_EQ(c.payload, 452u);
  EXPECT_TRUE(a.first && !a.last && c.last && !c.first);
  EXPECT_FALSE(a.reth || c.reth || c.imm);
}

TEST(Segmentation, OddTailGetsPad) {
  Segment s = request_segment(MsgType::send, false, 1027, 1024, 1);
  EXPECT_EQ(s.payload, 3u);
  EXPECT_EQ(s.pad, 1);
}

TEST(Segmentation, WriteRethOnFirstAndOnlyImmOnLast) {
  Segment f = request_segment(MsgType::write, true, 3000, 1024, 0);
  Segment l = request_segment(MsgType::write, true, 3000, 1024, 2);
  Segment o = request_segment(MsgType::write, true, 100, 1024, 0);
  EXPECT_EQ(f.opcode, op::kWriteFirst);
  EXPECT_TRUE(f.reth);
  EXPECT_FALSE(f.imm);
  EXPECT_EQ(l.opcode, op::kWriteLastImm);
  EXPECT_TRUE(l.imm);
  EXPECT_FALSE(l.reth);
  EXPECT_EQ(o.opcode, op::kWriteOnlyImm);
  EXPECT_TRUE(o.reth && o.imm);
}

TEST(Segmentation, ZeroLengthSendOnly) {
  Segment s = request_segment(MsgType::send, false, 0, 1024, 0);
  EXPECT_EQ(s.opcode, op::kSendOnly);
  EXPECT_EQ(s.payload, 0u);
  EXPECT_EQ(s.pad, 0);
  EXPECT_TRUE(s.first && s.last);
  EXPECT_EQ(request_segment(MsgType::send, true, 0, 1024, 0).opcode, op::kSendOnlyImm);
}

TEST(Segmentation, ExactMultipleOfMtuEndsWithFullLast) {
  Segment l = request_segment(MsgType::write, false, 4096, 1024, 3);
  EXPECT_EQ(l.opcode, op::kWriteLast);
  EXPECT_EQ(l.payload, 1024u);
}

TEST(Segmentation, ReadIsOneRequestManyResponses) {
  Segment r = request_segment(MsgType::read, false, 6000, 1024, 0);
  EXPECT_EQ(r.opcode, op::kReadRequest);
  EXPECT_EQ(r.payload, 0u);
  EXPECT_TRUE(r.reth);
  EXPECT_EQ(request_packets(MsgType::read, 6000, 1024), 1u);
  EXPECT_EQ(psn_span(MsgType::read, 6000, 1024), 6u);  // the responses' PSNs
  EXPECT_EQ(read_response_segment(6000, 1024, 0).opcode, op::kReadRespFirst);
  EXPECT_EQ(read_response_segment(6000, 1024, 3).opcode, op::kReadRespMiddle);
  Segment last = read_response_segment(6000, 1024, 5);
  EXPECT_EQ(last.opcode, op::kReadRespLast);
  EXPECT_EQ(last.payload, 880u);
  EXPECT_TRUE(last.aeth);
  EXPECT_FALSE(read_response_segment(6000, 1024, 3).aeth);  // MIDDLE has no AETH
  Segment only = read_response_segment(0, 1024, 0);
  EXPECT_EQ(only.opcode, op::kReadRespOnly);
  EXPECT_TRUE(only.aeth);
}

TEST(Segmentation, MessageBoundaries) {
  EXPECT_TRUE(op::starts_message(op::kSendOnly) && op::ends_message(op::kSendOnly));
  EXPECT_TRUE(op::starts_message(op::kWriteFirst) && !op::ends_message(op::kWriteFirst));
  EXPECT_TRUE(!op::starts_message(op::kSendMiddle) && !op::ends_message(op::kSendMiddle));
  EXPECT_TRUE(op::ends_message(op::kReadRequest));
}

}  // namespace
}  // namespace roceshark::gen
