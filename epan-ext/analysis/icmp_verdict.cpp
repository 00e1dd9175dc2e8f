// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/analysis/icmp_verdict.h"

#include "epan-ext/common/text_table.h"

namespace roceshark::icmp {

std::string below_text(const Report& r, const Verdict& v, std::string_view point) {
  return "ICMP at " + std::string(point) + ": router " + r.reporter.to_string() + " reports MTU " +
         std::to_string(v.mtu) + " for " + r.src.to_string() + " -> " + r.dst.to_string() +
         (r.has_qp ? " QP " + cell::qp(r.qp) : std::string()) + ", below its RoCE packets of " +
         std::to_string(v.largest) + " bytes (RoCE ignores it: the loss persists)";
}

}  // namespace roceshark::icmp
