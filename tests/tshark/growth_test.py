# SPDX-License-Identifier: GPL-2.0-or-later
"""Memory grows by a bounded amount per item, on hostile captures
(bench/hostile_capture.py): the peak RSS of `-z roce,report` minus that of
plain tshark (`-z io,phs`), from N items to 4N, divided by the 3N items
added. Within a limit that is what one QP, pausing port or CM exchange
costs; past a limit only what one frame costs. The budgets are about twice
what was measured (docs/analysis.md, "Limits and memory"): a regression
that keeps a structure per frame or per item again fails here. Memory, not
time: nothing here is timed.

  growth_test.py [--measure]   # --measure prints the figures, asserts nothing
"""
import os
import subprocess
import sys
import tempfile

import rslib

sys.path.insert(0, os.path.join(rslib.ROOT, "bench"))
import hostile_capture  # noqa: E402

# (what, kind, N, preferences, budget in bytes per item added)
CASES = [
    ("a QP within roce.max_flows", "qps", 5000, (), 6144),
    ("a packet of a flow past roce.max_flows", "qps", 20000, ("-o", "roce.max_flows:1000"), 512),
    ("a frame at a point past roce.max_points", "points", 20000, (), 512),
    ("a point and its (flow, point) within the limits", "points", 2000, ("-o", "roce.max_points:100000"), 8192),
    ("a pausing port within roce.max_pfc_ports", "pfc", 2000, ("-o", "roce.max_pfc_ports:100000"), 6144),
    ("a PFC frame past roce.max_pfc_ports", "pfc", 20000, ("-o", "roce.max_pfc_ports:100"), 512),
    ("a CM exchange", "cm", 5000, (), 3072),
]


def peak_kib(capture, *args, plugin=True):
    """Peak RSS of tshark (the largest of rs-tshark's process tree, as wait4 reports it)."""
    env = dict(os.environ, ROCESHARK_BUILD=rslib.BUILD)
    if not plugin:
        env["ROCESHARK_NO_PLUGIN"] = "1"
    cmd = [rslib.RS_TSHARK, "-n", "-q", "-r", capture, *args]
    p = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    stderr = p.stderr.read()
    _, status, usage = os.wait4(p.pid, 0)
    if os.waitstatus_to_exitcode(status) or any(m in stderr for m in rslib.BAD_STDERR):
        raise rslib.Failure(f"{' '.join(cmd)} exited {os.waitstatus_to_exitcode(status)}:\n{stderr}")
    return usage.ru_maxrss


def extra(capture, prefs):
    return peak_kib(capture, *prefs, "-z", "roce,report") - peak_kib(capture, "-z", "io,phs", plugin=False)


def run(argv):
    measure = "--measure" in argv
    failures = []
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)
        for what, kind, n, prefs, budget in CASES:
            kib = []
            for count in (n, 4 * n):
                path = os.path.join(tmp, f"{kind}-{count}.pcapng")
                if not os.path.exists(path):
                    hostile_capture.write(kind, count, path)
                    os.chmod(path, 0o644)
                kib.append(extra(path, prefs))
            per_item = (kib[1] - kib[0]) * 1024 / (3 * n)
            print(f"{what}: {per_item:.0f} B (budget {budget} B; {kind} {n} -> {4 * n}, plugin's extra peak "
                  f"{kib[0] / 1024:.0f} -> {kib[1] / 1024:.0f} MiB)")
            if per_item > budget:
                failures.append(f"{what} costs {per_item:.0f} B, over its budget of {budget} B")
    if failures and not measure:
        raise rslib.Failure("; ".join(failures))


rslib.main(run)
