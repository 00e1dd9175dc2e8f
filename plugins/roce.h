// SPDX-License-Identifier: GPL-2.0-or-later
// What the glue files share: registration entry points, field ids, the
// per-file engine session.
#pragma once
#include <epan/expert.h>
#include <epan/packet.h>

#include "epan-ext/analyzer.h"
#include "epan-ext/tap_record.h"

namespace roceshark::glue {

void register_protocol();
void register_handoff();
void register_taps();  // taps/ and ui-stats/

// Header field, subtree and expert ids; Wireshark keeps pointers to them.
struct Ids {
  int proto = -1;
  int tap = -1;

  int stream = -1, point = -1, role = -1;
  int seq = -1, expected_psn = -1, gap = -1, retransmission = -1, gbn_resend = -1, timeout_retransmission = -1,
      rnr_retry = -1, duplicate = -1, original_frame = -1, nak_frame = -1, quiet_ns = -1, qp_reuse = -1;
  int ack_kind = -1, nak = -1, rnr_timer_us = -1, dup_ack = -1, rtt_ns = -1, request_frame = -1, covered = -1;
  int cnp = -1, cnp_qp = -1, fecn = -1, becn = -1;
  int icrc_status = -1, icrc_bad = -1, icrc_computed = -1;

  gint ett_roce = -1, ett_seq = -1, ett_ack = -1;

  expert_field ei_gap = EI_INIT, ei_retransmission = EI_INIT, ei_gbn = EI_INIT, ei_timeout = EI_INIT,
               ei_rnr_retry = EI_INIT, ei_duplicate = EI_INIT, ei_nak = EI_INIT, ei_nak_error = EI_INIT,
               ei_rnr_nak = EI_INIT, ei_dup_ack = EI_INIT, ei_cnp = EI_INIT, ei_icrc_bad = EI_INIT,
               ei_icrc_unchecked = EI_INIT, ei_qp_reuse = EI_INIT, ei_truncated = EI_INIT,
               ei_untracked = EI_INIT;
};
extern Ids ids;

// The engine for the open capture file: made by the init routine, dropped
// by the cleanup routine.
Analyzer& session();
void session_reset(const Config& cfg);
void session_drop();

}  // namespace roceshark::glue
