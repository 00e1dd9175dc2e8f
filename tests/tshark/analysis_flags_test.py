# SPDX-License-Identifier: GPL-2.0-or-later
"""roce.analysis.flags (like tcp.analysis.flags) selects exactly the frames
that carry a verdict field: any field of the check catalogue
(build/checks.json) or one of the per-packet facts below, on captures with
sequence, PFC, QoS, DCBX, hop and ICMP verdicts; clean.pcapng has none.
Second pass (-2): a hop loss is known there only."""
import json
import os

import rslib

# The facts' fields (epan-ext/analysis/packet_notes.h Fact, and PFC's
# unattributed pause): verdicts that are not catalogue checks.
FACT_FIELDS = [
    "roce.seq.qp_reuse", "roce.seq.gap", "roce.seq.ambiguous", "roce.seq.selective_resend",
    "roce.seq.read_retry", "roce.seq.gbn_resend", "roce.seq.rnr_retry", "roce.ack.duplicate",
    "roce.ack.ambiguous", "roce.cnp", "roce.clock_back", "roce.pfc.unattributed",
]

CAPTURES = ["gbn", "rnr", "pfc_storm", "pfc_bad", "qos_remark", "qos_pcp_mismatch", "dcbx", "mp_drop", "mp_mtu",
            "mp_remark", "mp_mtu_icmp", "demo", "clean"]


def verdict_fields():
    with open(os.path.join(rslib.BUILD, "checks.json")) as f:
        catalogue = json.load(f)
    names = {fd["abbrev"] for c in catalogue["checks"] for fd in c["fields"]}
    return sorted(names) + FACT_FIELDS


def selected(capture, flt):
    out = rslib.tshark("-n", "-2", "-r", capture, "-Y", flt, "-T", "fields", "-e", "frame.number")
    return {int(n) for n in out.split()}


def test(_args):
    any_verdict = " || ".join(verdict_fields())
    for name in CAPTURES:
        capture = rslib.capture_path(name)
        flagged = selected(capture, "roce.analysis.flags")
        with_verdict = selected(capture, any_verdict)
        if flagged != with_verdict:
            raise rslib.Failure(f"{name}: flagged without a verdict field {sorted(flagged - with_verdict)[:10]}, "
                                f"a verdict field without the flag {sorted(with_verdict - flagged)[:10]}")
        if name == "clean" and flagged:
            raise rslib.Failure(f"clean: {len(flagged)} frames flagged")
        if name != "clean" and not flagged:
            raise rslib.Failure(f"{name}: no frame flagged")
        print(f"{name}: {len(flagged)} frames flagged")


rslib.main(test)
