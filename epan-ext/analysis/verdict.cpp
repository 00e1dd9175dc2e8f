// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/analysis/verdict.h"

namespace roceshark {

const char* seq_class_name(SeqClass c) {
  switch (c) {
    case SeqClass::none: return "-";
    case SeqClass::in_order: return "in-order";
    case SeqClass::gap: return "gap";
    case SeqClass::retransmission: return "retransmission";
    case SeqClass::gbn_resend: return "go-back-N resend";
    case SeqClass::timeout_retransmission: return "timeout retransmission";
    case SeqClass::rnr_retry: return "RNR retry";
    case SeqClass::duplicate: return "duplicate";
    case SeqClass::out_of_order: return "out-of-order";
    case SeqClass::selective_resend: return "selective resend";
    case SeqClass::read_retry: return "READ retry";
  }
  return "?";
}

bool is_loss_sign(const Verdict& v) {
  if (v.reorder_nak) return false;
  return v.nak == NakCode::psn_sequence_error || (is_retransmission(v.seq) && v.seq != SeqClass::rnr_retry);
}

}  // namespace roceshark
