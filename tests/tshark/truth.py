# SPDX-License-Identifier: GPL-2.0-or-later
"""Every verdict the plugin gives on a scenario matches what the generator
intended (captures/<scenario>.truth.tsv): the independent oracle.
  truth.py SCENARIO [-- TSHARK OPTIONS]   (e.g. the link speeds the scenario uses)"""
import csv
import os

import rslib

SEQ = {
    "in-order": "in-order",
    "gbn": "go-back-N resend",
    "timeout": "timeout retransmission",
    "rnr-retry": "RNR retry",
    "retransmission": "retransmission",
    "duplicate": "duplicate",
}
NAK = {
    "nak:seq": "PSN sequence error",
    "nak:rnr": "RNR",
    "nak:inv-req": "invalid request",
    "nak:rem-access": "remote access error",
    "nak:rem-op": "remote operational error",
}


def pause_fields(t, frame_numbers):
    """Whether the generator held this RoCE frame behind a pause at its point."""
    paused = t.get("paused", "-")
    if paused not in ("0", "1"):
        return {}
    want = {"roce.pfc.paused": "1" if paused == "1" else ""}
    if frame_numbers and paused == "1" and t.get("pause_frame", "-") not in ("-", ""):
        want["roce.pfc.pause_frame"] = t["pause_frame"]
    return want


def expected(t, frame_numbers=True):
    """What the plugin's fields must say for one truth row: {field: value}.
    frame_numbers=False leaves out fields that name other frames, for files
    numbered differently from the truth file."""
    v, mirror = t["verdict"], t["cause"] == "mirror"
    if t["kind"] in ("pfc", "lldp"):
        return {"roce.pfc.xon": "1"} if v == "pfc-xon" else {}
    want = pause_fields(t, frame_numbers)
    if t["kind"] == "req":
        if v.startswith("gap:"):
            return {**want, "roce.seq": "gap", "roce.seq.gap": v[4:]}
        return {**want, "roce.seq": SEQ[v]}
    if mirror:
        return {**want, "roce.seq.duplicate": "1"}
    if v == "cnp":
        return {"roce.role": "cnp", "roce.cnp": "1"}
    if v.startswith("cm-"):
        return {"roce.role": "datagram"}
    want["roce.role"] = "response"
    if v == "readresp":
        want["roce.ack.kind"] = "READ response"
    elif v in ("ack", "dup-ack"):
        want["roce.ack.kind"] = "ACK"
        want["roce.ack.duplicate"] = "1" if v == "dup-ack" else ""
    elif v in NAK:
        want["roce.ack.nak"] = NAK[v]
    else:
        raise rslib.Failure(f"unknown truth verdict {v!r}")
    if frame_numbers and t.get("request_frame", "-") not in ("-", ""):
        want["roce.ack.request_frame"] = t["request_frame"]
    return want


def load(scenario):
    with open(os.path.join(rslib.CAPTURES, scenario + ".truth.tsv")) as f:
        return list(csv.DictReader(f, delimiter="\t"))


def run(argv):
    options = argv[argv.index("--") + 1:] if "--" in argv else []
    scenario = argv[0]
    truth = load(scenario)
    got = {r["frame.number"]: r for r in rslib.rows(rslib.fields(rslib.capture_path(scenario), *options))}
    if len(got) != len(truth):
        raise rslib.Failure(f"{len(got)} frames in the capture, {len(truth)} in the truth file")
    mismatches = []
    for t in truth:
        row = got[t["frame"]]
        for field, value in expected(t).items():
            if row[field] != value:
                mismatches.append(f"frame {t['frame']} ({t['point']} {t['kind']} psn {t['psn']} "
                                  f"verdict {t['verdict']} cause {t['cause']}): {field} is {row[field]!r}, "
                                  f"want {value!r}")
    if mismatches:
        raise rslib.Failure(f"{len(mismatches)} mismatch(es) in {scenario}:\n" + "\n".join(mismatches[:40]))
    print(f"{scenario}: {len(truth)} frames match the generator's intent")


if __name__ == "__main__":
    rslib.main(run)
