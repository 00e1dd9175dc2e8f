// SPDX-License-Identifier: GPL-2.0-or-later
// All tree writes, expert infos and column text of the postdissector.
#include <epan/expert.h>
#include <epan/proto.h>

#include <cstring>

#include "epan-ext/analysis/packet_notes.h"
#include "epan-ext/decode/aeth.h"
#include "epan-ext/decode/opcode.h"
#include "plugins/dissect.h"
#include "plugins/roce.h"
#include "plugins/tree_util.h"

namespace roceshark::glue {
namespace {

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
const char* info_tag(const Verdict& v, SeqClass seq) {
  if (seq == SeqClass::duplicate) return "[RoCE Duplicate] ";
  switch (seq) {
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

int fact_field(Fact f) {
  switch (f) {
    case Fact::qp_reuse: return ids.qp_reuse;
    case Fact::gap: return ids.gap;
    case Fact::ambiguous: return ids.ambiguous;
    case Fact::selective_resend: return ids.selective_resend;
    case Fact::read_retry: return ids.read_retry;
    case Fact::gbn_resend: return ids.gbn_resend;
    case Fact::rnr_retry: return ids.rnr_retry;
    case Fact::dup_ack: return ids.dup_ack;
    case Fact::cnp: return ids.cnp;
    case Fact::clock_back: return ids.clock_back;
    case Fact::ambiguous_pair: return ids.ack_ambiguous;
    default: return -1;
  }
}

expert_field* fact_expert(Fact f) {
  switch (f) {
    case Fact::qp_reuse: return &ids.ei_qp_reuse;
    case Fact::psn_gap: return &ids.ei_gap;
    case Fact::response_gap: return &ids.ei_response_gap;
    case Fact::ambiguous: return &ids.ei_ambiguous;
    case Fact::selective_resend: return &ids.ei_selective;
    case Fact::read_retry: return &ids.ei_read_retry;
    case Fact::gbn_resend: return &ids.ei_gbn;
    case Fact::rnr_retry: return &ids.ei_rnr_retry;
    case Fact::dup_ack: return &ids.ei_dup_ack;
    case Fact::cnp: return &ids.ei_cnp;
    case Fact::icrc_unchecked: return &ids.ei_icrc_unchecked;
    case Fact::clock_back: return &ids.ei_clock_back;
    case Fact::ambiguous_pair: return &ids.ei_ack_ambiguous;
    default: return nullptr;
  }
}

// Each note's item, by its field's type, and its expert info on it (or on
// `root` when the note has no item).
void add_notes(proto_tree* t, proto_item* root, tvbuff_t* tvb, packet_info* pinfo, const std::vector<PacketNote>& notes) {
  for (const PacketNote& n : notes) {
    proto_item* it = root;
    if (n.field && t) {
      const int hf = n.field->fact == Fact::check ? check_field(n.field->kind, n.field->index) : fact_field(n.field->fact);
      switch (proto_registrar_get_ftype(hf)) {
        case FT_BOOLEAN: it = add_flag(t, tvb, hf); break;
        case FT_STRING: it = gen(proto_tree_add_string(t, hf, tvb, 0, 0, n.name)); break;
        default: it = gen(proto_tree_add_uint(t, hf, tvb, 0, 0, n.value)); break;
      }
      verdict(pinfo, it);
    }
    if (n.expert)
      expert_add_info_format(pinfo, it,
                             n.expert->fact == Fact::check ? check_expert(n.expert->kind, n.expert->index)
                                                           : fact_expert(n.expert->fact),
                             "%s", n.text.c_str());
  }
}

void render_request(tvbuff_t* tvb, packet_info* pinfo, proto_tree* t, const Verdict& v, const NoteContext& c) {
  if (!t) return add_notes(nullptr, nullptr, tvb, pinfo, request_notes(v, c));
  proto_item* seq = gen(proto_tree_add_string(t, ids.seq, tvb, 0, 0, seq_class_name(shown_seq(v, c))));
  proto_tree* st = proto_item_add_subtree(seq, ids.ett_seq);
  if (v.has_expected) gen(proto_tree_add_uint(st, ids.expected_psn, tvb, 0, 0, v.expected_psn));
  add_notes(st, seq, tvb, pinfo, request_notes(v, c));
  if (v.seq == SeqClass::out_of_order) gen(proto_tree_add_uint(st, ids.reorder_depth, tvb, 0, 0, v.gap));
  if (v.original_frame) gen(proto_tree_add_uint(st, ids.original_frame, tvb, 0, 0, v.original_frame));
  if (v.nak_frame) gen(proto_tree_add_uint(st, ids.nak_frame, tvb, 0, 0, v.nak_frame));
  if (v.seq == SeqClass::timeout_retransmission) gen(proto_tree_add_uint64(st, ids.quiet_ns, tvb, 0, 0, v.quiet_ns));
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

void render_response(tvbuff_t* tvb, packet_info* pinfo, proto_tree* t, const Verdict& v, const NoteContext& c) {
  const PacketSummary& p = v.pkt;
  if (!t) return add_notes(nullptr, nullptr, tvb, pinfo, response_notes(v, c));
  const Syndrome s = decode_syndrome(p.syndrome);
  proto_item* kind = gen(proto_tree_add_string(t, ids.ack_kind, tvb, 0, 0, response_kind(p, s)));
  proto_tree* at = proto_item_add_subtree(kind, ids.ett_ack);
  add_notes(at, kind, tvb, pinfo, response_notes(v, c));
  if (v.seq == SeqClass::duplicate) {
    gen(proto_tree_add_uint(at, ids.original_frame, tvb, 0, 0, v.original_frame));
    return;
  }
  if (p.has_aeth && s.kind == AckKind::rnr_nak) gen(proto_tree_add_uint(at, ids.rnr_timer_us, tvb, 0, 0, rnr_timer_us(s.value)));
  if (v.request_frame) {
    gen(proto_tree_add_uint(at, ids.request_frame, tvb, 0, 0, v.request_frame));
    gen(proto_tree_add_uint64(at, ids.rtt_ns, tvb, 0, 0, v.rtt_ns));
    gen(proto_tree_add_uint(at, ids.covered, tvb, 0, 0, v.covered));
  }
}

// One of the connection's addresses, and the hidden either-way field
// (like ip.addr): what the conversation table's filters name
// (taps/conversation_table.cpp).
void add_address(proto_tree* t, tvbuff_t* tvb, const Address& a, int hf4, int hf6) {
  if (a.len == 4) {
    ws_in4_addr v4;
    std::memcpy(&v4, a.bytes.data(), 4);
    gen(proto_tree_add_ipv4(t, hf4, tvb, 0, 0, v4));
    proto_item_set_hidden(gen(proto_tree_add_ipv4(t, ids.ip_addr, tvb, 0, 0, v4)));
  } else if (a.len == 16) {
    ws_in6_addr v6;
    std::memcpy(v6.bytes, a.bytes.data(), 16);
    gen(proto_tree_add_ipv6(t, hf6, tvb, 0, 0, &v6));
    proto_item_set_hidden(gen(proto_tree_add_ipv6(t, ids.ipv6_addr, tvb, 0, 0, &v6)));
  }
}

}  // namespace

proto_tree* render(tvbuff_t* tvb, packet_info* pinfo, proto_tree* tree, const Verdict& v, const StoredAnalysis& a) {
  const PacketSummary& p = v.pkt;
  const uint32_t qp = v.flow == kNoId ? 0 : a.flow_key(v.flow).qp;
  if (p.opcode == kOpcodeCnp) {
    // Wireshark 4.0 calls opcode 0x81 "Unknown OpCode".
    col_clear(pinfo->cinfo, COL_INFO);
    col_add_fstr(pinfo->cinfo, COL_INFO, "CNP QP=0x%06x", qp);
  }
  // Later events, known on later passes: a NAK taken back by its late
  // original, the recovery mode a QP showed after its first resend.
  const NoteContext c{qp, a.point_name(v.point),
                      v.nak_frame && session_events().nak_taken_back(v.nak_frame) != 0,
                      v.nak == NakCode::psn_sequence_error && !v.reorder_nak ? session_events().nak_taken_back(v.frame) : 0,
                      v.flow != kNoId && a.recovery_mode(v.flow) == RecoveryMode::selective};
  if (const char* tag = info_tag(v, shown_seq(v, c))) col_prepend_fstr(pinfo->cinfo, COL_INFO, "%s", tag);

  // Nobody looks at our items in most tshark runs: then add none but keep
  // the expert infos, which -z expert collects without a tree. What only
  // adds items is skipped: proto_tree_add_* cost 30-130 instructions even
  // on a null tree.
  proto_tree* root = wanted_tree(tree, ids.proto);
  proto_item* ti = root ? proto_tree_add_item(root, ids.proto, tvb, 0, 0, ENC_NA) : nullptr;
  proto_tree* t = proto_item_add_subtree(ti, ids.ett_roce);
  if (v.truncated) {
    expert_add_info(pinfo, ti, &ids.ei_truncated);
    return t;
  }
  if (v.untracked()) {
    if (v.first_unchecked) expert_add_info(pinfo, ti, &ids.ei_limit[size_t(v.beyond)]);
    return t;
  }
  if (t && v.stream != kNoId) {
    gen(proto_tree_add_uint(t, ids.stream, tvb, 0, 0, v.stream));
    // The connection's addresses as its flow key has them: the RoCE
    // packet's own, whatever encapsulates it.
    const FlowKey& k = a.flow_key(v.flow);
    add_address(t, tvb, k.src, ids.ip_src, ids.ipv6_src);
    add_address(t, tvb, k.dst, ids.ip_dst, ids.ipv6_dst);
  }
  if (t) {
    proto_item_append_text(gen(proto_tree_add_uint(t, ids.point, tvb, 0, 0, v.point)), " (%s)",
                           a.point_name(v.point).c_str());
    gen(proto_tree_add_string(t, ids.role, tvb, 0, 0, role_name(v.role)));
  }

  if (v.role == Role::request) render_request(tvb, pinfo, t, v, c);
  if (v.role == Role::response) render_response(tvb, pinfo, t, v, c);
  add_notes(t, ti, tvb, pinfo, cnp_notes(v, c));
  if (t) {
    if (v.role == Role::cnp) gen(proto_tree_add_uint(t, ids.cnp_qp, tvb, 0, 0, qp));
    if (p.fecn) add_flag(t, tvb, ids.fecn);
    if (p.becn) add_flag(t, tvb, ids.becn);
    gen(proto_tree_add_string(t, ids.icrc_status, tvb, 0, 0, icrc_name(p.icrc)));
  }
  add_notes(t, ti, tvb, pinfo, icrc_notes(v, c));
  add_notes(t, ti, tvb, pinfo, clock_notes(v, c));
  if (t && p.icrc == IcrcState::bad)
    if (const auto want = a.icrc_expected(v.frame)) gen(proto_tree_add_uint(t, ids.icrc_computed, tvb, 0, 0, *want));
  render_packet_pfc(tvb, pinfo, t, v, a);
  render_packet_qos(tvb, pinfo, t, v, a);
  render_packet_hop(tvb, pinfo, t, v, a);
  return t;
}

}  // namespace roceshark::glue
