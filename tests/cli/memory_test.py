# SPDX-License-Identifier: GPL-2.0-or-later
"""The command's memory does not grow with the capture: the peak RSS of
`roceshark report` on a capture ten times as long (the same QPs, ten times
the messages) is within MARGIN of the short one's. What it keeps is bounded
by flows, capture points, the match window and the evidence kept, not by
packets. The match window is set to 100 us so that both captures are many
windows long (at the default 10 ms the short one would fit in one window,
and the long one would add the window's worth of packets). Memory, not
time: nothing here is timed.

  memory_test.py [--measure]   # --measure prints the figures, asserts nothing
"""
import os
import subprocess
import tempfile

import cli
import rslib

GEN = os.path.join(rslib.BUILD, "captures", "roceshark-gen")
MESSAGES = 400        # 64 KB WRITEs of 1 KB packets: 25,600 requests, then ten times that
MARGIN_KIB = 1024     # a store of 4 bytes per packet added would exceed it

SCENARIO = """seed 5
snaplen 128
ack_coalesce 2us
host a 10.0.0.1 02:00:00:00:00:0a
host b 10.0.0.2 02:00:00:00:00:0b
path a 1us tap-1 1us sw 1us tap-2 1us b
qp q1 a:0x000100 b:0x000200 psn=0,0 mtu=1024 window=256 dscp=26 ecn=2
qp q2 b:0x000300 a:0x000400 psn=0,0 mtu=1024 window=256 dscp=26 ecn=2
write q1 a 64K repeat={n}
write q2 b 64K repeat={n}
"""


def peak_kib(capture):
    """Peak RSS as GNU time reports it: a process started from Python would
    carry Python's own resident pages from before its exec in ru_maxrss."""
    with tempfile.NamedTemporaryFile("r") as t:
        p = subprocess.run(["/usr/bin/time", "-o", t.name, "-f", "%M", cli.COMMAND, "-o", "roce.match_window_us:100",
                            "report", capture], env=cli.ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                           text=True)
        if p.returncode:
            raise rslib.Failure(f"roceshark report {capture} exited {p.returncode}:\n{p.stderr}")
        return int(t.read().split()[-1])


def run(argv):
    with tempfile.TemporaryDirectory() as tmp:
        peaks = []
        for n in (MESSAGES, 10 * MESSAGES):
            scn, capture = os.path.join(tmp, f"long{n}.scn"), os.path.join(tmp, f"long{n}.pcapng")
            with open(scn, "w") as f:
                f.write(SCENARIO.format(n=n))
            subprocess.run([GEN, scn, "-o", capture], check=True, capture_output=True)
            peaks.append(peak_kib(capture))
    growth = peaks[1] - peaks[0]
    print(f"peak RSS {peaks[0]} KiB for {MESSAGES} messages a QP, {peaks[1]} KiB for {10 * MESSAGES}: "
          f"{growth:+d} KiB")
    if "--measure" not in argv and growth > MARGIN_KIB:
        raise rslib.Failure(f"memory grew {growth} KiB with ten times the packets (margin {MARGIN_KIB} KiB)")


rslib.main(run)
