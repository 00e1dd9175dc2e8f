// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/decode/ib_headers.h"

#include "epan-ext/decode/byte_reader.h"
#include "epan-ext/decode/opcode.h"

namespace roceshark::decode {
namespace {

constexpr size_t kXrceth = 4, kAeth = 4, kReth = 16, kAtomicEth = 28, kDeth = 8, kMadHeader = 24;
constexpr uint8_t kUdSendOnly = 0x64;
constexpr uint32_t kGsiQp = 1;
constexpr uint8_t kMgmtClassCm = 0x07;
constexpr uint16_t kAttrReq = 0x0010, kAttrRep = 0x0013;

bool has_reth(uint8_t opcode) {
  switch (opcode & 0x1F) {
    case 0x06: case 0x0A: case 0x0B: case 0x0C: return true;  // WRITE First, Only, Only with Immediate; READ Request
    default: return false;
  }
}

// IBA's MTU code (9.7.7.2 / 12.6.5): 1 = 256 ... 5 = 4096; the others are
// reserved.
uint32_t mtu_bytes(uint8_t code) { return code >= 1 && code <= 5 ? 128u << code : 0; }

// CM REQ and REP (IBA 12.6.5, 12.6.8): offsets in the MAD's data, after its
// 24-byte header. Filled only when every field read was captured.
void read_cm(std::span<const uint8_t> mad, CmMessage& cm) {
  if (mad.size() < kMadHeader || mad[1] != kMgmtClassCm) return;
  const uint16_t attr = be16(&mad[16]);
  const auto data = mad.subspan(kMadHeader);
  if (attr == kAttrReq && data.size() >= 47) {
    cm.kind = CmMessage::Kind::req;
    cm.local_comm_id = be32(&data[0]);
    cm.local_qpn = be24(&data[32]);
    cm.start_psn = be24(&data[44]);
    if (data.size() > 50) cm.path_mtu = mtu_bytes(data[50] >> 4);  // after the P_Key, the high 4 bits
  } else if (attr == kAttrRep && data.size() >= 23) {
    cm.kind = CmMessage::Kind::rep;
    cm.local_comm_id = be32(&data[0]);
    cm.remote_comm_id = be32(&data[4]);
    cm.local_qpn = be24(&data[12]);
    cm.start_psn = be24(&data[20]);
  }
}

}  // namespace

bool read_transport(std::span<const uint8_t> frame, size_t bth, PacketInfo& out) {
  if (bth + kBthLen > frame.size()) return false;
  const uint8_t* b = &frame[bth];
  out.opcode = b[0];
  out.fecn = b[4] & 0x80;  // Wireshark 4.0 shows byte 4 only as "reserved": FECN bit 7, BECN bit 6
  out.becn = b[4] & 0x40;
  out.dest_qp = be24(b + 5);
  out.ack_req = b[8] & 0x80;
  out.psn = be24(b + 9);

  const OpcodeInfo op = classify_opcode(out.opcode);
  const bool xrc_request = op.transport == Transport::xrc && op.role == Role::request;
  const size_t ext = bth + kBthLen + (xrc_request ? kXrceth : 0);
  const auto have = [&](size_t len) { return ext + len <= frame.size(); };
  if (op.has_aeth) {
    if (!have(kAeth)) return false;
    out.has_aeth = true;
    out.syndrome = frame[ext];
    out.msn = be24(&frame[ext + 1]);
  } else if (has_reth(out.opcode) && op.role == Role::request) {
    if (have(kReth)) out.has_reth = true, out.dma_len = be32(&frame[ext + 12]);
  } else if (op.is_atomic_request) {
    if (have(kAtomicEth)) {
      out.has_atomic_eth = true;
      out.atomic_va = be64(&frame[ext]);
      out.atomic_rkey = be32(&frame[ext + 8]);
      out.atomic_swap_add = be64(&frame[ext + 12]);
      out.atomic_compare = be64(&frame[ext + 20]);
    }
  } else if (out.opcode == kUdSendOnly && out.dest_qp == kGsiQp && have(kDeth)) {
    read_cm(frame.subspan(ext + kDeth), out.cm);  // CM MADs travel on UD to QP1
  }
  return true;
}

}  // namespace roceshark::decode
