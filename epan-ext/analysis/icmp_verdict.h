// SPDX-License-Identifier: GPL-2.0-or-later
// What the engine concludes about an ICMP "too big" message, and the
// router reports the findings name.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>

#include "epan-ext/decode/address.h"
#include "epan-ext/decode/icmp.h"
#include "epan-ext/analysis/verdict.h"

namespace roceshark::icmp {

// What the engine concluded about one message.
struct Verdict {
  uint32_t frame = 0;
  uint32_t point = 0;
  uint32_t report = kNoId;  // AnalysisFacts::icmp_report(); kNoId past the table's limit
  uint32_t flow = kNoId;    // the RoCE flow it quotes, when the capture has it
  uint32_t stream = kNoId;  // that flow's connection
  uint32_t mtu = 0;
  uint32_t largest = 0;     // the largest RoCE IP packet of the quoted flow(s) so far, the quote included
  bool below = false;       // mtu below it: evidence of mtu_mismatch
};

// One router's message about one flow (QP, or host pair when the quote
// stops before the BTH), as the findings name it.
struct Report {
  Address reporter, src, dst;
  uint32_t mtu = 0;
  bool has_qp = false;
  uint32_t qp = 0;
  uint32_t first_frame = 0;
  uint32_t largest = 0;  // the largest Verdict::largest of its messages below it
  bool operator==(const Report& o) const {
    return reporter == o.reporter && src == o.src && dst == o.dst && mtu == o.mtu && has_qp == o.has_qp && qp == o.qp;
  }
};

// The expert info of a message below the flow's packets, seen at `point`.
std::string below_text(const Report& r, const Verdict& v, std::string_view point);

}  // namespace roceshark::icmp
