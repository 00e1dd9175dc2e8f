// SPDX-License-Identifier: GPL-2.0-or-later
#include "epan-ext/analysis/packet_notes.h"

#include "epan-ext/common/text_table.h"
#include "epan-ext/decode/aeth.h"

namespace roceshark {
namespace {

constexpr checks::Kind kMirrorDuplicates = checks::kind("mirror_duplicates");
constexpr checks::Kind kReorderNak = checks::kind("reorder_nak");
constexpr checks::Kind kReordering = checks::kind("reordering");
constexpr checks::Kind kLoss = checks::kind("loss");
constexpr checks::Kind kTimeoutRetransmission = checks::kind("timeout_retransmission");
constexpr checks::Kind kRnr = checks::kind("rnr");
constexpr checks::Kind kNakError = checks::kind("nak_error");
constexpr checks::Kind kIcrcBad = checks::kind("icrc_bad");
constexpr checks::Kind kCeWithoutCnp = checks::kind("ce_without_cnp");

// "on QP 0x00abcd at P"
std::string on(const NoteContext& c) { return " on QP " + cell::qp(c.qp) + " at " + std::string(c.point); }

PacketNote flag(NoteItem item, std::string text = {}) {
  PacketNote n;
  n.field = item;
  if (!text.empty()) {
    n.expert = item;
    n.text = std::move(text);
  }
  return n;
}

constexpr const char* kReorderFix = "enable out-of-order placement, or keep adaptive routing off this priority";

}  // namespace

SeqClass shown_seq(const Verdict& v, const NoteContext& c) {
  return v.seq == SeqClass::gbn_resend && c.selective_qp ? SeqClass::selective_resend : v.seq;
}

std::vector<PacketNote> request_notes(const Verdict& v, const NoteContext& c) {
  std::vector<PacketNote> out;
  if (v.qp_reuse)
    out.push_back(flag(fact_item(Fact::qp_reuse), "QP reuse" + on(c) + ": the PSN sequence restarts (new connection)"));
  const SeqClass seq = shown_seq(v, c);
  switch (seq) {
    case SeqClass::gap: {
      PacketNote n = flag(fact_item(Fact::gap));
      n.value = v.gap;
      n.expert = fact_item(Fact::psn_gap);
      n.text = "PSN gap" + on(c) + ": " + std::to_string(v.gap) + " PSN(s) missing";
      out.push_back(n);
      break;
    }
    case SeqClass::duplicate:
      out.push_back(flag(check_item(kMirrorDuplicates),
                         "Duplicate" + on(c) + ": the same packet recorded twice (mirror), not a resend"));
      break;
    case SeqClass::out_of_order:
      out.push_back(flag(check_item(kReordering), "Out of order" + on(c) + ": PSN " + std::to_string(v.pkt.psn) +
                                                      " arrived " + std::to_string(v.gap) +
                                                      " behind the highest (reordering, not a loss)"));
      if (v.reorder_nak) out.push_back(flag(check_item(kReorderNak)));
      break;
    case SeqClass::retransmission:
    case SeqClass::gbn_resend:
    case SeqClass::selective_resend:
    case SeqClass::read_retry:
    case SeqClass::timeout_retransmission:
    case SeqClass::rnr_retry: {
      const std::string nak = " after the NAK in frame " + std::to_string(v.nak_frame);
      out.push_back(flag(check_item(kLoss), seq == SeqClass::retransmission && !v.ambiguous
                                                ? "Retransmission" + on(c) + " (no NAK seen, no timeout)"
                                                : std::string()));
      if (v.ambiguous)
        out.push_back(flag(fact_item(Fact::ambiguous), "Ambiguous" + on(c) +
                                                           ": a resend, or a mirror copy or late original; nothing "
                                                           "in the capture tells (counted as a retransmission)"));
      if (seq == SeqClass::selective_resend)
        out.push_back(flag(fact_item(Fact::selective_resend), "Selective resend" + on(c) + nak));
      if (seq == SeqClass::read_retry)
        out.push_back(flag(fact_item(Fact::read_retry), "READ retry" + on(c) + ": PSN " + std::to_string(v.pkt.psn) +
                                                            " re-issued for responses that did not arrive"));
      if (v.reorder_nak || c.nak_taken_back) out.push_back(flag(check_item(kReorderNak)));
      if (seq == SeqClass::gbn_resend) out.push_back(flag(fact_item(Fact::gbn_resend), "Go-back-N resend" + on(c) + nak));
      if (seq == SeqClass::timeout_retransmission)
        out.push_back(flag(check_item(kTimeoutRetransmission),
                           "Timeout retransmission" + on(c) + " after " + cell::us(v.quiet_ns) + " us without a NAK"));
      if (seq == SeqClass::rnr_retry)
        out.push_back(flag(fact_item(Fact::rnr_retry),
                           "RNR retry" + on(c) + " after the RNR NAK in frame " + std::to_string(v.nak_frame)));
      break;
    }
    default: break;
  }
  return out;
}

std::vector<PacketNote> response_notes(const Verdict& v, const NoteContext& c) {
  std::vector<PacketNote> out;
  if (v.seq == SeqClass::duplicate) {
    out.push_back(flag(check_item(kMirrorDuplicates), "Duplicate" + on(c) + ": the same response recorded twice (mirror)"));
    return out;
  }
  const Syndrome s = decode_syndrome(v.pkt.syndrome);
  PacketNote nak;  // the NAK's name, and the expert info on it
  nak.field = check_item(kLoss, 1);
  nak.name = nak_name(v.nak);
  if (v.pkt.has_aeth && s.kind == AckKind::rnr_nak) {
    nak.expert = check_item(kRnr);
    nak.text = "RNR NAK" + on(c) + ": responder not ready, retry in " + std::to_string(rnr_timer_us(s.value)) + " us";
    out.push_back(nak);
  } else if (v.nak == NakCode::psn_sequence_error) {
    const std::string psn = ", not by a loss: PSN " + std::to_string(v.pkt.psn);
    if (v.reorder_nak) {
      out.push_back(nak);
      out.push_back(flag(check_item(kReorderNak), "NAK caused by reordering" + on(c) + psn +
                                                      ", NAKed because a packet was overtaken in the fabric (" +
                                                      kReorderFix + ")"));
    } else if (c.late_original) {
      out.push_back(nak);
      out.push_back(flag(check_item(kReorderNak), "NAK caused by reordering" + on(c) + psn +
                                                      " arrived late, in frame " + std::to_string(c.late_original) +
                                                      " (" + kReorderFix + ")"));
    } else {
      nak.expert = check_item(kLoss, 1);
      nak.text = "NAK PSN sequence error" + on(c) + ": a request was lost";
      out.push_back(nak);
    }
  } else if (v.nak != NakCode::none) {
    nak.expert = check_item(kNakError);
    nak.text = "NAK " + std::string(nak_name(v.nak)) + on(c);
    out.push_back(nak);
  }
  if (v.pair_ambiguous)
    out.push_back(flag(fact_item(Fact::ambiguous_pair),
                       "Ambiguous pairing" + on(c) + ": PSN " + std::to_string(v.pkt.psn) +
                           " fits the requests of more than one QP between these hosts and no CM exchange tells "
                           "which; credited to none (no RTT, no NAK for either)"));
  if (v.seq == SeqClass::gap) {
    PacketNote n = flag(fact_item(Fact::gap));
    n.value = v.gap;
    n.expert = fact_item(Fact::response_gap);
    n.text = "READ responses missing" + on(c) + ": " + std::to_string(v.gap) + " response PSN(s) lost before this point";
    out.push_back(n);
  }
  if (v.duplicate_ack) out.push_back(flag(fact_item(Fact::dup_ack), "Duplicate ACK" + on(c)));
  if (v.cnp_missing)
    out.push_back(flag(check_item(kCeWithoutCnp),
                       "No CNP for ECN-CE" + on(c) + ": the receiver acknowledges the QP's first CE-marked request (" +
                           std::to_string(kCnpDeadlineNs / 1000) +
                           " us or more before) and sent no CNP: its DCQCN notification point is off"));
  return out;
}

std::vector<PacketNote> cnp_notes(const Verdict& v, const NoteContext& c) {
  if (v.role != Role::cnp) return {};
  return {flag(fact_item(Fact::cnp), "CNP at " + std::string(c.point) + ": slow down QP " + cell::qp(c.qp))};
}

std::vector<PacketNote> icrc_notes(const Verdict& v, const NoteContext& c) {
  std::vector<PacketNote> out;
  if (v.pkt.icrc == IcrcState::bad)
    out.push_back(flag(check_item(kIcrcBad),
                       "Bad ICRC" + on(c) + ": corrupted before this point (check optics and cabling)"));
  if (v.pkt.icrc == IcrcState::not_captured && v.first_unchecked) {
    PacketNote n;
    n.expert = fact_item(Fact::icrc_unchecked);
    n.text = "ICRC not captured at " + std::string(c.point) + " (snaplen): not checked on this flow";
    out.push_back(n);
  }
  return out;
}

std::vector<PacketNote> clock_notes(const Verdict& v, const NoteContext& c) {
  if (!v.clock_back) return {};
  return {flag(fact_item(Fact::clock_back), clock_back_text(c.point))};
}

std::string clock_back_text(std::string_view point) {
  return "Stamped before an earlier frame at " + std::string(point) +
         ": the capture's clock ran backwards; the analysis keeps its own time (docs/analysis.md)";
}

}  // namespace roceshark
