// SPDX-License-Identifier: GPL-2.0-or-later
#include "captures/gen/cm_mad.h"

#include <gtest/gtest.h>

namespace roceshark::gen::cm {
namespace {

uint32_t be(const Mad& m, size_t off, size_t n) {
  uint32_t v = 0;
  for (size_t i = 0; i < n; ++i) v = v << 8 | m[off + i];
  return v;
}

// Offsets are those of packet-infiniband.c parse_CM_Req / parse_CM_Rsp,
// counted from the start of the MAD (24-byte common header first).
TEST(CmMad, ReqLayout) {
  Req r;
  r.local_comm_id = 0x10000001;
  r.service_id = 0x0000000001064853;
  r.local_qpn = 0x000321;
  r.start_psn = 0xABCDEF;
  r.path_mtu_code = mtu_code(1024);
  Mad m = build_req(0x1122334455667788, r);
  EXPECT_EQ(m[0], 1);
  EXPECT_EQ(m[1], kMgmtClassCm);
  EXPECT_EQ(m[2], 2);
  EXPECT_EQ(be(m, 8, 4), 0x11223344u);  // transaction ID
  EXPECT_EQ(be(m, 16, 2), kAttrReq);
  EXPECT_EQ(be(m, 24, 4), 0x10000001u);  // local comm ID
  EXPECT_EQ(be(m, 32, 4), 0x00000000u);  // service ID, high word
  EXPECT_EQ(be(m, 36, 4), 0x01064853u);
  EXPECT_EQ(be(m, 24 + 32, 3), 0x000321u);  // local QPN
  EXPECT_EQ(be(m, 24 + 44, 3), 0xABCDEFu);  // starting PSN
  EXPECT_EQ(m[24 + 50] >> 4, 3);            // path MTU 1024
}

TEST(CmMad, RepAndRtuLayout) {
  Mad m = build_rep(7, {0x20000001, 0x10000001, 0x000654, 0x123456, 0});
  EXPECT_EQ(be(m, 16, 2), kAttrRep);
  EXPECT_EQ(be(m, 24, 4), 0x20000001u);      // local comm ID
  EXPECT_EQ(be(m, 28, 4), 0x10000001u);      // remote comm ID
  EXPECT_EQ(be(m, 24 + 12, 3), 0x000654u);   // local QPN
  EXPECT_EQ(be(m, 24 + 20, 3), 0x123456u);   // starting PSN
  Mad t = build_rtu(7, {0x10000001, 0x20000001});
  EXPECT_EQ(be(t, 16, 2), kAttrRtu);
  EXPECT_EQ(be(t, 28, 4), 0x20000001u);
  EXPECT_EQ(t.size(), 256u);
}

TEST(CmMad, MtuCodes) {
  EXPECT_EQ(mtu_code(256), 1);
  EXPECT_EQ(mtu_code(4096), 5);
  EXPECT_EQ(mtu_code(1500), 0);
}

}  // namespace
}  // namespace roceshark::gen::cm
