// SPDX-License-Identifier: GPL-2.0-or-later
// Registration of the `roce` postdissector: fields, expert infos,
// preferences (register_prefs.cpp), the tap, and the per-file init and cleanup.
#include <epan/expert.h>
#include <epan/tap.h>

#include "plugins/dissect.h"
#include "plugins/register.h"
#include "plugins/roce.h"

namespace roceshark::glue {

Ids ids;

namespace {

const true_false_string kPresent = {"Yes", "No"};

void init_file() {
  session_reset(settings().cfg);
  set_check_icrc(settings().check_icrc);
}

void register_fields() {
  static hf_register_info hf[] = {
      {&ids.stream, {"Stream index", "roce.qp.stream", FT_UINT32, BASE_DEC, nullptr, 0,
                     "One RC connection (both directions), like tcp.stream", HFILL}},
      {&ids.ip_src, {"Source address", "roce.ip.src", FT_IPv4, BASE_NONE, nullptr, 0,
                     "The connection's packet's own IPv4 source (the inner one when mirrored)", HFILL}},
      {&ids.ip_dst, {"Destination address", "roce.ip.dst", FT_IPv4, BASE_NONE, nullptr, 0,
                     "The connection's packet's own IPv4 destination (the inner one when mirrored)", HFILL}},
      {&ids.ip_addr, {"Address", "roce.ip.addr", FT_IPv4, BASE_NONE, nullptr, 0,
                      "roce.ip.src or roce.ip.dst (hidden, like ip.addr)", HFILL}},
      {&ids.ipv6_src, {"Source address", "roce.ipv6.src", FT_IPv6, BASE_NONE, nullptr, 0,
                       "The connection's packet's own IPv6 source, or its RoCEv1 source GID", HFILL}},
      {&ids.ipv6_dst, {"Destination address", "roce.ipv6.dst", FT_IPv6, BASE_NONE, nullptr, 0,
                       "The connection's packet's own IPv6 destination, or its RoCEv1 destination GID", HFILL}},
      {&ids.ipv6_addr, {"Address", "roce.ipv6.addr", FT_IPv6, BASE_NONE, nullptr, 0,
                        "roce.ipv6.src or roce.ipv6.dst (hidden, like ipv6.addr)", HFILL}},
      {&ids.point, {"Capture point", "roce.point", FT_UINT32, BASE_DEC, nullptr, 0,
                    "Capture point id: the pcapng interface", HFILL}},
      {&ids.analysis_flags, {"RoCE analysis flags", "roce.analysis.flags", FT_NONE, BASE_NONE, nullptr, 0,
                             "This frame has a RoCE verdict: any roce.* problem or sequence field (like "
                             "tcp.analysis.flags)",
                             HFILL}},
      {&ids.role, {"Role", "roce.role", FT_STRING, BASE_NONE, nullptr, 0,
                   "request, response or cnp", HFILL}},
      {&ids.seq, {"Sequence", "roce.seq", FT_STRING, BASE_NONE, nullptr, 0,
                  "Sequence verdict for a request at this point", HFILL}},
      {&ids.expected_psn, {"Expected PSN", "roce.seq.expected_psn", FT_UINT32, BASE_DEC, nullptr, 0,
                           "The PSN this point expected next on this flow", HFILL}},
      {&ids.gap, {"Missing PSNs", "roce.seq.gap", FT_UINT32, BASE_DEC, nullptr, 0,
                  "PSNs skipped at this point before this packet", HFILL}},
      {&ids.gbn_resend, {"Go-back-N resend", "roce.seq.gbn_resend", FT_BOOLEAN, BASE_NONE, TFS(&kPresent), 0,
                         "Resent after a PSN sequence error NAK", HFILL}},
      {&ids.rnr_retry, {"RNR retry", "roce.seq.rnr_retry", FT_BOOLEAN, BASE_NONE, TFS(&kPresent), 0,
                        "Resent after an RNR NAK", HFILL}},
      {&ids.original_frame, {"Original frame", "roce.seq.original_frame", FT_FRAMENUM, BASE_NONE,
                             FRAMENUM_TYPE(FT_FRAMENUM_RETRANS_PREV), 0, "First copy of this PSN at this point",
                             HFILL}},
      {&ids.nak_frame, {"NAK frame", "roce.seq.nak_frame", FT_FRAMENUM, BASE_NONE, FRAMENUM_TYPE(FT_FRAMENUM_REQUEST),
                        0, "The NAK this resend answers", HFILL}},
      {&ids.quiet_ns, {"Quiet period (ns)", "roce.seq.quiet_ns", FT_UINT64, BASE_DEC, nullptr, 0,
                       "Silence on this flow at this point before the retransmission", HFILL}},
      {&ids.reorder_depth, {"Reorder depth", "roce.seq.reorder_depth", FT_UINT32, BASE_DEC, nullptr, 0,
                            "PSNs this late packet arrived behind the highest PSN seen at this point", HFILL}},
      {&ids.selective_resend, {"Selective resend", "roce.seq.selective_resend", FT_BOOLEAN, BASE_NONE,
                               TFS(&kPresent), 0,
                               "Resent after a PSN sequence error NAK by a requester that resends only the "
                               "NAKed PSNs (selective repeat)",
                               HFILL}},
      {&ids.read_retry, {"READ retry", "roce.seq.read_retry", FT_BOOLEAN, BASE_NONE, TFS(&kPresent), 0,
                         "A READ request re-issued at a PSN an earlier READ's responses used", HFILL}},
      {&ids.ambiguous, {"Ambiguous", "roce.seq.ambiguous", FT_BOOLEAN, BASE_NONE, TFS(&kPresent), 0,
                        "Nothing in the capture tells a resend from a mirror copy or a late original here; "
                        "counted as a retransmission",
                        HFILL}},
      {&ids.qp_reuse, {"QP reuse", "roce.seq.qp_reuse", FT_BOOLEAN, BASE_NONE, TFS(&kPresent), 0,
                       "A new connection on this QP number restarted the PSN sequence", HFILL}},
      {&ids.ack_kind, {"Response", "roce.ack.kind", FT_STRING, BASE_NONE, nullptr, 0,
                       "ACK, NAK, RNR NAK or READ response", HFILL}},
      {&ids.rnr_timer_us, {"RNR timer (us)", "roce.ack.rnr_timer_us", FT_UINT32, BASE_DEC, nullptr, 0,
                           "How long the requester must wait before retrying", HFILL}},
      {&ids.dup_ack, {"Duplicate ACK", "roce.ack.duplicate", FT_BOOLEAN, BASE_NONE, TFS(&kPresent), 0,
                      "ACK that does not advance past the previous ACK's PSN", HFILL}},
      {&ids.rtt_ns, {"ACK RTT (ns)", "roce.ack.rtt_ns", FT_UINT64, BASE_DEC, nullptr, 0,
                     "From the newest request with AckReq this response covers", HFILL}},
      {&ids.request_frame, {"Request frame", "roce.ack.request_frame", FT_FRAMENUM, BASE_NONE,
                            FRAMENUM_TYPE(FT_FRAMENUM_ACK), 0, "The newest request this response covers", HFILL}},
      {&ids.covered, {"Requests covered", "roce.ack.covered", FT_UINT32, BASE_DEC, nullptr, 0,
                      "Requests with AckReq this response is the first to cover (coalesced ACK)", HFILL}},
      {&ids.ack_ambiguous, {"Ambiguous pairing", "roce.ack.ambiguous", FT_BOOLEAN, BASE_NONE, TFS(&kPresent), 0,
                            "Its PSN fits the requests of more than one QP between these hosts, and nothing tells "
                            "which it answers: credited to none",
                            HFILL}},
      {&ids.cnp, {"CNP", "roce.cnp", FT_BOOLEAN, BASE_NONE, TFS(&kPresent), 0,
                  "Congestion Notification Packet (BTH opcode 0x81)", HFILL}},
      {&ids.cnp_qp, {"CNP target QP", "roce.cnp.qp", FT_UINT32, BASE_HEX, nullptr, 0,
                     "The QP whose sender must slow down", HFILL}},
      {&ids.clock_back, {"Clock ran backwards", "roce.clock_back", FT_BOOLEAN, BASE_NONE, TFS(&kPresent), 0,
                         "Stamped before an earlier frame at this capture point (docs/analysis.md)", HFILL}},
      {&ids.fecn, {"FECN", "roce.fecn", FT_BOOLEAN, BASE_NONE, TFS(&kPresent), 0,
                   "BTH Forward Explicit Congestion Notification", HFILL}},
      {&ids.becn, {"BECN", "roce.becn", FT_BOOLEAN, BASE_NONE, TFS(&kPresent), 0,
                   "BTH Backward Explicit Congestion Notification", HFILL}},
      {&ids.icrc_status, {"ICRC", "roce.icrc_status", FT_STRING, BASE_NONE, nullptr, 0,
                          "good, bad, not captured, or unchecked", HFILL}},
      {&ids.icrc_computed, {"ICRC computed", "roce.icrc_computed", FT_UINT32, BASE_HEX, nullptr, 0,
                            "The ICRC this packet should carry (wire byte order)", HFILL}},
  };
  static gint* ett[] = {&ids.ett_roce, &ids.ett_seq, &ids.ett_ack};
  static ei_register_info ei[] = {
      {&ids.ei_gap, {"roce.seq.gap.expert", PI_SEQUENCE, PI_WARN, "PSN gap: packets missing at this point", EXPFILL}},
      {&ids.ei_gbn, {"roce.seq.gbn_resend.expert", PI_SEQUENCE, PI_NOTE, "Go-back-N resend after NAK", EXPFILL}},
      {&ids.ei_rnr_retry, {"roce.seq.rnr_retry.expert", PI_SEQUENCE, PI_NOTE, "Retry after RNR NAK", EXPFILL}},
      {&ids.ei_dup_ack, {"roce.ack.duplicate.expert", PI_SEQUENCE, PI_NOTE, "Duplicate ACK", EXPFILL}},
      {&ids.ei_cnp, {"roce.cnp.expert", PI_SEQUENCE, PI_CHAT, "Congestion Notification Packet", EXPFILL}},
      {&ids.ei_icrc_unchecked, {"roce.icrc_unchecked.expert", PI_CHECKSUM, PI_CHAT,
                                "ICRC not captured (snaplen): not checked on this flow", EXPFILL}},
      {&ids.ei_clock_back, {"roce.clock_back.expert", PI_SEQUENCE, PI_WARN,
                            "Stamped before an earlier frame at this point: the capture's clock ran backwards",
                            EXPFILL}},
      {&ids.ei_selective, {"roce.seq.selective_resend.expert", PI_SEQUENCE, PI_NOTE,
                           "Selective resend after NAK", EXPFILL}},
      {&ids.ei_read_retry, {"roce.seq.read_retry.expert", PI_SEQUENCE, PI_WARN,
                            "READ retry: a READ re-issued for responses that did not arrive", EXPFILL}},
      {&ids.ei_ambiguous, {"roce.seq.ambiguous.expert", PI_SEQUENCE, PI_NOTE,
                           "Ambiguous: a resend, or a mirror copy / late original; the capture cannot tell",
                           EXPFILL}},
      {&ids.ei_ack_ambiguous, {"roce.ack.ambiguous.expert", PI_SEQUENCE, PI_NOTE,
                               "Ambiguous pairing: the response fits more than one QP's requests; credited to none",
                               EXPFILL}},
      {&ids.ei_response_gap, {"roce.seq.response_gap.expert", PI_SEQUENCE, PI_WARN,
                              "READ responses missing at this point", EXPFILL}},
      {&ids.ei_qp_reuse, {"roce.seq.qp_reuse.expert", PI_SEQUENCE, PI_NOTE, "QP reuse: new connection", EXPFILL}},
      {&ids.ei_truncated, {"roce.truncated_bth", PI_MALFORMED, PI_ERROR,
                           "RoCE packet too short for its BTH: not analysed", EXPFILL}},
      {&ids.ei_limit[size_t(LimitKind::flows)],
       {"roce.flow_limit.expert", PI_UNDECODED, PI_WARN,
        "Flow limit reached (roce.max_flows): later new flows are not analysed", EXPFILL}},
      {&ids.ei_limit[size_t(LimitKind::points)],
       {"roce.point_limit.expert", PI_UNDECODED, PI_WARN,
        "Capture point limit reached (roce.max_points): frames at later new points are not analysed", EXPFILL}},
      {&ids.ei_limit[size_t(LimitKind::flow_points)],
       {"roce.flow_point_limit.expert", PI_UNDECODED, PI_WARN,
        "(Flow, point) limit reached (roce.max_flow_points): later new flows at a point are not analysed", EXPFILL}},
      {&ids.ei_limit[size_t(LimitKind::pfc_ports)],
       {"roce.pfc_port_limit.expert", PI_UNDECODED, PI_WARN,
        "Pausing port limit reached (roce.max_pfc_ports): PFC from later new (point, MAC) ports is not analysed",
        EXPFILL}},
  };

  ids.proto = proto_register_protocol("RoCE Analysis", "RoCE", "roce");
  proto_register_field_array(ids.proto, hf, array_length(hf));
  proto_register_subtree_array(ett, array_length(ett));
  expert_register_field_array(expert_register_protocol(ids.proto), ei, array_length(ei));
  register_pfc_fields();
  register_qos_fields();
  register_hop_fields();
  register_check_fields();
}

}  // namespace

void register_protocol() {
  register_fields();
  register_preferences();
  ids.tap = register_tap("roce");
  register_conversation_table();
  register_postdissector(create_dissector_handle(dissect_roce, ids.proto));
  register_init_routine(init_file);
  register_cleanup_routine(session_drop);
}

void register_handoff() {
  apply_preferences();  // the defaults, before any file
}

}  // namespace roceshark::glue
