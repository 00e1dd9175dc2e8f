# SPDX-License-Identifier: GPL-2.0-or-later
"""Hostile input: corrupt and truncate a scenario with editcap and make
sure tshark with the plugin survives, under Wireshark's strict debug
settings (tools/fuzz-test.sh), and that the roceshark command reads the
same files to the same report, byte for byte. Deterministic: fixed seeds."""
import json
import os
import subprocess
import tempfile

import rslib

STRICT = {
    "WIRESHARK_ABORT_ON_DISSECTOR_BUG": "1",
    "WIRESHARK_DEBUG_WMEM_OVERRIDE": "strict",
    "G_SLICE": "debug-blocks",
    "MALLOC_CHECK_": "3",
}
SEEDS = range(1, 6)
ERROR_RATE = "0.02"
SNAPLENS = [20, 54, 60, 70, 90, 128]
COMMAND = os.path.join(rslib.BUILD, "roceshark")


def editcap(*args):
    subprocess.run(["editcap", *args], check=True, capture_output=True)


def survive(capture, label):
    # -V builds and renders the whole tree; the statistics run the listeners
    # and the triage, and the report must still be JSON.
    rslib.tshark("-n", "-V", "-r", capture, env=STRICT)
    rslib.tshark("-n", "-q", "-r", capture, "-z", "roce,qp", "-z", "roce,triage", "-z", "expert", env=STRICT)
    report = rslib.tshark("-n", "-q", "-r", capture, "-z", "roce,report", env=STRICT)
    try:
        json.loads(report)
    except ValueError as e:
        raise rslib.Failure(f"{label}: -z roce,report is not JSON: {e}")
    # The command decodes the same bytes without Wireshark's dissectors: a
    # damaged frame must not make the two disagree.
    p = subprocess.run([COMMAND, "report", capture], capture_output=True, text=True, timeout=300,
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
    print(f"{cases} corrupted or truncated captures survived")


if __name__ == "__main__":
    rslib.main(run)
