// SPDX-License-Identifier: GPL-2.0-or-later
#include <gtest/gtest.h>

#include "epan-ext/analysis/analyzer.h"
#include "epan-ext/analysis/stored_analysis.h"
#include "epan-ext/report/qp_report.h"
#include "epan-ext/report/nak_resends.h"
#include "epan-ext/report/qp_stats.h"
#include "epan-ext/common/text_table.h"
#include "packets.h"

namespace roceshark {
namespace {

using test::Wire;
constexpr uint64_t us = 1000;

struct Fed {
  StoredAnalysis a;
  QpStats stats;
  void feed(const PacketInfo& p) {
    const Verdict& v = a.process(p);
    stats.add(latest_record(v, a, p.ts_ns, p.frame_len, nullptr));
  }
};

TEST(QpStats, CountsByKindAndAccountsResponsesToRequests) {
  Fed f;
  Wire w;
  f.a.name_point(0, "nic-a");
  f.feed(w.req(0, 1, true));
  f.feed(w.req(us, 3, true));                     // gap of 1
  f.feed(w.resp(2 * us, 2, test::kSynNakSeq));    // NAK
  f.feed(w.req(3 * us, 2));                       // GBN
  f.feed(w.req(4 * us, 3, true));                 // GBN
  f.feed(w.resp(6 * us, 3));                      // ACK
  f.feed(w.cnp(7 * us));
  ASSERT_EQ(f.stats.rows().size(), 1u);
  const QpRow& r = f.stats.rows().begin()->second;
  EXPECT_EQ(r.point_name, "nic-a");
  EXPECT_EQ(r.requests, 4u);
  EXPECT_EQ(r.gaps, 1u);
  EXPECT_EQ(r.skipped_psns, 1u);
  EXPECT_EQ(r.gbn_resends, 2u);
  EXPECT_EQ(r.retransmissions, 2u);
  EXPECT_EQ(r.naks[static_cast<size_t>(NakCode::psn_sequence_error)], 1u);
  EXPECT_EQ(r.acks, 1u);
  EXPECT_EQ(r.cnps, 1u);
  EXPECT_EQ(r.rtt_ns.count(), 1u);  // frame 1; frame 2's PSN 3 was resent (Karn)
  EXPECT_EQ(r.first_psn, 1u);
  EXPECT_EQ(r.highest_psn, 3u);
}

// The lone resend passes as go-back-N on its frame (nothing before it
// tells); the packet after it shows selective repeat, and the row counts by
// the mode, so Recovery "selective" never sits beside a GBN count.
TEST(QpStats, CountsASelectiveQpsFirstResendAsSelective) {
  Fed f;
  Wire w;
  for (uint32_t i = 0; i < 6; ++i) f.feed(w.req(i * us, i));
  f.feed(w.req(6 * us, 7));                     // gap of 1
  f.feed(w.resp(7 * us, 6, test::kSynNakSeq));  // NAK 6
  const Verdict& resend = f.a.process(w.req(8 * us, 6));
  f.stats.add(latest_record(resend, f.a, 8 * us, 0, nullptr));
  EXPECT_EQ(resend.seq, SeqClass::gbn_resend);  // causal: the mode is not shown yet
  f.feed(w.req(9 * us, 8));                     // not 7: selective repeat
  const QpRow& r = f.stats.rows().begin()->second;
  EXPECT_EQ(r.recovery, RecoveryMode::selective);
  EXPECT_EQ(r.gbn_resends, 0u);
  EXPECT_EQ(r.selective_resends, 1u);
  EXPECT_EQ(r.retransmissions, 1u);
}

// A NAK taken back finds its resends and takes them back; past the cap the
// oldest NAKs' resends are let go, and a take-back of one of those is
// counted (Cap::nak_resends: a limit in the report), a NAK that forced no
// resend is not.
TEST(NakResends, ATakeBackAfterItsResendsWereLetGoIsCounted) {
  NakResends r;
  Verdict v;
  v.seq = SeqClass::gbn_resend;
  const auto resend = [&](uint32_t frame, uint32_t nak) {
    v.frame = frame, v.nak_frame = nak;
    r.add(v, 0);
  };
  resend(10, 5);
  EXPECT_EQ(r.take(5).size(), 1u);
  EXPECT_TRUE(r.take(7).empty());  // forced nothing: nothing let go yet
  EXPECT_EQ(r.missed(), 0u);
  const uint32_t n = NakResends::kMaxKept;
  for (uint32_t i = 0; i <= n; ++i) resend(100 + i, 50 + i / 2);  // two resends a NAK
  EXPECT_TRUE(r.take(50).empty());  // let go
  EXPECT_EQ(r.missed(), 1u);
  EXPECT_EQ(r.take(50 + n / 2).size(), 1u);
  EXPECT_EQ(r.missed(), 1u);
}

TEST(QpReport, SaysWhenResponsesWereNotSeen) {
  Fed f;
  Wire w;
  for (uint32_t i = 0; i < 3; ++i) f.feed(w.req(i * us, i, true));
  const std::string out = format_qp_report(f.stats, "");
  EXPECT_NE(out.find("responses not seen"), std::string::npos);
  EXPECT_NE(out.find("not counted as loss"), std::string::npos);
  EXPECT_NE(out.find("Filter:<No Filter>"), std::string::npos);
  EXPECT_NE(out.find("0x000022"), std::string::npos);
}

TEST(QpReport, EmptyCapture) {
  QpStats s;
  EXPECT_NE(format_qp_report(s, "ip.addr==1.2.3.4").find("No RoCE packets"), std::string::npos);
}

TEST(TextTable, AlignsColumns) {
  TextTable t({{"A", TextTable::Align::left}, {"Num"}});
  t.add_row({"long name", "1"});
  t.add_row({"x", "12345"});
  EXPECT_EQ(t.render(), "A            Num\nlong name      1\nx          12345\n");
}

}  // namespace
}  // namespace roceshark
