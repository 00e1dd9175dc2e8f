# SPDX-License-Identifier: GPL-2.0-or-later
"""README's hostile-input table: wall time and peak RSS (/usr/bin/time -v)
of plain tshark, tshark with the plugin and the roceshark command on each
hostile capture of bench/hostile_capture.py at the issue's sizes:

  qps     1,000,000 QPs (one SEND each)
  points  400,000 capture points (pcapng interfaces)
  pfc     500,000 PFC frames from as many ports
  bulk    a 2 GB capture (1.8 M 1 KB SENDs of 64 QPs and their ACKs)

  plain:    tshark -n -q -r F -z io,phs         (dissects every frame, no plugin)
  plugin:   tshark -n -q -r F -z roce,report    (scripts/rs-tshark: as root tshark ignores plugins)
  command:  roceshark report F

One run each, one after the other (a 2-core machine). Prints a Markdown
table; the captures are written to DIR (default a temporary directory) and
kept with --keep.

  bench/hostile_table.py [--kind K ...] [--dir DIR] [--keep]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostile_capture  # noqa: E402
from run import BUILD, RS_TSHARK  # noqa: E402

SIZES = {"qps": 1_000_000, "points": 400_000, "pfc": 500_000, "bulk": 1_800_000}
LABELS = {"qps": "1,000,000 QPs", "points": "400,000 capture points", "pfc": "500,000 PFC frames (as many ports)",
          "bulk": "2 GB capture"}


def measure(cmd, env=None):
    """(seconds, peak RSS in MiB, exit status) of one run, its output discarded."""
    with tempfile.NamedTemporaryFile("r", suffix=".time") as t:
        p = subprocess.run(["/usr/bin/time", "-v", "-o", t.name, *cmd], env=env, stdout=subprocess.DEVNULL,
                           stderr=subprocess.PIPE, text=True)
        report = t.read()
    wall = re.search(r"Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): (?:(\d+):)?(\d+):([\d.]+)", report)
    rss = re.search(r"Maximum resident set size \(kbytes\): (\d+)", report)
    if not wall or not rss:
        sys.exit(f"{' '.join(cmd)}: no figures from /usr/bin/time:\n{report}\n{p.stderr[-2000:]}")
    h, m, s = wall.groups()
    return int(h or 0) * 3600 + int(m) * 60 + float(s), int(rss.group(1)) / 1024, p.returncode


def row(kind, tmp):
    path = os.path.join(tmp, f"{kind}.pcapng")
    if not os.path.exists(path):
        start = time.time()
        hostile_capture.write(kind, SIZES[kind], path)
        os.chmod(path, 0o644)
        print(f"wrote {path}: {os.path.getsize(path) / 1e9:.2f} GB in {time.time() - start:.0f} s", file=sys.stderr)
    env = dict(os.environ, ROCESHARK_BUILD=BUILD)
    plain = measure([RS_TSHARK, "-n", "-q", "-r", path, "-z", "io,phs"], dict(env, ROCESHARK_NO_PLUGIN="1"))
    plugin = measure([RS_TSHARK, "--build", BUILD, "-n", "-q", "-r", path, "-z", "roce,report"], env)
    command = measure([os.path.join(BUILD, "roceshark"), "report", path])
    cells = [f"{t:.1f} s, {m:,.0f} MiB" + ("" if rc == 0 else f" (exit {rc})") for t, m, rc in (plain, plugin, command)]
    size = os.path.getsize(path)
    print(f"| {LABELS[kind]} ({size / 1e6:,.0f} MB) | " + " | ".join(cells) +
          f" | {plugin[1] / plain[1]:.2f}, {command[1] / plain[1]:.2f} |", flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--kind", action="append", choices=list(SIZES))
    ap.add_argument("--dir")
    ap.add_argument("--keep", action="store_true")
    a = ap.parse_args()
    tmp = a.dir or tempfile.mkdtemp()
    os.makedirs(tmp, exist_ok=True)
    os.chmod(tmp, 0o755)  # tshark runs as nobody
    print("| capture | plain tshark | tshark with the plugin | roceshark report | RSS ratio to plain (plugin, command) |")
    print("| --- | --- | --- | --- | --- |")
    try:
        for kind in a.kind or SIZES:
            row(kind, tmp)
    finally:
        if not a.keep and not a.dir:
            shutil.rmtree(tmp)


if __name__ == "__main__":
    main()
