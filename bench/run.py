# SPDX-License-Identifier: GPL-2.0-or-later
"""Benchmark: the plugin's cost as a ratio against plain tshark on the same
file, in the same run.

  plain:  tshark -n -q -r F -Y infiniband                 (no plugin)
  roce:   tshark -n -q -r F -Y infiniband -z roce,qp      (plugin)

-Y infiniband makes plain tshark build the same InfiniBand tree the
postdissector needs; plain `tshark -q` with no filter builds no tree and is
not the comparison. Runs alternate and the median of each is reported, with
packets per second and peak RSS (GNU time). Not a pass/fail test: it prints
figures for the README and the issue notes.

  bench/run.py [--packets N] [--runs R] [--capture F]
"""
import argparse
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("ROCESHARK_BUILD", os.path.join(ROOT, "build"))
RS_TSHARK = os.path.join(ROOT, "scripts", "rs-tshark")
GEN = os.path.join(BUILD, "captures", "roceshark-gen")
SCENARIO = os.path.join(ROOT, "captures", "scenarios", "bench.scn")


def timed(args, plugin):
    env = dict(os.environ, ROCESHARK_BUILD=BUILD)
    if not plugin:
        env["ROCESHARK_NO_PLUGIN"] = "1"
    with tempfile.NamedTemporaryFile("r", suffix=".time") as t:
        cmd = ["/usr/bin/time", "-o", t.name, "-f", "%e %M", RS_TSHARK, *args]
        p = subprocess.run(cmd, env=env, capture_output=True, text=True)
        if p.returncode:
            sys.exit(f"{' '.join(cmd)} failed:\n{p.stderr}")
        secs, rss_kb = t.read().split()[-2:]
    return float(secs), int(rss_kb), p.stdout


def count_packets(capture):
    out = subprocess.run(["capinfos", "-M", "-c", capture], capture_output=True, text=True, check=True).stdout
    return int(next(l for l in out.splitlines() if "Number of packets" in l).split()[-1])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--capture", default=os.path.join(BUILD, "bench", "bench.pcapng"))
    a = ap.parse_args()
    if not os.path.exists(a.capture):
        os.makedirs(os.path.dirname(a.capture), exist_ok=True)
        subprocess.run([GEN, SCENARIO, "-o", a.capture], check=True)
    packets = count_packets(a.capture)
    base = ["-n", "-q", "-r", a.capture, "-Y", "infiniband"]
    plain, roce = [], []
    for _ in range(a.runs):
        plain.append(timed(base, plugin=False))
        roce.append(timed(base + ["-z", "roce,qp"], plugin=True))
    tp = statistics.median(r[0] for r in plain)
    tr = statistics.median(r[0] for r in roce)
    print(f"capture: {a.capture} ({packets} packets, {os.path.getsize(a.capture) / 1e6:.0f} MB)")
    print(f"plain tshark -Y infiniband:          {tp:6.2f} s  {packets / tp / 1e3:7.0f} kpkt/s  "
          f"peak RSS {max(r[1] for r in plain) / 1024:6.0f} MiB")
    print(f"roceshark  -Y infiniband -z roce,qp: {tr:6.2f} s  {packets / tr / 1e3:7.0f} kpkt/s  "
          f"peak RSS {max(r[1] for r in roce) / 1024:6.0f} MiB")
    print(f"ratio: {tr / tp:.3f} (target <= 1.25), median of {a.runs} alternating runs")


if __name__ == "__main__":
    main()
