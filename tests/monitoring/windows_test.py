# SPDX-License-Identifier: GPL-2.0-or-later
"""`roceshark monitor`'s windows are snapshots of one analysis (issue 33,
and issue 30's snapshot): window k's JSON report equals `roceshark report`
of the capture cut at that window's last frame, on every bundled capture;
counters carried across periods add up to the whole capture's; the metrics
are valid Prometheus text (promtool check metrics) and every one is in
monitoring/metrics.txt."""
import glob
import json
import os
import shutil
import subprocess
import tempfile

import monitor  # first: it puts the command tests' helpers on the path
import retime  # noqa: E402
import cli  # noqa: E402
import rslib  # noqa: E402


def span_ns(capture):
    status, out, err = cli.command("report", capture)
    if status != 0:
        raise rslib.Failure(f"report {capture}: exit {status}: {err}")
    return json.loads(out)


def snapshots_equal_cuts(tmp, captures, span_of=None):
    checked = 0
    for capture in captures:
        whole = span_ns(capture if span_of is None else span_of(capture))
        span = max(whole["capture"]["span_ns"], 4)
        out_dir = os.path.join(tmp, "w-" + os.path.basename(capture))
        # About four windows, whatever the capture's span.
        status, _, err = monitor.monitor("-q", "--window", f"{span / 4 / 1e9:.9f}", "--period", "86400", "--out",
                                         out_dir, capture)
        if status != 0:
            raise rslib.Failure(f"monitor {capture}: exit {status}: {err}")
        ws = monitor.windows(out_dir)
        if [w["window"] for w in ws] != list(range(1, len(ws) + 1)):
            raise rslib.Failure(f"{capture}: windows not numbered 1..n: {[w['window'] for w in ws]}")
        if sum(w["frames"] for w in ws) != ws[-1]["last_frame"]:
            raise rslib.Failure(f"{capture}: the windows' frames do not add up to the frames read")
        for w in ws:
            got = monitor.window_report(out_dir, w["window"])
            cut = monitor.cut(capture, w["last_frame"], os.path.join(tmp, "cut.pcapng"))
            status, want, err = cli.command("report", cut)
            if got != want:
                raise rslib.Failure(f"{capture}: window {w['window']} (frames 1-{w['last_frame']}) differs from "
                                    f"the report of the capture cut there")
            checked += 1
        if monitor.window_report(out_dir, ws[-1]["window"]) != cli.command("report", capture)[1]:
            raise rslib.Failure(f"{capture}: the last window is not the whole capture's report")
        shutil.rmtree(out_dir)
    return checked


def bad_clocks(tmp):
    """Stamps that step back, stand still, run backwards, jump about or pass
    2^64 ns (tests/tshark/retime.py): the windows still equal the cuts, and
    a replay at the recorded pace does not wait out a clock's jump."""
    copies = retime.copies([rslib.capture_path(n) for n in ("demo", "mp_drop", "pfc_storm")], tmp)
    origin = dict(copies)
    checked = snapshots_equal_cuts(tmp, [p for p, _ in copies], lambda p: origin[p])
    for path, _ in copies:
        status, _, err = monitor.monitor("-q", "--replay", path, "--window", "0.001", timeout=120)
        if status != 0:
            raise rslib.Failure(f"--replay {path}: exit {status}: {err}")
    print(f"{len(copies)} badly stamped copies: {checked} windows equal their cuts; each replays at its pace "
          f"without waiting out a jump")


def compare_windows(tmp):
    """Any two window reports compare with scripts/roce-compare (their JSON is the report's)."""
    out_dir = os.path.join(tmp, "compare")
    status, _, err = monitor.monitor("-q", "--window", "0.001", "--out", out_dir, rslib.capture_path("demo"))
    ws = monitor.windows(out_dir)
    p = subprocess.run([os.path.join(rslib.ROOT, "scripts", "roce-compare"),
                        os.path.join(out_dir, "window-000001.json"),
                        os.path.join(out_dir, f"window-{ws[-1]['window']:06d}.json")], capture_output=True, text=True)
    if status != 0 or p.returncode != 0 or "new" not in p.stdout or "pfc_storm" not in p.stdout:
        raise rslib.Failure(f"roce-compare of two windows: exit {p.returncode}\n{p.stdout}{p.stderr}")
    print(f"roce-compare of window 1 and window {ws[-1]['window']} of the demo: the storm is new in the later one")


def totals(report):
    packets = sum(q["requests"] + q["responses"] + q["cnps"] for q in report["qps"])
    pauses = sum(p["frames"] for p in report["pfc"]["pauses"])
    return packets, pauses


def counters_carried(tmp):
    """A period per window: the analysis starts afresh each window, and the
    counters still count every packet once."""
    for name in ("multipoint", "pfc_storm", "mp_drop", "demo"):
        capture = rslib.capture_path(name)
        whole = span_ns(capture)
        window = max(whole["capture"]["span_ns"], 4) / 5 / 1e9
        out_dir = os.path.join(tmp, "carry-" + name)
        prom_dir = os.path.join(tmp, "prom-" + name)
        os.mkdir(prom_dir)
        status, _, err = monitor.monitor("-q", "--window", f"{window:.9f}", "--period", f"{window:.9f}", "--out",
                                         out_dir, "--textfile", prom_dir, capture)
        if status != 0:
            raise rslib.Failure(f"monitor {name}: exit {status}: {err}")
        ws = monitor.windows(out_dir)
        packets, pauses = totals(whole)
        if len(ws) < 3:
            raise rslib.Failure(f"{name}: {len(ws)} windows; the test wants several periods")
        if sum(w["roce_packets"] for w in ws) != packets or sum(w["pause_frames"] for w in ws) != pauses:
            raise rslib.Failure(f"{name}: windows count {sum(w['roce_packets'] for w in ws)} RoCE packets and "
                                f"{sum(w['pause_frames'] for w in ws)} pause frames; the capture has {packets} and "
                                f"{pauses}")
        with open(os.path.join(prom_dir, "roceshark.prom")) as f:
            text = f.read()
        got = sum(v for n, _, v in monitor.samples(text) if n == "roceshark_roce_packets_total")
        if got != packets:
            raise rslib.Failure(f"{name}: roceshark_roce_packets_total sums to {got}, the capture has {packets}")
        check = subprocess.run(["promtool", "check", "metrics"], input=text, capture_output=True, text=True) \
            if shutil.which("promtool") else None
        if check and check.returncode != 0:
            raise rslib.Failure(f"{name}: promtool check metrics: {check.stdout}{check.stderr}")
        known = monitor.metric_names()
        for n, labels, _ in monitor.samples(text):
            base = n[:-len("_bucket")] if n.endswith("_bucket") else n[:-len("_sum")] if n.endswith("_sum") else \
                n[:-len("_count")] if n.endswith("_count") and n[:-len("_count")] in known else n
            if base not in known:
                raise rslib.Failure(f"{n} is not in monitoring/metrics.txt")
    print("counters carried across periods count every packet and pause frame once; the metrics are valid "
          "Prometheus text, each in monitoring/metrics.txt")


def run(argv):
    with tempfile.TemporaryDirectory() as tmp:
        n = snapshots_equal_cuts(tmp, sorted(glob.glob(os.path.join(rslib.CAPTURES, "*.pcapng"))))
        print(f"{n} window reports equal the reports of their captures cut at the window's last frame")
        bad_clocks(tmp)
        counters_carried(tmp)
        compare_windows(tmp)


rslib.main(run)
