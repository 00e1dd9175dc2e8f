# SPDX-License-Identifier: GPL-2.0-or-later
"""The monitor's windows merge back to the whole (issue 33): with
--partials, `roceshark monitor` writes each period's partial report beside
its window reports, and `roceshark merge VIEW DIR/period-*.rsp` prints,
byte for byte, what `roceshark VIEW` prints of everything the run read,
though the run's analysis started afresh every period. Replayed as fast as
they come, with windows and periods short enough that each capture spans
several periods: single and multi-point captures, three per-point files
read as one run, and a run under a preference. A period missing, given
twice, or a run whose last period is missing (a monitor still running, or
killed) is an error naming it."""
import glob
import json
import os
import shutil
import subprocess
import tempfile

import monitor  # first: it puts the command tests' helpers on the path
import cli  # noqa: E402
import rslib  # noqa: E402

VIEWS = cli.VIEWS + ["health"]
GEN = os.path.join(rslib.BUILD, "captures", "roceshark-gen")


def run_monitor(out, files, opts=()):
    span = json.loads(cli.command("report", *opts, *files)[1])["capture"]["span_ns"]
    window = max(span / 24, 1) / 1e9  # about two dozen windows, fewer where the capture pauses
    status, _, err = monitor.monitor("-q", "--out", out, "--partials", "--window", f"{window:.9f}",
                                     "--period", f"{2 * window:.9f}", *opts, *files)
    if status != 0:
        raise rslib.Failure(f"monitor --partials: exit {status}: {err}")
    periods = sorted(glob.glob(os.path.join(out, "period-*.rsp")))
    if len(periods) < 3:
        raise rslib.Failure(f"{files}: {len(periods)} periods; the test needs several")
    return periods


def merged_equal(label, periods, files, opts=()):
    for v in VIEWS:
        whole = cli.command(v, *opts, *files)
        got = cli.command("merge", v, *periods)
        if got[:2] != whole[:2]:
            cli.same(f"{label}: {v} merged from {len(periods)} periods (exit {got[0]}, whole {whole[0]}; "
                     f"{got[2].strip()})", got[1], whole[1])
            raise rslib.Failure(f"{label}: {v}: exit {got[0]}, the whole's {whole[0]}")
    print(f"{label}: {len(periods)} periods merge to every view of the whole")


def refused(label, periods, *words):
    status, out, err = cli.command("merge", "report", *periods)
    if status != 2 or out or not all(w in err for w in words):
        raise rslib.Failure(f"{label}: exit {status}, {len(out)} bytes out, {err!r}; want 2, nothing, {words}")
    print(f"{label}: {err.strip()}")


def run(argv):
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("demo", "pfc_storm", "gbn", "mp_drop", "selective"):
            out = os.path.join(tmp, name)
            capture = rslib.capture_path(name)
            merged_equal(name, run_monitor(out, [capture]), [capture])
        opts = ["-o", "roce.lossless_priorities:3,5"]
        capture = rslib.capture_path("qos_dscp_lossy")
        merged_equal("qos_dscp_lossy under -o", run_monitor(os.path.join(tmp, "opts"), [capture], opts), [capture], opts)
        scn = os.path.join(rslib.CAPTURES, "scenarios", "mp_drop.scn")
        files = []
        for p in ("nic-a", "leaf-1", "nic-b"):
            files.append(os.path.join(tmp, p + ".pcapng"))
            subprocess.run([GEN, scn, "-o", files[-1], "--only-point", p], check=True, capture_output=True)
        periods = run_monitor(os.path.join(tmp, "points"), files)
        merged_equal("mp_drop as three files", periods, files)

        refused("a period missing", periods[:1] + periods[2:], "period 1", "missing")
        twice = os.path.join(tmp, "twice.rsp")
        shutil.copy(periods[1], twice)
        refused("a period twice", periods + [twice], "twice.rsp", "given twice")
        refused("the last period missing", periods[:-1], os.path.basename(periods[-2]), "still running")


rslib.main(run)
