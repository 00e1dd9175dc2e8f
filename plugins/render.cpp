// SPDX-License-Identifier: GPL-2.0-or-later
// All tree writes, expert infos and column text of the postdissector.
#include <epan/expert.h>
#include <epan/proto.h>

#include "epan-ext/aeth.h"
#include "epan-ext/opcode.h"
#include "plugins/dissect.h"
#include "plugins/roce.h"
#include "plugins/tree_util.h"

namespace roceshark::glue {
namespace {

// The catalogue rows this file renders.
constexpr checks::Kind kMirrorDuplicates = checks::kind("mirror_duplicates");
constexpr checks::Kind kReorderNak = checks::kind("reorder_nak");
constexpr checks::Kind kReordering = checks::kind("reordering");
constexpr checks::Kind kLoss = checks::kind("loss");
constexpr checks::Kind kTimeoutRetransmission = checks::kind("timeout_retransmission");
constexpr checks::Kind kRnr = checks::kind("rnr");
constexpr checks::Kind kNakError = checks::kind("nak_error");
constexpr checks::Kind kIcrcBad = checks::kind("icrc_bad");
constexpr checks::Kind kCeWithoutCnp = checks::kind("ce_without_cnp");

const char* role_name(Role r) {
  switch (r) {
    case Role::request: return "request";
    case Role::response: return "response";
    case Role::cnp: return "cnp";
    case Role::datagram: return "datagram";
    case Role::other: return "other";
  }
  return "?";
}

const char* icrc_name(IcrcState s) {
  switch (s) {
    case IcrcState::unchecked: return "unchecked";
    case IcrcState::good: return "good";
    case IcrcState::bad: return "bad";
    case IcrcState::not_captured: return "not captured";
  }
  return "?";
}

// Info column tag, like TCP's "[TCP Retransmission]".
const char* info_tag(const Verdict& v) {
  if (v.seq == SeqClass::duplicate) return "[RoCE Duplicate] ";
  switch (v.seq) {
    case SeqClass::gap: return "[RoCE PSN Gap] ";
    case SeqClass::retransmission: return "[RoCE Retransmission] ";
    case SeqClass::gbn_resend: return "[RoCE Go-back-N] ";
    case SeqClass::timeout_retransmission: return "[RoCE Timeout Retransmission] ";
    case SeqClass::rnr_retry: return "[RoCE RNR Retry] ";
    case SeqClass::out_of_order: return "[RoCE Out-Of-Order] ";
    case SeqClass::selective_resend: return "[RoCE Selective Resend] ";
    case SeqClass::read_retry: return "[RoCE READ Retry] ";
    default: break;
  }
  if (v.duplicate_ack) return "[RoCE Dup ACK] ";
  if (v.nak == NakCode::rnr) return "[RoCE RNR NAK] ";
  if (v.nak != NakCode::none) return "[RoCE NAK] ";
  return nullptr;
}

void render_request(tvbuff_t* tvb, packet_info* pinfo, proto_tree* t, const Verdict& v, uint32_t qp,
                    const std::string& point) {
  proto_item* seq = gen(proto_tree_add_string(t, ids.seq, tvb, 0, 0, seq_class_name(v.seq)));
  proto_tree* st = proto_item_add_subtree(seq, ids.ett_seq);
  if (v.has_expected) gen(proto_tree_add_uint(st, ids.expected_psn, tvb, 0, 0, v.expected_psn));
  if (v.qp_reuse) {
    expert_add_info_format(pinfo, add_flag(st, tvb, ids.qp_reuse), &ids.ei_qp_reuse,
                           "QP reuse on QP 0x%06x at %s: the PSN sequence restarts (new connection)", qp,
                           point.c_str());
  }
  switch (v.seq) {
    case SeqClass::gap: {
      proto_item* it = gen(proto_tree_add_uint(st, ids.gap, tvb, 0, 0, v.gap));
      expert_add_info_format(pinfo, it, &ids.ei_gap, "PSN gap on QP 0x%06x at %s: %u PSN(s) missing", qp,
                             point.c_str(), v.gap);
      break;
    }
    case SeqClass::duplicate: {
      proto_item* it = add_flag(st, tvb, check_field(kMirrorDuplicates));
      expert_add_info_format(pinfo, it, check_expert(kMirrorDuplicates),
                             "Duplicate on QP 0x%06x at %s: the same packet recorded twice (mirror), not a resend",
                             qp, point.c_str());
      if (v.original_frame) gen(proto_tree_add_uint(st, ids.original_frame, tvb, 0, 0, v.original_frame));
      break;
    }
    case SeqClass::out_of_order: {
      expert_add_info_format(pinfo, add_flag(st, tvb, check_field(kReordering)), check_expert(kReordering),
                             "Out of order on QP 0x%06x at %s: PSN %u arrived %u behind the highest (reordering, "
                             "not a loss)",
                             qp, point.c_str(), v.pkt.psn, v.gap);
      gen(proto_tree_add_uint(st, ids.reorder_depth, tvb, 0, 0, v.gap));
      if (v.reorder_nak) add_flag(st, tvb, check_field(kReorderNak));
      if (v.nak_frame) gen(proto_tree_add_uint(st, ids.nak_frame, tvb, 0, 0, v.nak_frame));
      break;
    }
    case SeqClass::retransmission:
    case SeqClass::gbn_resend:
    case SeqClass::selective_resend:
    case SeqClass::read_retry:
    case SeqClass::timeout_retransmission:
    case SeqClass::rnr_retry: {
      proto_item* it = add_flag(st, tvb, check_field(kLoss));
      if (v.seq == SeqClass::retransmission && !v.ambiguous)
        expert_add_info_format(pinfo, it, check_expert(kLoss),
                               "Retransmission on QP 0x%06x at %s (no NAK seen, no timeout)", qp, point.c_str());
      if (v.ambiguous)
        expert_add_info_format(pinfo, add_flag(st, tvb, ids.ambiguous), &ids.ei_ambiguous,
                               "Ambiguous on QP 0x%06x at %s: a resend, or a mirror copy or late original; "
                               "nothing in the capture tells (counted as a retransmission)",
                               qp, point.c_str());
      if (v.seq == SeqClass::selective_resend)
        expert_add_info_format(pinfo, add_flag(st, tvb, ids.selective_resend), &ids.ei_selective,
                               "Selective resend on QP 0x%06x at %s after the NAK in frame %u", qp, point.c_str(),
                               v.nak_frame);
      if (v.seq == SeqClass::read_retry)
        expert_add_info_format(pinfo, add_flag(st, tvb, ids.read_retry), &ids.ei_read_retry,
                               "READ retry on QP 0x%06x at %s: PSN %u re-issued for responses that did not arrive",
                               qp, point.c_str(), v.pkt.psn);
      // Or its NAK was taken back since (known on later passes).
      if (v.reorder_nak || session_events().nak_taken_back(v.nak_frame)) add_flag(st, tvb, check_field(kReorderNak));
      if (v.seq == SeqClass::gbn_resend)
        expert_add_info_format(pinfo, add_flag(st, tvb, ids.gbn_resend), &ids.ei_gbn,
                               "Go-back-N resend on QP 0x%06x at %s after the NAK in frame %u", qp, point.c_str(),
                               v.nak_frame);
      if (v.seq == SeqClass::timeout_retransmission)
        expert_add_info_format(pinfo, add_flag(st, tvb, check_field(kTimeoutRetransmission)),
                               check_expert(kTimeoutRetransmission),
                               "Timeout retransmission on QP 0x%06x at %s after %.1f us without a NAK", qp,
                               point.c_str(), static_cast<double>(v.quiet_ns) / 1000.0);
      if (v.seq == SeqClass::rnr_retry)
        expert_add_info_format(pinfo, add_flag(st, tvb, ids.rnr_retry), &ids.ei_rnr_retry,
                               "RNR retry on QP 0x%06x at %s after the RNR NAK in frame %u", qp, point.c_str(),
                               v.nak_frame);
      if (v.original_frame) gen(proto_tree_add_uint(st, ids.original_frame, tvb, 0, 0, v.original_frame));
      if (v.nak_frame) gen(proto_tree_add_uint(st, ids.nak_frame, tvb, 0, 0, v.nak_frame));
      if (v.seq == SeqClass::timeout_retransmission) gen(proto_tree_add_uint64(st, ids.quiet_ns, tvb, 0, 0, v.quiet_ns));
      break;
    }
    default: break;
  }
}

const char* response_kind(const PacketSummary& p, const Syndrome& s) {
  if (classify_opcode(p.opcode).is_read_response) return "READ response";
  if (!p.has_aeth) return "response";
  switch (s.kind) {
    case AckKind::ack: return "ACK";
    case AckKind::rnr_nak: return "RNR NAK";
    case AckKind::nak: return "NAK";
    case AckKind::reserved: return "reserved syndrome";
  }
  return "?";
}

void render_response(tvbuff_t* tvb, packet_info* pinfo, proto_tree* t, const Verdict& v, uint32_t qp,
                     const std::string& point) {
  const PacketSummary& p = v.pkt;
  const Syndrome s = decode_syndrome(p.syndrome);
  proto_item* kind = gen(proto_tree_add_string(t, ids.ack_kind, tvb, 0, 0, response_kind(p, s)));
  proto_tree* at = proto_item_add_subtree(kind, ids.ett_ack);
  if (v.seq == SeqClass::duplicate) {
    expert_add_info_format(pinfo, add_flag(at, tvb, check_field(kMirrorDuplicates)), check_expert(kMirrorDuplicates),
                           "Duplicate on QP 0x%06x at %s: the same response recorded twice (mirror)", qp,
                           point.c_str());
    gen(proto_tree_add_uint(at, ids.original_frame, tvb, 0, 0, v.original_frame));
    return;
  }
  if (p.has_aeth && s.kind == AckKind::rnr_nak) {
    proto_item* it = gen(proto_tree_add_string(at, check_field(kLoss, 1), tvb, 0, 0, nak_name(v.nak)));
    gen(proto_tree_add_uint(at, ids.rnr_timer_us, tvb, 0, 0, rnr_timer_us(s.value)));
    expert_add_info_format(pinfo, it, check_expert(kRnr),
                           "RNR NAK on QP 0x%06x at %s: responder not ready, retry in %u us", qp, point.c_str(),
                           rnr_timer_us(s.value));
  } else if (v.nak == NakCode::psn_sequence_error) {
    proto_item* it = gen(proto_tree_add_string(at, check_field(kLoss, 1), tvb, 0, 0, nak_name(v.nak)));
    // Known on later passes: the late original passed here after the NAK.
    const uint32_t late = v.reorder_nak ? 0 : session_events().nak_taken_back(v.frame);
    if (v.reorder_nak)
      expert_add_info_format(pinfo, add_flag(at, tvb, check_field(kReorderNak)), check_expert(kReorderNak),
                             "NAK caused by reordering on QP 0x%06x at %s, not by a loss: PSN %u, NAKed because a "
                             "packet was overtaken in the fabric (enable out-of-order placement, or keep adaptive "
                             "routing off this priority)",
                             qp, point.c_str(), p.psn);
    else if (late)
      expert_add_info_format(pinfo, add_flag(at, tvb, check_field(kReorderNak)), check_expert(kReorderNak),
                             "NAK caused by reordering on QP 0x%06x at %s, not by a loss: PSN %u arrived late, in "
                             "frame %u (enable out-of-order placement, or keep adaptive routing off this priority)",
                             qp, point.c_str(), p.psn, late);
    else
      expert_add_info_format(pinfo, it, check_expert(kLoss, 1),
                             "NAK PSN sequence error on QP 0x%06x at %s: a request was lost", qp, point.c_str());
  } else if (v.nak != NakCode::none) {
    proto_item* it = gen(proto_tree_add_string(at, check_field(kLoss, 1), tvb, 0, 0, nak_name(v.nak)));
    expert_add_info_format(pinfo, it, check_expert(kNakError), "NAK %s on QP 0x%06x at %s", nak_name(v.nak), qp,
                           point.c_str());
  }
  if (v.seq == SeqClass::gap) {
    expert_add_info_format(pinfo, gen(proto_tree_add_uint(at, ids.gap, tvb, 0, 0, v.gap)), &ids.ei_response_gap,
                           "READ responses missing on QP 0x%06x at %s: %u response PSN(s) lost before this point", qp,
                           point.c_str(), v.gap);
  }
  if (v.duplicate_ack)
    expert_add_info_format(pinfo, add_flag(at, tvb, ids.dup_ack), &ids.ei_dup_ack,
                           "Duplicate ACK on QP 0x%06x at %s", qp, point.c_str());
  if (v.cnp_missing)
    expert_add_info_format(pinfo, add_flag(at, tvb, check_field(kCeWithoutCnp)), check_expert(kCeWithoutCnp),
                           "No CNP for ECN-CE on QP 0x%06x at %s: the receiver acknowledges the QP's first CE-marked "
                           "request (%u us or more before) and sent no CNP: its DCQCN notification point is off",
                           qp, point.c_str(), static_cast<unsigned>(kCnpDeadlineNs / 1000));
  if (v.request_frame) {
    gen(proto_tree_add_uint(at, ids.request_frame, tvb, 0, 0, v.request_frame));
    gen(proto_tree_add_uint64(at, ids.rtt_ns, tvb, 0, 0, v.rtt_ns));
    gen(proto_tree_add_uint(at, ids.covered, tvb, 0, 0, v.covered));
  }
}

}  // namespace

void render(tvbuff_t* tvb, packet_info* pinfo, proto_tree* tree, const Verdict& v, const StoredAnalysis& a) {
  const PacketSummary& p = v.pkt;
  const uint32_t qp = v.flow == kNoId ? 0 : a.flow_key(v.flow).qp;
  if (p.opcode == kOpcodeCnp) {
    // Wireshark 4.0 calls opcode 0x81 "Unknown OpCode".
    col_clear(pinfo->cinfo, COL_INFO);
    col_add_fstr(pinfo->cinfo, COL_INFO, "CNP QP=0x%06x", qp);
  }
  if (const char* tag = info_tag(v)) col_prepend_fstr(pinfo->cinfo, COL_INFO, "%s", tag);

  // Nobody looks at our items in most tshark runs: then add none (a null
  // tree makes every proto_tree_add_* return at once) but keep the expert
  // infos, which -z expert collects without a tree.
  proto_tree* root = wanted_tree(tree, ids.proto);
  proto_item* ti = proto_tree_add_item(root, ids.proto, tvb, 0, 0, ENC_NA);
  proto_tree* t = proto_item_add_subtree(ti, ids.ett_roce);
  if (v.truncated) {
    expert_add_info(pinfo, ti, &ids.ei_truncated);
    return;
  }
  if (v.untracked()) {
    if (v.first_unchecked) expert_add_info(pinfo, ti, &ids.ei_limit[size_t(v.beyond)]);
    return;
  }
  const std::string& point = a.point_name(v.point);
  if (v.stream != kNoId) gen(proto_tree_add_uint(t, ids.stream, tvb, 0, 0, v.stream));
  proto_item_append_text(gen(proto_tree_add_uint(t, ids.point, tvb, 0, 0, v.point)), " (%s)", point.c_str());
  gen(proto_tree_add_string(t, ids.role, tvb, 0, 0, role_name(v.role)));

  if (v.role == Role::request) render_request(tvb, pinfo, t, v, qp, point);
  if (v.role == Role::response) render_response(tvb, pinfo, t, v, qp, point);
  if (v.role == Role::cnp) {
    proto_item* it = add_flag(t, tvb, ids.cnp);
    gen(proto_tree_add_uint(t, ids.cnp_qp, tvb, 0, 0, qp));
    expert_add_info_format(pinfo, it, &ids.ei_cnp, "CNP at %s: slow down QP 0x%06x", point.c_str(), qp);
  }
  if (p.fecn) add_flag(t, tvb, ids.fecn);
  if (p.becn) add_flag(t, tvb, ids.becn);

  gen(proto_tree_add_string(t, ids.icrc_status, tvb, 0, 0, icrc_name(p.icrc)));
  if (p.icrc == IcrcState::bad) {
    expert_add_info_format(pinfo, add_flag(t, tvb, check_field(kIcrcBad)), check_expert(kIcrcBad),
                           "Bad ICRC on QP 0x%06x at %s: corrupted before this point (check optics and cabling)", qp,
                           point.c_str());
    if (const auto want = a.icrc_expected(v.frame)) gen(proto_tree_add_uint(t, ids.icrc_computed, tvb, 0, 0, *want));
  }
  if (p.icrc == IcrcState::not_captured && v.first_unchecked)
    expert_add_info_format(pinfo, ti, &ids.ei_icrc_unchecked,
                           "ICRC not captured at %s (snaplen): not checked on this flow", point.c_str());
  render_packet_pfc(tvb, pinfo, t, v, a);
  render_packet_qos(tvb, pinfo, t, v, a);
  render_packet_hop(tvb, pinfo, t, v, a);
}

}  // namespace roceshark::glue
