# SPDX-License-Identifier: GPL-2.0-or-later
"""Every verdict the plugin gives on a scenario matches what the generator
intended (captures/<scenario>.truth.tsv): the independent oracle.
  truth.py SCENARIO [-- TSHARK OPTIONS]   (e.g. the link speeds the scenario uses)
Runs tshark with -2, so that the fields only a later pass knows
(rslib.LATER_PASS_FIELDS) are checked too; twopass.py shows the rest is the
same in one pass."""
import collections
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
    "selective": "selective resend",
    "read-retry": "READ retry",
}
NAK = {
    "nak:seq": "PSN sequence error",
    "nak:rnr": "RNR",
    "nak:inv-req": "invalid request",
    "nak:rem-access": "remote access error",
    "nak:rem-op": "remote operational error",
}


# Not in rslib.FIELDS (the goldens' columns): the truth tests ask for it.
PAIR_AMBIGUOUS = "roce.ack.ambiguous"


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
    if t["kind"] in ("pfc", "lldp", "besteffort"):  # besteffort: TCP cross traffic, no RoCE verdict
        return {"roce.pfc.xon": "1"} if v == "pfc-xon" else {}
    if t["kind"] == "icmp":  # the router dropped the packet it quotes: its MTU is below it
        return {"roce.mtu.icmp_mtu": dict(n.split("=") for n in t["note"].split(";"))["mtu"]}
    want = pause_fields(t, frame_numbers)
    if t["kind"] == "req":
        if v.startswith("gap:"):
            return {**want, "roce.seq": "gap", "roce.seq.gap": v[4:]}
        if v.startswith("ooo:"):
            return {**want, "roce.seq": "out-of-order", "roce.seq.reorder_depth": v[4:]}
        # A selective QP's first resend looks like go-back-N on its own; with
        # -2 the later packets that show the mode are known.
        if v == "gbn" and "selective-later" in t["note"].split(";"):
            v = "selective"
        return {**want, "roce.seq": SEQ[v], "roce.seq.ambiguous": ""}
    if mirror:
        return {**want, "roce.seq.duplicate": "1"}
    if v == "cnp":
        return {"roce.role": "cnp", "roce.cnp": "1"}
    if v.startswith("cm-"):
        return {"roce.role": "datagram"}
    want["roce.role"] = "response"
    if v == "readresp" or v.startswith("readresp-gap:"):
        want["roce.ack.kind"] = "READ response"
        want["roce.seq.gap"] = v[len("readresp-gap:"):] if v != "readresp" else ""
    elif v in ("ack", "dup-ack"):
        want["roce.ack.kind"] = "ACK"
        want["roce.ack.duplicate"] = "1" if v == "dup-ack" else ""
    elif v in NAK:
        want["roce.ack.nak"] = NAK[v]
        if v == "nak:seq":  # a NAK for a PSN that had already arrived here out of order
            want["roce.seq.reorder_nak"] = "1" if "reorder" in t["note"].split(";") else ""
    else:
        raise rslib.Failure(f"unknown truth verdict {v!r}")
    # A response whose PSN fits more than one QP's requests is credited to none.
    ambiguous = "pair-ambiguous" in t["note"].split(";")
    want[PAIR_AMBIGUOUS] = "1" if ambiguous else ""
    if ambiguous:
        want["roce.ack.request_frame"] = ""
        want["roce.ack.rtt_ns"] = ""
    elif frame_numbers and t.get("request_frame", "-") not in ("-", ""):
        want["roce.ack.request_frame"] = t["request_frame"]
    return want


def hop_expected(truth, estimate):
    """{frame: {field: value}} for the multi-point fields, from the generator's
    packet_id (one per transmission, the same at every point), true time
    (path order) and lost_after. A copy's previous point is the nearest
    upstream one that saw it. Where the file holds a transmission's copies
    out of path order (a point's clock is ahead by more than the hop), a
    look back cannot see the nearer copy yet, and before traffic both ways
    shows the order only the timestamps tell it: any copy earlier in the file
    will do there (docs/multipoint.md). With estimated clocks the latency is
    checked against true time within the estimate's error."""
    by_id = collections.defaultdict(list)
    for t in truth:
        if t.get("packet_id", "-") != "-" and t["cause"] != "mirror" and t["kind"] != "besteffort":
            by_id[t["packet_id"]].append(t)
    want = {}
    for copies in by_id.values():
        in_time = sorted(copies, key=lambda t: int(t["true_ts_ns"]))
        in_file = sorted(copies, key=lambda t: int(t["frame"]))
        ordered = [t["frame"] for t in in_time] == [t["frame"] for t in in_file]
        for i, t in enumerate(in_time):
            w = {"roce.hop.lost_after": "1" if t.get("lost_after") == "1" else ""}
            if i == 0:
                w["roce.hop.prev_frame"] = ""
            elif ordered:
                prev = in_time[i - 1]
                w["roce.hop.prev_frame"] = prev["frame"]
                w["roce.hop.prev_point_name"] = prev["point"]
                true_ns = int(t["true_ts_ns"]) - int(prev["true_ts_ns"])
                stamped_ns = int(t["ts_ns"]) - int(prev["ts_ns"])
                w["roce.hop.latency_ns"] = ("~", true_ns) if estimate else str(stamped_ns)
            else:
                w["roce.hop.prev_frame"] = ("in", {u["frame"] for u in in_file if int(u["frame"]) < int(t["frame"])} | {""})
            want[t["frame"]] = w
    return want


