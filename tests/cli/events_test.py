# SPDX-License-Identifier: GPL-2.0-or-later
"""`roceshark events`: every bundled capture's events against what its
generator intended (captures/*.truth.tsv): the hop losses are the frames
the truth says were lost after their point, every PSN gap and every resend
is in an event at its frame, every storm frame in a storm episode; NDJSON
and TSV say the same, in time order; a merge of shards says what the
capture says; a capture cut short gives the events before the cut and exit
status 1; bad options are usage errors."""
import glob
import json
import os
import tempfile

import cli
import rslib

KEYS = ["time", "rel_s", "kind", "point", "src", "dst", "qp", "stream", "priority", "frames", "count", "duration_s",
        "detail"]
# Captures read with the options truth.py reads them with (tests/tshark/CMakeLists.txt).
OPTIONS = {"mp_erspan": ["-o", "roce.point_key:erspan", "-o", "roce.point_names:100=leaf-1,200=nic-b"],
           "pfc_speeds": ["-o", "roce.point_link_gbps:p25:25,p400:400"], "mp_clock": ["-o", "roce.clock:estimate"]}
RESENDS = {"gbn", "timeout", "selective", "retransmission", "rnr-retry", "read-retry"}


def events(capture, *options):
    status, out, err = cli.command(*options, "events", capture)
    if status != 0:
        raise rslib.Failure(f"roceshark events {capture}: exit {status}\n{err}")
    lines = [json.loads(line) for line in out.splitlines()]
    for e in lines:
        missing = {"time", "rel_s", "kind", "point", "frames", "count", "detail"} - e.keys()
        if missing or not set(e) <= set(KEYS):
            raise rslib.Failure(f"{capture}: event keys {sorted(e)}")
    times = [e["time"] for e in lines]
    if times != sorted(times) or [e["rel_s"] for e in lines] != sorted(e["rel_s"] for e in lines):
        raise rslib.Failure(f"{capture}: events not in time order")
    return lines


def tsv_agrees(capture, lines):
    status, out, err = cli.command("events", "--format", "tsv", capture)
    rows = out.splitlines()
    if status != 0 or rows[0].split("\t") != KEYS:
        raise rslib.Failure(f"{capture}: TSV exit {status}, header {rows[:1]}\n{err}")
    for row, e in zip(rows[1:], lines):
        cells = row.split("\t")
        if len(cells) != len(KEYS):
            raise rslib.Failure(f"{capture}: TSV row of {len(cells)} cells: {row!r}")
        want = {k: e.get(k, "-") for k in KEYS}
        want["frames"] = ",".join(map(str, e["frames"]))
        got = dict(zip(KEYS, cells))
        for k in ("time", "kind", "point", "src", "qp", "frames", "detail"):
            if str(want[k]) != got[k]:
                raise rslib.Failure(f"{capture}: TSV {k} {got[k]!r}, NDJSON {want[k]!r}")
    if len(rows) - 1 != len(lines):
        raise rslib.Failure(f"{capture}: {len(rows) - 1} TSV rows, {len(lines)} NDJSON lines")


def within(e, frame):
    return e["frames"][0] <= frame <= e["frames"][-1]


