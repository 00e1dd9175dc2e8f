// SPDX-License-Identifier: GPL-2.0-or-later
// What the glue files share: registration entry points, field ids, the
// per-file engine session.
#pragma once
#include <epan/expert.h>
#include <epan/packet.h>

#include "epan-ext/analysis/analyzer.h"
#include "epan-ext/analysis/stored_analysis.h"
#include "epan-ext/common/checks.h"
#include "epan-ext/analysis/tap_record.h"
#include "plugins/compat/ws_compat.h"

namespace roceshark::glue {

void register_protocol();
void register_handoff();
void register_taps();  // taps/ and ui-stats/
void register_conversation_table();  // Statistics > Conversations and Endpoints, -z conv,roce (taps/)

// Header field, subtree and expert ids; Wireshark keeps pointers to them.
struct Ids {
  int proto = -1;
  int tap = -1;

  int stream = -1, point = -1, role = -1, analysis_flags = -1;
  // The connection's addresses (its flow key's): IPv4, or IPv6 / RoCEv1 GID
  int ip_src = -1, ip_dst = -1, ip_addr = -1, ipv6_src = -1, ipv6_dst = -1, ipv6_addr = -1;
  int seq = -1, expected_psn = -1, gap = -1, gbn_resend = -1, rnr_retry = -1, original_frame = -1, nak_frame = -1,
      quiet_ns = -1, qp_reuse = -1, reorder_depth = -1, selective_resend = -1, read_retry = -1,
      ambiguous = -1;
  int ack_kind = -1, rnr_timer_us = -1, dup_ack = -1, rtt_ns = -1, request_frame = -1, covered = -1,
      ack_ambiguous = -1;
  int cnp = -1, cnp_qp = -1, fecn = -1, becn = -1, clock_back = -1;
  int icrc_status = -1, icrc_computed = -1;
  // PFC, on PFC frames and on the RoCE packets they hold
  int pfc_priority = -1, pfc_pause_ns = -1, pfc_xon = -1, pfc_storm_frame = -1, pfc_paused = -1, pfc_pause_frame = -1,
      pfc_stall_ns = -1, pfc_unattributed = -1, priority = -1;
  // QoS, on RoCE packets and on LLDP frames with DCBX
  int qos_priority = -1, qos_dscp = -1, qos_pcp = -1, qos_pcp_check = -1, qos_learning = -1;
  int dcbx_pfc_enabled = -1, dcbx_app = -1, dcbx_ets = -1;
  // Multi-point: the same packet at an earlier point
  int hop_prev_point = -1, hop_prev_point_name = -1, hop_prev_frame = -1, hop_latency_ns = -1, hop_queue_ns = -1,
      hop_ce_set = -1, hop_ttl_delta = -1;

  gint ett_roce = -1, ett_seq = -1, ett_ack = -1, ett_pfc = -1, ett_pfc_class = -1, ett_qos = -1, ett_dcbx = -1,
       ett_hop = -1;

  expert_field ei_gap = EI_INIT, ei_gbn = EI_INIT, ei_rnr_retry = EI_INIT, ei_dup_ack = EI_INIT, ei_cnp = EI_INIT,
               ei_icrc_unchecked = EI_INIT, ei_clock_back = EI_INIT, ei_qp_reuse = EI_INIT, ei_truncated = EI_INIT,
               ei_selective = EI_INIT, ei_read_retry = EI_INIT, ei_ambiguous = EI_INIT, ei_response_gap = EI_INIT,
               ei_pfc_unattributed = EI_INIT, ei_ack_ambiguous = EI_INIT;
  // The first frame past each limit (epan-ext/common/limits.h), by LimitKind.
  expert_field ei_limit[kLimitKinds] = {EI_INIT, EI_INIT, EI_INIT, EI_INIT, EI_INIT};
};
extern Ids ids;

// The i-th field and expert info of a catalogue row (register_checks.cpp).
int check_field(checks::Kind k, size_t i = 0);
expert_field* check_expert(checks::Kind k, size_t i = 0);

// roce.analysis.flags, like tcp.analysis.flags: every item of a verdict
// field (a catalogue row's, a fact's) is added through verdict(), which
// marks the frame; the postdissector then adds the flag to a marked frame,
// so the flag follows the tree and no second rule decides it (dissect.cpp).
proto_item* verdict(packet_info* pinfo, proto_item* it);

// The engine for the open capture file: made by the init routine, dropped
// by the cleanup routine.
StoredAnalysis& session();
const EventLog& session_events();  // what session() learned after the frames' verdicts
void session_reset(const Config& cfg);
void session_drop();
// The policy the preferences give, for reports on files with no RoCE.
const qos::Policy& configured_policy();

}  // namespace roceshark::glue
