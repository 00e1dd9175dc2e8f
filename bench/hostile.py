# SPDX-License-Identifier: GPL-2.0-or-later
"""Hostile-capture benchmark: peak memory against plain tshark.

For each kind of bench/hostile_capture.py (1 M QPs, 200 k capture points,
500 k PFC frames from as many port MACs, 100 k CM exchanges), the peak RSS
of

  plain:  tshark -n -q -r F -z io,phs          (forces dissection, no plugin)
  roce:   tshark -n -q -r F -z roce,report     (every statistic, plugin)

and the cost per item: the growth of each peak from a capture a tenth the
size, divided by the items added. The target is roce <= 2x plain on each
kind. Figures, not a pass/fail test (tests/tshark/growth_test.py asserts
the bounded growth on small captures).

  bench/hostile.py [--scale S] [--kind K ...]   # S multiplies the counts (default 1)
"""
import argparse
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostile_capture  # noqa: E402
from run import timed  # noqa: E402

COUNTS = {"qps": 1_000_000, "points": 200_000, "pfc": 500_000, "cm": 100_000}


def peaks(capture):
    """(plain, roce) peak RSS in KiB and seconds."""
    plain = timed(["-n", "-q", "-r", capture, "-z", "io,phs"], plugin=False)
    roce = timed(["-n", "-q", "-r", capture, "-z", "roce,report"], plugin=True)
    return plain, roce


def measure(kind, count, tmp):
    small, big = max(count // 10, 1), count
    runs = {}
    for n in (small, big):
        path = os.path.join(tmp, f"{kind}-{n}.pcapng")
        hostile_capture.write(kind, n, path)
        os.chmod(path, 0o644)
        runs[n] = peaks(path)
    (p0, r0), (p1, r1) = runs[small], runs[big]
    per = lambda a, b: (b[1] - a[1]) * 1024 / (big - small)  # noqa: E731
    print(f"{kind:6} {count:>9,}  plain {p1[1] / 1024:7.0f} MiB {p1[0]:6.1f} s  "
          f"roce {r1[1] / 1024:7.0f} MiB {r1[0]:6.1f} s  ratio {r1[1] / p1[1]:5.2f}  "
          f"per item: plain {per(p0, p1):6.0f} B, roce {per(r0, r1):6.0f} B")
    return r1[1] / p1[1]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--scale", type=float, default=1.0)
    ap.add_argument("--kind", action="append", choices=hostile_capture.KINDS)
    a = ap.parse_args()
    if a.scale <= 0:
        ap.error("--scale must be above 0")
    print("kind       items  peak RSS and time of `-z io,phs` (plain) and `-z roce,report` (roce); "
          "per item: growth from a tenth of the items")
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)
        worst = max(measure(k, max(int(COUNTS[k] * a.scale), 10), tmp) for k in a.kind or hostile_capture.KINDS)
    print(f"worst ratio {worst:.2f} (target <= 2)")


if __name__ == "__main__":
    main()
