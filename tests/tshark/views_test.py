# SPDX-License-Identifier: GPL-2.0-or-later
"""Every view of one filtered run says the same, and only about the frames
the filter selected: on a multi-point capture with a hop loss (mp_drop) and
one with a PFC storm that propagates (pfc_propagation), each run with a
filter that keeps only some points or one direction, -z roce,report,F,
-z roce,triage,F, -z roce,hops,F and -z roce,pfc,F agree on the hop losses,
pause episodes, propagations and clock estimates; every evidence frame
passes F; and the counts equal the per-frame fields of the frames F
selects (tshark -2 -Y F: losses are known on a second pass). The GUI's
tables (-z roce,hop_table,F and -z roce,qp_table,F, the stat_tap_tables
Wireshark's Statistics dialogs draw) say the same of the hops and QPs.
The starvation finding counts and measures only the selected frames."""
import json
import re

import rslib

CASES = [
    ("mp_drop", 'ip.dst == 10.0.0.2'),                  # one direction, every point
    ("mp_drop", 'frame.interface_name == "leaf-1"'),    # one point: its losses, no clock pair
    ("mp_drop", 'frame.interface_name != "nic-b"'),     # two points of three
    ("pfc_propagation", 'frame.interface_name == "nic-a"'),
    ("pfc_propagation", 'frame.interface_name == "leaf-1"'),
    ("pfc_propagation", 'frame.number <= 80'),          # episodes whose first frame passes
]


def stat(capture, name, flt):
    return rslib.tshark("-n", "-q", "-r", capture, "-z", f"roce,{name},{flt}")


def frames(capture, flt, *fields):
    """Per selected frame (second pass), the fields asked for."""
    args = ["-n", "-2", "-r", capture, "-Y", flt, "-T", "fields", "-E", "separator=/t", "-E", "occurrence=a"]
    for f in ("frame.number", *fields):
        args += ["-e", f]
    out = rslib.canon_fields(rslib.tshark(*args))
    return {int(r[0]): r[1:] for r in (line.split("\t") for line in out.splitlines())}


def table(text, title, columns):
    """The rows of one section of a -z text report, split on runs of spaces
    (lines with fewer columns, such as notes and "none", are not rows)."""
    if title not in text:
        return []
    body = text.split(title, 1)[1].split("\n\n", 1)[0].splitlines()[2:]
    cells = [re.split(r"\s{2,}", line.strip()) for line in body]
    return [r for r in cells if len(r) >= columns]


