# SPDX-License-Identifier: GPL-2.0-or-later
"""Every finding's time (docs/triage.md, "When") against what the generator
intended (captures/*.truth.tsv): the capture starts at its first frame;
every evidence frame lies between the finding's first and last time; a
storm starts at its first storm frame and lasts past its last; a hop loss
spans its lost frames; the text's When line is the JSON's, and its origin
is the one `roceshark events` counts rel_s from."""
import datetime
import glob
import json
import os

import cli
import rslib

OPTIONS = {"mp_erspan": ["-o", "roce.point_key:erspan", "-o", "roce.point_names:100=leaf-1,200=nic-b"],
           "pfc_speeds": ["-o", "roce.point_link_gbps:p25:25,p400:400"], "mp_clock": ["-o", "roce.clock:estimate"]}


def report(capture, *options):
    status, out, err = cli.command(*options, "report", capture)
    if status not in (0, 1):
        raise rslib.Failure(f"roceshark report {capture}: exit {status}\n{err}")
    return json.loads(out)


def iso(ns, nanoseconds):
    t = datetime.datetime.fromtimestamp(ns // 10**9, datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")
    return t + (f".{ns % 10**9:09d}Z" if nanoseconds else f".{ns % 10**9 // 1000:06d}Z")


def monotonic(truth):
    # Stamps that never run backwards at a point: the analysis time is the stamp.
    last = {}
    for t in truth:
        ts = int(t["ts_ns"])
        if ts < last.get(t["point"], 0):
            return False
        last[t["point"]] = ts
    return True


def check(scenario, doc, truth):
    problems = []
    ts = {int(t["frame"]): int(t["ts_ns"]) for t in truth}
    tri = doc["triage"]
    if 1 in ts and tri["start_ns"] != ts[1]:
        problems.append(f"start_ns {tri['start_ns']}, frame 1 at {ts[1]}")
    for f in tri["findings"]:
        ev = f["evidence"]
        if "first_ns" not in ev:
            problems.append(f"{f['id']}: no time")
            continue
        first, last = ev["first_ns"], ev["last_ns"]
        if not first <= last or ev["first_rel_ns"] != first - tri["start_ns"] or ev["last_rel_ns"] != last - tri["start_ns"]:
            problems.append(f"{f['id']}: times {first}..{last}, rel {ev['first_rel_ns']}..{ev['last_rel_ns']}")
        for fr in ev["frames"]:
            if fr in ts and not first <= ts[fr] <= last:
                problems.append(f"{f['id']}: frame {fr} at {ts[fr]}, outside {first}..{last}")
        if f["kind"] == "pfc_storm":
            storm = [int(t["ts_ns"]) for t in truth if t["kind"] == "pfc" and "storm" in t["note"]
                     and t["point"] == f["location"]["point"]]
            if storm and (first != min(storm) or last < max(storm)):
                problems.append(f"{f['id']}: {first}..{last}, storm frames {min(storm)}..{max(storm)}")
        if f["kind"] == "hop_loss":
            frm = f["location"]["hop"].split(" -> ")[0]
            lost = [int(t["ts_ns"]) for t in truth if t["point"] == frm and t["lost_after"] not in ("0", "-", "")]
            if lost and (first, last) != (min(lost), max(lost)):
                problems.append(f"{f['id']}: {first}..{last}, lost frames {min(lost)}..{max(lost)}")
    if problems:
        raise rslib.Failure(f"{scenario}: " + "; ".join(problems[:5]))


def text_agrees(capture, doc):
    # The text's When lines, in rank order, are the JSON's times.
    status, out, err = cli.command("triage", capture)
    whens = [line.split("When:", 1)[1].split()[0] for line in out.splitlines() if line.startswith("   When:")]
    nanoseconds = any(len(w) == len("2023-11-14T22:13:20.000000000Z") for w in whens)
    want = [iso(f["evidence"]["first_ns"], nanoseconds) for f in doc["triage"]["findings"]]
    if whens != want:
        raise rslib.Failure(f"{capture}: When lines {whens[:3]}, JSON {want[:3]}")


def events_origin():
    # The storm's pause episode: the events' rel_s is the finding's first_rel_ns.
    capture = rslib.capture_path("pfc_storm")
    storm = next(f for f in report(capture)["triage"]["findings"] if f["kind"] == "pfc_storm")
    status, out, err = cli.command("events", capture)
    pause = next(json.loads(line) for line in out.splitlines() if '"kind":"pause"' in line)
    if round(pause["rel_s"] * 1e9) != storm["evidence"]["first_rel_ns"]:
        raise rslib.Failure(f"pfc_storm: events rel_s {pause['rel_s']}, finding {storm['evidence']['first_rel_ns']} ns")


def run(argv):
    checked, failures = 0, []
    for capture in sorted(glob.glob(os.path.join(rslib.CAPTURES, "*.pcapng"))):
        scenario = os.path.basename(capture)[:-len(".pcapng")]
        truth_file = os.path.join(rslib.CAPTURES, scenario + ".truth.tsv")
        if not os.path.exists(truth_file):
            continue
        truth = rslib.rows(open(truth_file).read())
        if not truth or "ts_ns" not in truth[0] or not monotonic(truth):
            continue
        doc = report(capture, *OPTIONS.get(scenario, []))
        try:
            check(scenario, doc, truth)
            checked += 1
        except rslib.Failure as e:
            failures.append(str(e))
    if failures:
        raise rslib.Failure("\n".join(failures))
    for scenario in ("pfc_storm", "mp_drop", "dcbx"):
        text_agrees(rslib.capture_path(scenario), report(rslib.capture_path(scenario)))
    events_origin()
    print(f"{checked} captures' finding times agree with their truth")


rslib.main(run)
