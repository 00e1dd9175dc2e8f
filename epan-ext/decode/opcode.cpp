// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/decode/opcode.h"

#include <array>

namespace roceshark {
namespace {

// Low five bits of the opcode, shared by RC, UC, RD and XRC (IBA table 38).
enum Op : uint8_t {
  kSendFirst = 0, kSendMiddle, kSendLast, kSendLastImm, kSendOnly, kSendOnlyImm,
  kWriteFirst, kWriteMiddle, kWriteLast, kWriteLastImm, kWriteOnly, kWriteOnlyImm,
  kReadRequest, kReadRespFirst, kReadRespMiddle, kReadRespLast, kReadRespOnly,
  kAck, kAtomicAck, kCmpSwap, kFetchAdd, kResv21, kSendLastInv, kSendOnlyInv,
};

// Header sizes in bytes (IBA vol. 1 ch. 9.2-9.3).
constexpr uint8_t kBth = 12, kReth = 16, kAeth = 4, kImm = 4, kIeth = 4, kAtomicEth = 28, kAtomicAckEth = 8,
                  kDeth = 8, kXrceth = 4, kCnpReserved = 16, kIcrc = 4;

constexpr uint8_t extended_header_bytes(uint8_t op) {
  switch (op) {
    case kSendLastImm: case kSendOnlyImm: case kWriteLastImm: return kImm;
    case kSendLastInv: case kSendOnlyInv: return kIeth;
    case kWriteFirst: case kWriteOnly: case kReadRequest: return kReth;
    case kWriteOnlyImm: return kReth + kImm;
    case kReadRespFirst: case kReadRespLast: case kReadRespOnly: case kAck: return kAeth;
    case kAtomicAck: return kAeth + kAtomicAckEth;
    case kCmpSwap: case kFetchAdd: return kAtomicEth;
    default: return 0;
  }
}

constexpr Transport transport_of(uint8_t opcode) {
  switch (opcode >> 5) {
    case 0: return Transport::rc;
    case 1: return Transport::uc;
    case 2: return Transport::rd;
    case 3: return Transport::ud;
    case 4: return opcode == kOpcodeCnp ? Transport::cnp : Transport::other;
    case 5: return Transport::xrc;
    default: return Transport::other;
  }
}

constexpr OpcodeInfo compute_info(uint8_t opcode) {
  OpcodeInfo info{transport_of(opcode), Role::other, false, false, false, false, false, false, false, kBth};
  const uint8_t op = opcode & 0x1F;
  switch (info.transport) {
    case Transport::cnp:
      info.role = Role::cnp;
      info.header_bytes = kBth + kCnpReserved;
      return info;
    case Transport::ud:
      info.role = (op == kSendOnly || op == kSendOnlyImm) ? Role::datagram : Role::other;
      info.header_bytes = static_cast<uint8_t>(kBth + kDeth + (op == kSendOnlyImm ? kImm : 0));
      return info;
    case Transport::other:
    case Transport::rd:  // RD is unused on RoCE; left to Wireshark's own decode
      return info;
    case Transport::uc:
      if (op > kWriteOnlyImm) return info;  // UC has SEND and WRITE only
      break;
    case Transport::rc:
    case Transport::xrc:
      break;
  }
  if (op == kResv21 || op > kSendOnlyInv) return info;
  info.role = (op >= kReadRespFirst && op <= kAtomicAck) ? Role::response : Role::request;
  info.has_aeth = op == kReadRespFirst || op == kReadRespLast || op == kReadRespOnly || op == kAck || op == kAtomicAck;
  info.is_read_request = op == kReadRequest;
  info.is_atomic_request = op == kCmpSwap || op == kFetchAdd;
  info.is_read_response = op >= kReadRespFirst && op <= kReadRespOnly;
  info.starts_message = op == kSendFirst || op == kSendOnly || op == kSendOnlyImm || op == kWriteFirst ||
                        op == kWriteOnly || op == kWriteOnlyImm || op == kReadRequest || op == kReadRespFirst ||
                        op == kReadRespOnly || op == kCmpSwap || op == kFetchAdd || op == kSendOnlyInv;
  info.ends_message = op != kSendFirst && op != kSendMiddle && op != kWriteFirst && op != kWriteMiddle &&
                      op != kReadRespFirst && op != kReadRespMiddle;
  info.is_middle_or_first = op == kSendFirst || op == kSendMiddle || op == kWriteFirst || op == kWriteMiddle ||
                            op == kReadRespFirst || op == kReadRespMiddle;
  info.header_bytes = static_cast<uint8_t>(kBth + extended_header_bytes(op) +
                                           (info.transport == Transport::xrc && info.role == Role::request ? kXrceth : 0));
  return info;
}

// Every packet asks several times: answer from a table built at compile time.
constexpr std::array<OpcodeInfo, 256> kInfo = [] {
  std::array<OpcodeInfo, 256> t{};
  for (unsigned op = 0; op < 256; ++op) t[op] = compute_info(static_cast<uint8_t>(op));
  return t;
}();

}  // namespace

OpcodeInfo classify_opcode(uint8_t opcode) { return kInfo[opcode]; }

uint32_t payload_length(uint8_t opcode, uint32_t transport_len, uint8_t pad_count) {
  const uint32_t overhead = classify_opcode(opcode).header_bytes + uint32_t{pad_count} + kIcrc;
  return transport_len > overhead ? transport_len - overhead : 0;
}

}  // namespace roceshark
