# SPDX-License-Identifier: GPL-2.0-or-later
"""The roceshark command prints what tshark with the plugin prints, byte
for byte: every view (qp, pfc, qos, hops, triage, report) of every bundled
capture. One decoder, one analysis, one set of views: a difference is a
bug in the command's reading or feeding, never an accepted variation."""
import glob
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tshark"))
import rslib  # noqa: E402

VIEWS = ["qp", "pfc", "qos", "hops", "triage", "report"]
COMMAND = os.path.join(rslib.BUILD, "roceshark")
ENV = dict(os.environ, TZ="UTC", LANG="C", LC_ALL="C")


def command(*args):
    p = subprocess.run([COMMAND, *args], capture_output=True, text=True, env=ENV, timeout=600)
    return p.returncode, p.stdout, p.stderr


def run(argv):
    captures = argv or sorted(glob.glob(os.path.join(rslib.CAPTURES, "*.pcapng")))
    for capture in captures:
        name = os.path.basename(capture)
        # tshark prints its -z views in the order given; each view of the
        # command is one run, so compare view by view.
        for view in VIEWS:
            want = rslib.tshark("-n", "-q", "-r", capture, "-z", f"roce,{view}")
            status, got, err = command(view, capture)
            if status != 0:
                raise rslib.Failure(f"roceshark {view} {name} exited {status}:\n{err}")
            if got != want:
                lines = [(i, a, b) for i, (a, b) in enumerate(zip(got.splitlines(), want.splitlines())) if a != b]
                first = lines[0] if lines else (min(len(got), len(want)), "", "")
                raise rslib.Failure(f"roceshark {view} {name} differs from tshark -z roce,{view}, first at line "
                                    f"{first[0] + 1}:\n  roceshark: {first[1]!r}\n  tshark:    {first[2]!r}")
    # Usage errors exit 2 and say why.
    for args in ([], ["nonsense", captures[0]], ["qp"]):
        status, _, err = command(*args)
        if status != 2 or "usage" not in err:
            raise rslib.Failure(f"roceshark {' '.join(args)}: exit {status}, stderr {err!r}")
    status, out, err = command("qp", "/nonexistent.pcapng")
    if status != 2 or "/nonexistent.pcapng" not in err or out:
        raise rslib.Failure(f"a missing file: exit {status}, stderr {err!r}")
    # A file cut short: the records before the cut are analysed, the error names the record.
    with tempfile.TemporaryDirectory() as tmp:
        cut = os.path.join(tmp, "cut.pcapng")
        with open(rslib.capture_path("gbn"), "rb") as f, open(cut, "wb") as o:
            o.write(f.read()[:20000])
        status, out, err = command("qp", cut)
        if status != 1 or not re.search(r"cut\.pcapng: record \d+: ", err) or "Requests" not in out:
            raise rslib.Failure(f"a truncated file: exit {status}, stderr {err!r}, stdout {out!r}")


rslib.main(run)