def check(capture_name, flt):
    where = f"{capture_name}, {flt}"
    capture = rslib.capture_path(capture_name)
    report = json.loads(stat(capture, "report", flt))
    triage = stat(capture, "triage", flt)
    hops = stat(capture, "hops", flt)
    pfc = stat(capture, "pfc", flt)
    selected = frames(capture, flt, "frame.interface_name", "roce.hop.lost_after")

    def fail(msg):
        raise rslib.Failure(f"{where}: {msg}")

    # Hop losses: the JSON, the text table and the frames marked lost_after.
    json_lost = {(h["from"], h["to"]): h["lost"] for h in report["hops"]}
    text_lost = {(r[0], r[1]): int(r[3]) for r in table(hops, "Per hop (upstream point -> downstream point)", 14)}
    if json_lost != text_lost:
        fail(f"hop losses: report {json_lost}, hops {text_lost}")
    marked = {}
    for f, (point, lost_after) in selected.items():
        if lost_after == "1":
            marked[point] = marked.get(point, 0) + 1
    by_from = {}
    for (a, _), n in json_lost.items():
        if n:
            by_from[a] = by_from.get(a, 0) + n
    if by_from != marked:
        fail(f"losses by upstream point {by_from}, frames marked roce.hop.lost_after {marked}")
    # The GUI's hop table: the same hops, the same losses and matches.
    gui_hops = {(r["From"], r["To"]): r for r in rslib.simple_table(stat(capture, "hop_table", flt), "RoCE Hops")}
    gui_lost = {k: int(r["Lost"]) for k, r in gui_hops.items()}
    if gui_lost != json_lost:
        fail(f"hop losses: report {json_lost}, GUI hop table {gui_lost}")
    json_matched = {(h["from"], h["to"]): h["matched"] for h in report["hops"]}
    gui_matched = {k: int(r["Matched"]) for k, r in gui_hops.items()}
    if gui_matched != json_matched:
        fail(f"hops matched: report {json_matched}, GUI hop table {gui_matched}")
    for k, r in gui_hops.items():
        if not gui_matched[k] and (r["Latency min"], r["Latency max"]) != ("\u2013", "\u2013"):
            fail(f"hop {k}: no match, yet latency min/max {r['Latency min']}/{r['Latency max']}")
    # The GUI's QP table: a row per QP and point the report has, with its counts.
    counts = ("requests", "Requests"), ("gaps", "Gaps"), ("retransmissions", "Retrans"), ("responses", "Responses")
    json_qps = {(q["point"], q["stream"], q["dest_qp"]): [q[j] for j, _ in counts] for q in report["qps"]}
    gui_qps = {(r["Point"], int(r["Stream"]), int(r["DestQP"], 16)): [int(r[g]) for _, g in counts]
               for r in rslib.simple_table(stat(capture, "qp_table", flt), "RoCE QPs")}
    if gui_qps != json_qps:
        fail(f"QPs (requests, gaps, retransmissions, responses): report {json_qps}, GUI QP table {gui_qps}")
    # Clock estimates: the same pairs, each between two points the filter kept.
    points = {p for p, _ in selected.values()}
    json_clocks = {(c["point"], c["relative_to"]) for c in report["clocks"]}
    text_clocks = {(r[0], r[1]) for r in table(hops, "Clock offsets", 5)}
    if json_clocks != text_clocks:
        fail(f"clock estimates: report {json_clocks}, hops {text_clocks}")
    if any(a not in points or b not in points for a, b in json_clocks):
        fail(f"clock estimates {json_clocks} name a point the filter dropped (kept {points})")

    # Pause episodes: the JSON's storms are the text's, each begun by a selected frame.
    json_storms = sorted(e["first_frame"] for p in report["pfc"]["pauses"] for e in p["storms"])
    text_storms = sorted(int(r[7]) for r in table(pfc, "Storms (", 9))
    if json_storms != text_storms:
        fail(f"storms: report {json_storms}, pfc {text_storms}")
    for p in report["pfc"]["pauses"]:
        for e in p["episodes"]:
            if e["first_frame"] not in selected:
                fail(f"episode begun by frame {e['first_frame']}, which the filter dropped")
    json_prop = sorted((p["storm_frame"], p["pause_frame"]) for p in report["pfc"]["propagation"])
    text_prop = sorted((int(r[2]), int(r[3])) for r in table(pfc, "Pause propagation", 6))
    if json_prop != text_prop:
        fail(f"propagations: report {json_prop}, pfc {text_prop}")

    # Findings: the triage text and the JSON list the same, and every
    # evidence frame passes the filter; a hop loss's count is the losses'.
    findings = report["triage"]["findings"]
    text_ids = re.findall(r"^#\d+ \w+ (\w+):", triage, re.M)
    if text_ids != [f["kind"] for f in findings]:
        fail(f"findings: triage {text_ids}, report {[f['kind'] for f in findings]}")
    for f in findings:
        for fr in f.get("evidence", {}).get("frames", []):
            if fr not in selected:
                fail(f"{f['id']}: evidence frame {fr} is not one the filter selected")
        if f["kind"] == "hop_loss" and f["evidence"]["count"] != json_lost[tuple(f["location"]["hop"].split(" -> "))]:
            fail(f"{f['id']}: {f['evidence']['count']} frames, the hop lost {json_lost}")
    return json_lost, json_storms


def check_starvation():
    """RoCE starved behind best-effort: the finding counts and measures only
    the frames the filter selected, and needs 5 of them (one unlucky wait is
    no finding). The queueing grows frame by frame here, so the longest wait
    of the first frames is below the capture's."""
    capture = rslib.capture_path("mp_besteffort_strict")
    starved = frames(capture, "roce.hop.be_starved", "roce.hop.queue_ns")
    order = sorted(starved)
    for keep in (4, 9):
        flt = f"frame.number <= {order[keep - 1]}"
        report = json.loads(stat(capture, "report", flt))
        found = [f for f in report["triage"]["findings"] if f["kind"] == "starved_by_besteffort"]
        if keep < 5:
            if found:
                raise rslib.Failure(f"{flt}: a starvation finding from {keep} selected packets: {found[0]['detail']}")
            continue
        longest = max(int(starved[n][0]) for n in order[:keep])
        if len(found) != 1 or found[0]["evidence"]["count"] != keep:
            raise rslib.Failure(f"{flt}: wanted one starvation finding of {keep} packets, got {found}")
        if f"up to {longest / 1e3:.1f} us," not in found[0]["detail"]:
            raise rslib.Failure(f"{flt}: the selected packets waited up to {longest} ns: {found[0]['detail']}")


def run(argv):
    check_starvation()
    seen_loss = seen_storm = False
    for capture, flt in CASES:
        lost, storms = check(capture, flt)
        seen_loss |= any(lost.values())
        seen_storm |= bool(storms)
    # The cases must exercise what they check.
    if not (seen_loss and seen_storm):
        raise rslib.Failure(f"no filtered case kept a hop loss ({seen_loss}) or a storm ({seen_storm})")


if __name__ == "__main__":
    rslib.main(run)
