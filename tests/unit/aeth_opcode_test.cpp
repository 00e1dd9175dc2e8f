// SPDX-License-Identifier: GPL-2.0-or-later
#include <gtest/gtest.h>

#include "epan-ext/decode/aeth.h"
#include "epan-ext/decode/opcode.h"

namespace roceshark {
namespace {

TEST(Aeth, AckWithCredits) {
  const Syndrome s = decode_syndrome(0x1F);
  EXPECT_EQ(s.kind, AckKind::ack);
  EXPECT_EQ(s.nak, NakCode::none);
  EXPECT_EQ(s.value, 0x1F);
}

TEST(Aeth, NakCodes) {
  EXPECT_EQ(decode_syndrome(0x60).nak, NakCode::psn_sequence_error);
  EXPECT_EQ(decode_syndrome(0x61).nak, NakCode::invalid_request);
  EXPECT_EQ(decode_syndrome(0x62).nak, NakCode::remote_access_error);
  EXPECT_EQ(decode_syndrome(0x63).nak, NakCode::remote_operational_error);
  EXPECT_EQ(decode_syndrome(0x64).nak, NakCode::invalid_rd_request);
  EXPECT_EQ(decode_syndrome(0x65).nak, NakCode::reserved);
  EXPECT_EQ(decode_syndrome(0x40).kind, AckKind::reserved);
}

TEST(Aeth, RnrNakAndTimerTable) {
  const Syndrome s = decode_syndrome(0x20 | 14);
  EXPECT_EQ(s.kind, AckKind::rnr_nak);
  EXPECT_EQ(s.nak, NakCode::rnr);
  EXPECT_EQ(rnr_timer_us(s.value), 1280u);
  EXPECT_EQ(rnr_timer_us(0), 655360u);  // code 0 is the longest, not zero
  EXPECT_EQ(rnr_timer_us(1), 10u);
  EXPECT_EQ(rnr_timer_us(31), 491520u);
}

TEST(Opcode, Roles) {
  EXPECT_EQ(classify_opcode(0x0A).role, Role::request);  // RC WRITE ONLY
  EXPECT_EQ(classify_opcode(0x0C).role, Role::request);  // READ REQUEST
  EXPECT_EQ(classify_opcode(0x10).role, Role::response); // READ RESPONSE ONLY
  EXPECT_EQ(classify_opcode(0x11).role, Role::response); // ACK
  EXPECT_EQ(classify_opcode(0x81).role, Role::cnp);
  EXPECT_EQ(classify_opcode(0x64).role, Role::datagram); // UD SEND ONLY
  EXPECT_EQ(classify_opcode(0x2C).role, Role::other);    // UC has no READ
  EXPECT_EQ(classify_opcode(0x15).role, Role::other);    // reserved
  EXPECT_EQ(classify_opcode(0xFF).role, Role::other);
}

TEST(Opcode, AtomicRequests) {
  EXPECT_TRUE(classify_opcode(0x13).is_atomic_request);    // RC COMPARE SWAP
  EXPECT_TRUE(classify_opcode(0xB4).is_atomic_request);    // XRC FETCH ADD
  EXPECT_FALSE(classify_opcode(0x12).is_atomic_request);   // ATOMIC ACKNOWLEDGE: the answer
  EXPECT_FALSE(classify_opcode(0x33).is_atomic_request);   // UC has no ATOMIC
  EXPECT_FALSE(classify_opcode(0x0C).is_atomic_request);   // READ REQUEST
}

TEST(Opcode, MessageBoundaries) {
  EXPECT_TRUE(classify_opcode(0x06).starts_message);
  EXPECT_FALSE(classify_opcode(0x06).ends_message);
  EXPECT_TRUE(classify_opcode(0x08).ends_message);
  EXPECT_TRUE(classify_opcode(0x07).is_middle_or_first);
  EXPECT_FALSE(classify_opcode(0x08).is_middle_or_first);
  EXPECT_FALSE(classify_opcode(0x0E).has_aeth);  // READ RESPONSE MIDDLE
  EXPECT_TRUE(classify_opcode(0x0F).has_aeth);
}

TEST(Opcode, PayloadLength) {
  // WRITE ONLY: BTH 12 + RETH 16 + payload + pad + ICRC 4.
  EXPECT_EQ(payload_length(0x0A, 12 + 16 + 64 + 4, 0), 64u);
  EXPECT_EQ(payload_length(0x04, 12 + 4 + 3 + 1, 1), 3u);  // SEND ONLY, 3 bytes + 1 pad
  EXPECT_EQ(payload_length(0x04, 12 + 4, 0), 0u);          // zero-length SEND
  EXPECT_EQ(payload_length(0x11, 12 + 4 + 4, 0), 0u);      // ACK
  EXPECT_EQ(payload_length(0x81, 12 + 16 + 4, 0), 0u);     // CNP
  EXPECT_EQ(payload_length(0x0A, 8, 0), 0u);               // headers alone don't fit
}

}  // namespace
}  // namespace roceshark