def check_truth(scenario, lines):
    truth = rslib.rows(open(os.path.join(rslib.CAPTURES, scenario + ".truth.tsv")).read())
    if not truth or "lost_after" not in truth[0]:
        return 0
    problems = []
    lost = {int(t["frame"]) for t in truth if t["lost_after"] not in ("0", "-", "")}
    got = {e["frames"][0] for e in lines if e["kind"] == "hop_loss"}
    if got != lost:
        problems.append(f"hop_loss frames {sorted(got)}, truth lost after their point {sorted(lost)}")
    for t in truth:
        frame, verdict, point = int(t["frame"]), t["verdict"], t["point"]
        at = [e for e in lines if e["point"] == point and within(e, frame)]
        if verdict.startswith("gap:"):
            n = int(verdict[4:])
            if not any(e["kind"] in ("psn_gap", "reorder") and e["frames"][0] == frame and e["count"] == n for e in at):
                problems.append(f"frame {frame} ({verdict} at {point}): no psn_gap or reorder event of {n}")
        if verdict in RESENDS and not any(e["kind"] == "resend_run" for e in at):
            problems.append(f"frame {frame} ({verdict} at {point}): in no resend_run")
        if t["kind"] == "pfc" and "storm" in t["note"]:
            if not any(e["kind"] == "pause" and "storm" in e["detail"] and e["frames"][0] <= frame
                       for e in lines if e["point"] == point):
                problems.append(f"frame {frame} (storm at {point}): in no storm episode")
    if problems:
        raise rslib.Failure(f"{scenario}: " + "; ".join(problems[:5]))
    return 1


def cut_short():
    # Half of a capture: the events before the cut, a clear error, exit 1.
    src = rslib.capture_path("mp_drop")
    whole = events(src)
    with tempfile.TemporaryDirectory() as tmp:
        cut = os.path.join(tmp, "cut.pcapng")
        with open(src, "rb") as f:
            data = f.read()
        with open(cut, "wb") as f:
            f.write(data[:len(data) * 2 // 3])
        status, out, err = cli.command("events", cut)
        if status != 1 or "the records before it are analysed" not in err:
            raise rslib.Failure(f"a cut capture: exit {status}, stderr {err!r}")
        part = [json.loads(line) for line in out.splitlines()]
        if not part or any(e not in whole for e in part if e["kind"] == "hop_loss"):
            raise rslib.Failure(f"a cut capture: events {part}")


def merged():
    # `merge events` of a capture's two shards is `events` of the capture.
    capture = rslib.capture_path("demo")
    with tempfile.TemporaryDirectory() as tmp:
        parts = [os.path.join(tmp, f"{k}.rsp") for k in (0, 1)]
        for k, part in enumerate(parts):
            status, _, err = cli.command("partial", "-w", part, "--shard", f"{k}/2", capture)
            if status != 0:
                raise rslib.Failure(f"roceshark partial --shard {k}/2: exit {status}\n{err}")
        got, want = cli.command("merge", "events", *parts)[1], cli.command("events", capture)[1]
        cli.same("roceshark merge events (demo, 2 shards)", got, want)


def usage():
    capture = rslib.capture_path("gbn")
    for args, words in [(["events", "--format", "xml", capture], "--format xml: use ndjson or tsv"),
                        (["triage", "--format", "tsv", capture], "--format applies to events only"),
                        (["evnets", capture], "did you mean 'events'?")]:
        status, out, err = cli.command(*args)
        if status != 2 or out or words not in err:
            raise rslib.Failure(f"roceshark {' '.join(args)}: exit {status}, stderr {err!r}")


def run(argv):
    checked = 0
    failures = []
    for capture in sorted(glob.glob(os.path.join(rslib.CAPTURES, "*.pcapng"))):
        scenario = os.path.basename(capture)[:-len(".pcapng")]
        lines = events(capture, *OPTIONS.get(scenario, []))
        try:
            checked += check_truth(scenario, lines)
        except rslib.Failure as e:
            failures.append(str(e))
        if scenario in ("demo", "mp_drop", "pfc_storm"):
            tsv_agrees(capture, lines)
    if failures:
        raise rslib.Failure("\n".join(failures))
    # A selection narrows the events as it narrows every view.
    qp = [e for e in events(rslib.capture_path("demo"), "--qp", "0x94c") if "qp" in e]
    if not qp or any(e["qp"] != "0x00094c" for e in qp):
        raise rslib.Failure(f"--qp 0x94c: events of other QPs: {qp[:2]}")
    cut_short()
    merged()
    usage()
    print(f"{checked} captures' events agree with their truth")


rslib.main(run)