# Estimated clocks: how far a latency may be from true time (the jitter of
# mp_clock's hops, both ways, before the estimate has seen its minimum).
ESTIMATE_ERROR_NS = 1000


def matches(got, value):
    if isinstance(value, str):
        return got == value
    how, arg = value
    if how == "in":
        return got in arg
    return got != "" and abs(int(got) - arg) <= ESTIMATE_ERROR_NS


def scenario_clocks(scenario):
    """{point: offset_ns} from the scenario's `clock POINT OFFSET` lines."""
    units = {"ns": 1, "us": 1000, "ms": 1000000}
    clocks = {}
    with open(os.path.join(rslib.CAPTURES, "scenarios", scenario + ".scn")) as f:
        for line in f:
            words = line.split("#")[0].split()
            if len(words) == 3 and words[0] == "clock":
                number = words[2].rstrip("nsum")
                clocks[words[1]] = float(number) * units[words[2][len(number):]]
    return clocks


def check_offsets(scenario, options):
    """The estimated clock offsets (-z roce,hops) bracket the offsets the scenario set."""
    clocks = scenario_clocks(scenario)
    text = rslib.tshark("-n", "-q", *options, "-r", rslib.capture_path(scenario), "-z", "roce,hops")
    table = text.split("Clock offsets", 1)[1].splitlines()[2:]
    problems, seen = [], 0
    for line in table:
        cells = line.split()
        if len(cells) != 5 or not cells[4].isdigit():
            break
        point, rel, offset_us, plus_minus = cells[0], cells[1], float(cells[2]), float(cells[3].lstrip("+/-"))
        want_us = (clocks.get(point, 0) - clocks.get(rel, 0)) / 1000
        seen += 1
        if abs(offset_us - want_us) > plus_minus:
            problems.append(f"offset of {point} from {rel} is {offset_us} +/- {plus_minus} us, set to {want_us} us")
    if not seen:
        problems.append("no clock offsets estimated")
    return problems


def load(scenario):
    with open(os.path.join(rslib.CAPTURES, scenario + ".truth.tsv")) as f:
        return list(csv.DictReader(f, delimiter="\t"))


def run(argv):
    options = argv[argv.index("--") + 1:] if "--" in argv else []
    scenario = argv[0]
    truth = load(scenario)
    got = {r["frame.number"]: r for r in rslib.rows(rslib.fields(rslib.capture_path(scenario), "-2", *options, "-e", "roce.mtu.icmp_mtu",
                                                                 "-e", PAIR_AMBIGUOUS))}
    if len(got) != len(truth):
        raise rslib.Failure(f"{len(got)} frames in the capture, {len(truth)} in the truth file")
    hops = hop_expected(truth, "roce.clock:estimate" in options) if "packet_id" in truth[0] else {}
    mismatches = []
    for t in truth:
        row = got[t["frame"]]
        for field, value in {**expected(t), **hops.get(t["frame"], {})}.items():
            if not matches(row[field], value):
                mismatches.append(f"frame {t['frame']} ({t['point']} {t['kind']} psn {t['psn']} "
                                  f"verdict {t['verdict']} cause {t['cause']}): {field} is {row[field]!r}, "
                                  f"want {value!r}")
    if "roce.clock:estimate" in options:
        mismatches += check_offsets(scenario, options)
    if mismatches:
        raise rslib.Failure(f"{len(mismatches)} mismatch(es) in {scenario}:\n" + "\n".join(mismatches[:40]))
    print(f"{scenario}: {len(truth)} frames match the generator's intent")


if __name__ == "__main__":
    rslib.main(run)
