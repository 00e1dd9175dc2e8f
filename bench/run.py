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

  bench/run.py [--runs R] [--scenario NAME] [--capture F] [--flat] [--one-point P]
  bench/run.py --command VIEW [--runs R] [--scenario NAME]   # the roceshark command

--scenario picks captures/scenarios/NAME.scn (default bench: one RoCE QP;
bench_pfc: 10% PFC frames; bench_pairs: 32 host pairs, what -j is measured
on; bench_mp: three points). --flat also runs the first tenth of the
capture and prints both ratios: the plugin's cost per packet must not grow
as the capture (and its pause windows) grows. --one-point P (multi-point
scenarios, e.g. bench_mp) also runs the generator's copy of the scenario
with point P alone and prints what matching across the points adds per
packet over single-point analysis.
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


def measure(capture, runs, pfc, stat=None):
    """The plain run builds the tree the postdissector needs (InfiniBand, and
    MAC control when PFC frames are in play); the plugin run adds the stats."""
    packets = count_packets(capture)
    wanted = "infiniband or macc" if pfc else "infiniband"
    stats = ["-z", "roce,qp", "-z", "roce,pfc"] if pfc else ["-z", "roce,qp"]
    if stat:
        stats = [x for z in stat for x in ("-z", z)]
    base = ["-n", "-q", "-r", capture, "-Y", wanted]
    plain, roce = [], []
    for _ in range(runs):
        plain.append(timed(base, plugin=False))
        roce.append(timed(base + stats, plugin=True))
    tp = statistics.median(r[0] for r in plain)
    tr = statistics.median(r[0] for r in roce)
    print(f"capture: {capture} ({packets} packets, {os.path.getsize(capture) / 1e6:.0f} MB)")
    print(f"plain  tshark -Y '{wanted}': {tp:6.2f} s  {packets / tp / 1e3:7.0f} kpkt/s  "
          f"peak RSS {max(r[1] for r in plain) / 1024:6.0f} MiB")
    print(f"plugin {' '.join(stats)}: {tr:6.2f} s  {packets / tr / 1e3:7.0f} kpkt/s  "
          f"peak RSS {max(r[1] for r in roce) / 1024:6.0f} MiB")
    print(f"ratio: {tr / tp:.3f} (target <= 1.25), median of {runs} alternating runs")
    return tr / tp, (tr - tp) / packets


def timed_command(args):
    with tempfile.NamedTemporaryFile("r", suffix=".time") as t:
        cmd = ["/usr/bin/time", "-o", t.name, "-f", "%e %M", os.path.join(BUILD, "roceshark"), *args]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode:
            sys.exit(f"{' '.join(cmd)} failed:\n{p.stderr}")
        secs, rss_kb = t.read().split()[-2:]
    return float(secs), int(rss_kb)


def measure_command(capture, runs, view):
    """The roceshark command with one thread and with two, against tshark
    with the plugin printing the same view, alternating runs."""
    packets = count_packets(capture)
    rows = {"tshark": [], "-j 1": [], "-j 2": []}
    for _ in range(runs):
        secs, rss, _ = timed(["-n", "-q", "-r", capture, "-z", f"roce,{view}"], plugin=True)
        rows["tshark"].append((secs, rss))
        for j in ("1", "2"):
            rows[f"-j {j}"].append(timed_command(["-j", j, view, capture]))
    print(f"capture: {capture} ({packets} packets, {os.path.getsize(capture) / 1e6:.0f} MB), view {view}")
    base = statistics.median(r[0] for r in rows["tshark"])
    for name, runs_of in rows.items():
        t = statistics.median(r[0] for r in runs_of)
        print(f"{name:7s} {t:6.2f} s  {packets / t / 1e6:5.2f} M pkt/s  peak RSS {max(r[1] for r in runs_of) / 1024:5.0f} MiB"
              f"  {base / t:5.1f}x tshark")
    one, two = (statistics.median(r[0] for r in rows[k]) for k in ("-j 1", "-j 2"))
    print(f"-j 2 against -j 1: {one / two:.2f}x, median of {runs} alternating runs")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--scenario", default="bench")
    ap.add_argument("--capture")
    ap.add_argument("--flat", action="store_true")
    ap.add_argument("--one-point")
    ap.add_argument("--command", metavar="VIEW", help="time the roceshark command (-j 1, -j 2) against tshark "
                                                       "-z roce,VIEW instead")
    ap.add_argument("--stat", action="append", help="the -z statistics of the plugin run (repeatable), "
                                                    "instead of roce,qp (and roce,pfc)")
    a = ap.parse_args()
    capture = a.capture or os.path.join(BUILD, "bench", a.scenario + ".pcapng")
    scenario = os.path.join(ROOT, "captures", "scenarios", a.scenario + ".scn")
    if not os.path.exists(capture):
        os.makedirs(os.path.dirname(capture), exist_ok=True)
        subprocess.run([GEN, scenario, "-o", capture], check=True)
    if a.command:
        return measure_command(capture, a.runs, a.command)
    pfc = a.scenario.startswith("bench_pfc")
    ratio, extra = measure(capture, a.runs, pfc, a.stat)
    if a.flat:
        head = capture[:-len(".pcapng")] + ".tenth.pcapng"
        total = count_packets(capture)
        subprocess.run(["editcap", "-r", capture, head, f"1-{total // 10}"], check=True)
        small_ratio, small_extra = measure(head, a.runs, pfc, a.stat)
        print(f"flatness: extra cost {extra * 1e9:.0f} ns/packet on the whole capture, "
              f"{small_extra * 1e9:.0f} ns/packet on its first tenth (ratio {ratio:.3f} vs {small_ratio:.3f})")
    if a.one_point:
        single = capture[:-len(".pcapng")] + "." + a.one_point + ".pcapng"
        if not os.path.exists(single):
            subprocess.run([GEN, scenario, "-o", single, "--only-point", a.one_point], check=True)
        one_ratio, one_extra = measure(single, a.runs, pfc, a.stat)
        print(f"matching: extra cost {extra * 1e9:.0f} ns/packet across the points, {one_extra * 1e9:.0f} ns/packet "
              f"at {a.one_point} alone (ratio {ratio:.3f} vs {one_ratio:.3f})")


if __name__ == "__main__":
    main()
