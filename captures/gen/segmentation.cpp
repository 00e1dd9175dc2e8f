// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/segmentation.h"

#include <algorithm>

#include "captures/gen/opcodes.h"

namespace roceshark::gen {

uint32_t packet_count(uint64_t length, uint32_t mtu) {
  if (length == 0) return 1;
  return static_cast<uint32_t>((length + mtu - 1) / mtu);
}

namespace {

uint32_t payload_of(uint64_t length, uint32_t mtu, uint32_t index) {
  uint64_t done = uint64_t{index} * mtu;
  return static_cast<uint32_t>(std::min<uint64_t>(mtu, length - std::min(length, done)));
}

// Opcode tables indexed by position: first, middle, last, only.
struct Family {
  uint8_t first, middle, last, last_imm, only, only_imm;
};
constexpr Family kSend{op::kSendFirst, op::kSendMiddle, op::kSendLast, op::kSendLastImm, op::kSendOnly, op::kSendOnlyImm};
constexpr Family kWrite{op::kWriteFirst, op::kWriteMiddle, op::kWriteLast, op::kWriteLastImm, op::kWriteOnly, op::kWriteOnlyImm};

}  // namespace

Segment request_segment(MsgType type, bool imm, uint64_t length, uint32_t mtu, uint32_t index) {
  Segment s;
  s.index = index;
  if (type == MsgType::read) {
    s.opcode = op::kReadRequest;
    s.first = s.last = s.reth = true;
    return s;
  }
  if (is_atomic(type)) {
    s.opcode = type == MsgType::fetch_add ? op::kFetchAdd : op::kCmpSwap;
    s.first = s.last = s.atomic_eth = true;
    return s;
  }
  const uint32_t n = packet_count(length, mtu);
  const Family& f = type == MsgType::send ? kSend : kWrite;
  s.first = index == 0;
  s.last = index + 1 == n;
  s.payload = payload_of(length, mtu, index);
  s.pad = pad_count(s.payload);
  s.imm = imm && s.last;
  s.reth = type == MsgType::write && s.first;
  if (s.first && s.last) s.opcode = imm ? f.only_imm : f.only;
  else if (s.first) s.opcode = f.first;
  else if (s.last) s.opcode = imm ? f.last_imm : f.last;
  else s.opcode = f.middle;
  return s;
}

Segment read_response_segment(uint64_t length, uint32_t mtu, uint32_t index) {
  Segment s;
  s.index = index;
  const uint32_t n = packet_count(length, mtu);
  s.first = index == 0;
  s.last = index + 1 == n;
  s.payload = payload_of(length, mtu, index);
  s.pad = pad_count(s.payload);
  s.aeth = s.first || s.last;  // MIDDLE carries no AETH
  if (s.first && s.last) s.opcode = op::kReadRespOnly;
  else if (s.first) s.opcode = op::kReadRespFirst;
  else if (s.last) s.opcode = op::kReadRespLast;
  else s.opcode = op::kReadRespMiddle;
  return s;
}

// A READ REQUEST stands for its responses; an ATOMIC has one response.
uint32_t psn_span(MsgType type, uint64_t length, uint32_t mtu) {
  return is_atomic(type) ? 1 : packet_count(length, mtu);
}

uint32_t request_packets(MsgType type, uint64_t length, uint32_t mtu) {
  return type == MsgType::read || is_atomic(type) ? 1 : packet_count(length, mtu);
}

}  // namespace roceshark::gen
