# SPDX-License-Identifier: GPL-2.0-or-later
"""What the command reads: several files as capture points (the same as
tshark on their `mergecap -I none` merge), the standard input, and files it
cannot read to the end or at all (a clear error, exit 1 or 2)."""
import os
import re
import subprocess
import tempfile

import cli
import rslib

GEN = os.path.join(rslib.BUILD, "captures", "roceshark-gen")
# Multi-point scenarios, and the points to write one file each for.
SPLIT = [("multipoint", ["nic-a", "leaf-1"]), ("mp_drop", ["nic-a", "leaf-1", "nic-b"]),
         ("demo", ["nic-a", "leaf-1"])]


def several_files(tmp):
    for scenario, points in SPLIT:
        scn = os.path.join(rslib.CAPTURES, "scenarios", scenario + ".scn")
        parts = []
        for p in points:
            parts.append(os.path.join(tmp, f"{scenario}.{p}.pcapng"))
            subprocess.run([GEN, scn, "-o", parts[-1], "--only-point", p], check=True, capture_output=True)
        merged = os.path.join(tmp, scenario + ".merged.pcapng")
        subprocess.run(["mergecap", "-I", "none", "-w", merged, *parts], check=True)
        for view in cli.VIEWS:
            want = rslib.tshark("-n", "-q", "-r", merged, "-z", f"roce,{view}")
            status, got, err = cli.command(view, *parts)
            if status != 0:
                raise rslib.Failure(f"roceshark {view} on {len(parts)} files of {scenario}: exit {status}\n{err}")
            cli.same(f"roceshark {view} {' '.join(points)} of {scenario}", got, want)
        print(f"{scenario}: {len(parts)} files as points, every view as tshark on their merge")


def standard_input():
    for scenario in ("gbn", "mp_drop"):
        capture = rslib.capture_path(scenario)
        with open(capture, "rb") as f:
            status, got, err = cli.command("triage", "-", stdin=f)
        want = cli.command("triage", capture)[1]
        if status != 0:
            raise rslib.Failure(f"roceshark triage - < {scenario}: exit {status}\n{err}")
        cli.same(f"roceshark triage - < {scenario}", got, want)


def bad_files(tmp):
    some = rslib.capture_path("gbn")
    # A file cut short: the records before the cut are analysed, the error names the file and the record.
    cut = os.path.join(tmp, "cut.pcapng")
    with open(some, "rb") as f, open(cut, "wb") as o:
        o.write(f.read()[:20000])
    status, out, err = cli.command("qp", cut)
    if status != 1 or not re.search(r"cut\.pcapng: record \d+: ", err) or "Requests" not in out:
        raise rslib.Failure(f"a truncated file: exit {status}, stderr {err!r}, stdout {out!r}")
    # Cut short among several: the other file is read to its end.
    status, out, err = cli.command("qp", cut, rslib.capture_path("clean"))
    whole = cli.command("qp", rslib.capture_path("clean"))[1]
    if status != 1 or "cut.pcapng: record" not in err or len(out) <= len(whole) // 2:
        raise rslib.Failure(f"a truncated file beside a whole one: exit {status}, stderr {err!r}")
    # Not a capture, a missing file: exit 2, the file named, nothing printed.
    junk = os.path.join(tmp, "junk.pcapng")
    with open(junk, "wb") as f:
        f.write(b"this is not a capture\n" * 10)
    for path in (junk, "/nonexistent.pcapng"):
        status, out, err = cli.command("qp", some, path)
        if status != 2 or path not in err or out:
            raise rslib.Failure(f"{path}: exit {status}, stderr {err!r}, stdout {out[:200]!r}")


def run(argv):
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)  # tshark runs as nobody
        several_files(tmp)
        standard_input()
        bad_files(tmp)


rslib.main(run)
