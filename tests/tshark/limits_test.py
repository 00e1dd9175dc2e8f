# SPDX-License-Identifier: GPL-2.0-or-later
"""Every limit that bounds memory says so when it is reached: ten items of a
hostile capture (bench/hostile_capture.py) against a limit of four. The six
frames past it are counted exactly in the JSON `limits`, the `roce,qp` note
and the triage; the health verdict is INCOMPLETE, never PASS; the first
frame past the limit, and only it, carries the limit's expert info; and the
frames within the limit are still analysed."""
import json
import os
import re
import sys
import tempfile

import rslib

sys.path.insert(0, os.path.join(rslib.ROOT, "bench"))
import hostile_capture  # noqa: E402

ITEMS, LIMIT = 10, 4
# limit name: (capture kind, expert info, frames per item, the first frame past the limit)
CASES = {
    "max_flows": ("qps", "roce.flow_limit.expert", 1, LIMIT + 1),
    "max_points": ("points", "roce.point_limit.expert", 1, LIMIT + 1),
    "max_flow_points": ("points", "roce.flow_point_limit.expert", 1, LIMIT + 1),
    "max_pfc_ports": ("pfc", "roce.pfc_port_limit.expert", 1, LIMIT + 1),
}


def check(tmp, name, kind, expert, per_item, first_past):
    capture = os.path.join(tmp, f"{kind}.pcapng")
    if not os.path.exists(capture):
        hostile_capture.write(kind, ITEMS, capture)
    pref = ("-o", f"roce.{name}:{LIMIT}")
    beyond = (ITEMS - LIMIT) * per_item
    doc = json.loads(rslib.tshark("-n", "-q", *pref, "-r", capture, "-z", "roce,report"))
    want = [{"name": name, "preference": f"roce.{name}", "value": LIMIT, "packets_beyond": beyond}]
    if doc["limits"] != want:
        raise rslib.Failure(f"{name}: JSON limits {doc['limits']}, expected {want}")
    if doc["triage"]["health"]["verdict"] != "INCOMPLETE":
        raise rslib.Failure(f"{name}: health verdict {doc['triage']['health']['verdict']} with a limit reached")
    text = rslib.tshark("-n", "-q", *pref, "-r", capture, "-z", "roce,triage", "-z", "roce,qp")
    if "Overall: INCOMPLETE" not in text or "Health: PASS" in text \
            or not re.search(rf"Limit: +roce\.{name} \({LIMIT}\) was reached: {beyond} ", text):
        raise rslib.Failure(f"{name}: the triage does not say the limit was reached:\n{text}")
    if kind != "pfc" and f"Note: {beyond} packet(s) past roce.{name} were not analysed." not in text:
        raise rslib.Failure(f"{name}: the roce,qp table does not count the packets past the limit:\n{text}")
    flagged = rslib.tshark("-n", *pref, "-r", capture, "-Y", expert, "-T", "fields", "-e", "frame.number").split()
    if flagged != [str(first_past)]:
        raise rslib.Failure(f"{name}: {expert} on frames {flagged}, expected only frame {first_past}")
    # Within the limit the analysis goes on: the first frames still get their verdicts.
    field = "roce.pfc.priority" if kind == "pfc" else "roce.role"
    analysed = rslib.tshark("-n", *pref, "-r", capture, "-Y", field, "-T", "fields", "-e", "frame.number").split()
    if analysed != [str(i) for i in range(1, first_past)]:
        raise rslib.Failure(f"{name}: frames analysed {analysed}, expected 1-{first_past - 1}")
    # No limit within it: a default run of the same capture reaches none.
    if json.loads(rslib.tshark("-n", "-q", "-r", capture, "-z", "roce,report"))["limits"]:
        raise rslib.Failure(f"{name}: {ITEMS} items reach a default limit")


def run(argv):
    with tempfile.TemporaryDirectory() as tmp:
        for name, case in CASES.items():
            check(tmp, name, *case)
    # Zero is not a limit: it would analyse nothing and call the capture empty.
    for name in CASES:
        p = rslib.subprocess.run([rslib.RS_TSHARK, "--build", rslib.BUILD, "-n", "-q", "-o", f"roce.{name}:0", "-r",
                                  rslib.capture_path("clean"), "-z", "roce,report"], capture_output=True, text=True)
        if f"roce.{name}" not in p.stderr or "'0'" not in p.stderr:
            raise rslib.Failure(f"roce.{name}:0 was not rejected with an error naming it:\n{p.stderr}")


rslib.main(run)
