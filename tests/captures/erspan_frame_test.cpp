// SPDX-License-Identifier: GPL-2.0-or-later
// ERSPAN copies byte by byte, written out by hand from
// draft-foschiano-erspan-03 and checked against Wireshark 4.0's decode
// (erspan.version, erspan.spanid, erspan.encap, erspan.timestamp, ...).
#include "captures/gen/erspan_frame.h"

#include <gtest/gtest.h>

#include "tests/captures/test_util.h"

#include <string>
#include <vector>

namespace roceshark::gen {
namespace {

using test::hex;

const std::vector<uint8_t> kInner{0xaa, 0xbb, 0xcc, 0xdd};

ErspanFields session100() {
  ErspanFields f;
  f.type = 2;
  f.session = 100;
  f.src_mac = erspan_source_mac(100);
  f.dst_mac = kErspanCollectorMac;
  f.src = *parse_ipv4("192.0.2.11");
  f.dst = *parse_ipv4("192.0.2.100");
  f.seq = 6;
  return f;
}

TEST(ErspanFrame, TypeIIByteLayout) {
  std::vector<uint8_t> out;
  build_erspan(session100(), kInner, out);
  ASSERT_EQ(out.size(), erspan_overhead(2) + kInner.size());
  EXPECT_EQ(erspan_overhead(2), 50u);
  EXPECT_EQ(hex(out),
            "024552c00001" "024552000064" "0800"                   // collector <- mirror source
            "4500" "0028" "0006" "4000" "402f" "b631" "c000020b" "c0000264"  // IPv4: length 40, ID = seq, GRE
            "1000" "88be" "00000006"                               // GRE: S bit, ERSPAN II, sequence 6
            "1000" "0064" "00000000"                               // ver 1, VLAN 0 | COS 0, En 0, T 0, session 100 | index 0
            "aabbccdd");                                           // the mirrored frame, as it was
}

TEST(ErspanFrame, TypeIIKeepsTheTagOfATaggedFrame) {
  ErspanFields f = session100();
  f.tagged = true;
  f.vlan = 20;
  f.cos = 3;
  std::vector<uint8_t> out;
  build_erspan(f, kInner, out);
  // VLAN 20; COS 3 (0x6000) | En 3, "VLAN tag preserved in frame" (0x1800) | session 100.
  EXPECT_EQ(hex(out).substr(2 * 42, 16), "1014" "7864" "00000000");
}

TEST(ErspanFrame, TypeIIIByteLayout) {
  ErspanFields f;
  f.type = 3;
  f.session = 200;
  f.src_mac = erspan_source_mac(200);
  f.dst_mac = kErspanCollectorMac;
  f.src = *parse_ipv4("192.0.2.12");
  f.dst = *parse_ipv4("192.0.2.100");
  f.seq = 0;
  f.tagged = true;
  f.vlan = 20;
  f.cos = 3;
  f.timestamp = 0x12345678;
  std::vector<uint8_t> out;
  build_erspan(f, kInner, out);
  ASSERT_EQ(out.size(), erspan_overhead(3) + kInner.size());
  EXPECT_EQ(erspan_overhead(3), 54u);
  EXPECT_EQ(hex(out),
            "024552c00001" "0245520000c8" "0800"
            "4500" "002c" "0000" "4000" "402f" "b632" "c000020c" "c0000264"  // IPv4: length 44
            "1000" "22eb" "00000000"                               // GRE: S bit, ERSPAN III, sequence 0
            "2014" "60c8"                                          // ver 2, VLAN 20 | COS 3, BSO 0, T 0, session 200
            "12345678"                                             // timestamp
            "0000" "0002"                                          // SGT 0 | P 0, FT 0, HW 0, D 0, Gra 1 (100 ns), O 0
            "aabbccdd");
}

TEST(ErspanFrame, SessionIdIsTenBitsAndTheBufferIsReplaced) {
  ErspanFields f = session100();
  f.session = 0x5FF;  // bit 10 would spill into T
  std::vector<uint8_t> out(500, 0xEE);  // whatever was there before
  build_erspan(f, kInner, out);
  EXPECT_EQ(out.size(), 54u);
  EXPECT_EQ(out[44], 0x01);  // COS 0, En 0, T 0, session 0x1FF
  EXPECT_EQ(out[45], 0xFF);
  EXPECT_EQ(erspan_source_mac(1023), (Mac{0x02, 0x45, 0x52, 0x00, 0x03, 0xFF}));
}

}  // namespace
}  // namespace roceshark::gen
