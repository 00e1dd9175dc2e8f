# SPDX-License-Identifier: GPL-2.0-or-later
"""Hostile input: corrupt and truncate a scenario with editcap, and stamp it
as a broken clock would (retime.py: a step back, stamps passing 2^64, all
equal, reversed, random), and make sure tshark with the plugin survives,
under Wireshark's strict debug settings (tools/fuzz-test.sh), that the
roceshark command reads the same files to the same report, byte for byte,
and that the figures of a badly stamped capture stay consistent (no stall
longer than the span allows, no share above 100%). Every run has a time
limit: a capture that sends the analysis into a loop fails here.
Deterministic: fixed seeds."""
import json
import os
import subprocess
import tempfile
import zlib

import retime
import rslib

STRICT = {
    "WIRESHARK_ABORT_ON_DISSECTOR_BUG": "1",
    "WIRESHARK_DEBUG_WMEM_OVERRIDE": "strict",
    "G_SLICE": "debug-blocks",
    "MALLOC_CHECK_": "3",
}
# Per capture, 10 copies in all: CI's 90 minutes run these in four legs
# (three Wireshark versions and the sanitizers) over every bundled capture.
# The snaplens cut at Ethernet, inside IPv4/UDP, inside the BTH and past it.
SEEDS = range(1, 4)
ERROR_RATE = "0.02"
SNAPLENS = [20, 54, 70, 128]
COMMAND = os.path.join(rslib.BUILD, "roceshark")


def editcap(*args):
    subprocess.run(["editcap", *args], check=True, capture_output=True)


def consistent(doc, label):
    """The figures of one report agree with each other, whatever the stamps."""
    t = doc["triage"]
    span, qps = t["span_ns"], t["qps"]
    if not 0 <= t["stalled_share"] <= 1 or t["stalled_ns"] > span * max(qps, 1):
        raise rslib.Failure(f"{label}: stalled {t['stalled_ns']} ns ({t['stalled_share']}) "
                            f"over a span of {span} ns and {qps} QPs")
    for f in t["findings"]:
        i = f["impact"]
        if not 0 <= i["share"] <= 1 or i["stall_ns"] > span * max(i["qps"], 1):
            raise rslib.Failure(f"{label}: finding {f['id']} stalled {i['stall_ns']} ns ({i['share']}) "
                                f"over a span of {span} ns")
    if doc["capture"]["span_ns"] != doc["capture"]["last_ns"] - doc["capture"]["first_ns"]:
        raise rslib.Failure(f"{label}: capture span is not last - first: {doc['capture']}")


def survive(capture, label):
    # One tshark run: -V builds and renders the whole tree, the statistics
    # run the listeners and the triage, and the report (its one line) must
    # still be JSON.
    out = rslib.tshark("-n", "-V", "-r", capture, "-z", "roce,qp", "-z", "roce,triage", "-z", "expert",
                       "-z", "roce,report", env=STRICT)
    report = next((line + "\n" for line in out.splitlines() if line.startswith('{"schema":"roceshark-report"')), None)
    if report is None:
        raise rslib.Failure(f"{label}: -z roce,report printed no report")
    try:
        consistent(json.loads(report), label)
    except ValueError as e:
        raise rslib.Failure(f"{label}: -z roce,report is not JSON: {e}")
    # The command decodes the same bytes without Wireshark's dissectors: a
    # damaged frame must not make the two disagree.
    p = subprocess.run([COMMAND, "report", capture], capture_output=True, text=True, timeout=120,
                       env=dict(os.environ, TZ="UTC", LC_ALL="C"))
    if p.returncode != 0 or p.stdout != report:
        raise rslib.Failure(f"{label}: roceshark report exited {p.returncode} "
                            f"({'same' if p.stdout == report else 'not the same'} as tshark's)\n{p.stderr}")


def run(argv):
    captures = [rslib.capture_path(argv[0])]
    cases = 0
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)
        for cap in captures:
            name = os.path.basename(cap)
            for seed in SEEDS:
                out = os.path.join(tmp, f"E{seed}-{name}")
                editcap("-E", ERROR_RATE, "--seed", str(seed), cap, out)
                survive(out, f"{name} -E seed {seed}")
                cases += 1
            for snap in SNAPLENS:
                out = os.path.join(tmp, f"s{snap}-{name}")
                editcap("-s", str(snap), cap, out)
                survive(out, f"{name} snaplen {snap}")
                cases += 1
            with open(cap, "rb") as f:
                data = f.read()
            # A clock step and stamps past 2^64 on every capture; one of the
            # other three, by the capture's name (CI's time is counted).
            others = retime.MODES[2:]
            for mode in ("step", "wrap", others[zlib.crc32(name.encode()) % len(others)]):
                out = os.path.join(tmp, f"t{mode}-{name}")
                with open(out, "wb") as f:
                    f.write(retime.retime(mode, data))
                survive(out, f"{name} stamped {mode}")
                cases += 1
    print(f"{cases} corrupted, truncated or badly stamped captures survived")


if __name__ == "__main__":
    rslib.main(run)
