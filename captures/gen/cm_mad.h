// SPDX-License-Identifier: GPL-2.0-or-later
// Communication Management MADs (IBA vol. 1 ch. 12) for an RC connection:
// REQ, REP and RTU. Each is a 256-byte MAD sent as a UD SEND ONLY to QP1.
//
//   MAD header (24): base ver 1 | class 0x07 | class ver 2 | method 0x03 (Send)
//                    | status | class specific | transaction ID (8)
//                    | attribute ID | reserved | attribute modifier
//   then 232 bytes of attribute data, laid out as in 12.6.5 / 12.6.8 / 12.6.9.
#pragma once
#include <array>
#include <cstdint>

#include "captures/gen/addresses.h"

namespace roceshark::gen::cm {

inline constexpr uint8_t kMgmtClassCm = 0x07;
inline constexpr uint16_t kAttrReq = 0x0010;
inline constexpr uint16_t kAttrRep = 0x0013;
inline constexpr uint16_t kAttrRtu = 0x0014;
inline constexpr uint32_t kQp1Qkey = 0x80010000;  // the well-known GSI Q_Key
inline constexpr size_t kMadSize = 256;

using Mad = std::array<uint8_t, kMadSize>;

struct Req {
  uint32_t local_comm_id = 0;
  uint64_t service_id = 0;
  uint64_t local_ca_guid = 0;
  uint32_t local_qpn = 0;
  uint32_t start_psn = 0;
  uint16_t pkey = 0xFFFF;
  uint8_t path_mtu_code = 3;  // 1=256 ... 5=4096
  Ipv6 local_gid{}, remote_gid{};
  uint8_t traffic_class = 0;
  uint8_t hop_limit = 64;
  // rdma_cm's IP CM private data (RDMA IP CM Service annex), used when the
  // service ID is in the 0x0000000001xxxxxx IP CM range.
  bool ip_cm = false;
  bool ip_cm_v6 = false;
  uint16_t ip_cm_sport = 0;
  Ipv6 ip_cm_src{}, ip_cm_dst{};  // an IPv4 address sits in the last 4 bytes
};

inline constexpr uint64_t kIpCmServicePrefix = 0x0000000001000000;
inline constexpr uint64_t kIpCmServiceMask = 0xFFFFFFFFFF000000;

struct Rep {
  uint32_t local_comm_id = 0;
  uint32_t remote_comm_id = 0;
  uint32_t local_qpn = 0;
  uint32_t start_psn = 0;
  uint64_t local_ca_guid = 0;
};

struct Rtu {
  uint32_t local_comm_id = 0;
  uint32_t remote_comm_id = 0;
};

Mad build_req(uint64_t transaction_id, const Req& r);
Mad build_rep(uint64_t transaction_id, const Rep& r);
Mad build_rtu(uint64_t transaction_id, const Rtu& r);

// IBA path MTU code for a byte count (256 -> 1 ... 4096 -> 5), 0 if none.
uint8_t mtu_code(uint32_t mtu);

}  // namespace roceshark::gen::cm
