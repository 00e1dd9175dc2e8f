# SPDX-License-Identifier: GPL-2.0-or-later
"""The command's memory does not grow with the capture: the peak RSS of
`roceshark report` on a capture ten times as long (the same QPs, ten times
the messages) is within MARGIN of the short one's. What it keeps is bounded
by flows, capture points, the match window and the evidence kept, not by
packets. The match window is set to 100 us so that both captures are many
windows long (at the default 10 ms the short one would fit in one window,
and the long one would add the window's worth of packets). Memory, not
time: nothing here is timed.

Then idle flows: 200 QPs one after another, each quiet after its 20
messages. With roce.flow_idle_s:1 their sequence state is freed once they
have been quiet a second, so the peak is lower by at least EXPIRY_KIB than
with expiry off, and every view says the same (no flow comes back), in the
command and in tshark alike.

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
EXPIRY_KIB = 2048     # measured 3,700 KiB: 200 flows' PSN indexes of 1,280 PSNs

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


def staggered(n=200):
    lines = ["seed 3", "max_time 30s", "snaplen 128", "ack_coalesce 2us", "host a 10.0.0.1 02:00:00:00:00:0a",
             "host b 10.0.0.2 02:00:00:00:00:0b", "path a 1us tap-1 1us b"]
    lines += [f"qp q{k} a:0x{0x1000 + k:06x} b:0x{0x5000 + k:06x} psn=0,0 mtu=1024 window=256 dscp=26 ecn=2"
              for k in range(n)]
    lines += [f"write q{k} a 64K repeat=20 every=200us at={k * 50}ms" for k in range(n)]
    return "\n".join(lines) + "\n"


def peak_kib(capture, *options):
    """Peak RSS as GNU time reports it: a process started from Python would
    carry Python's own resident pages from before its exec in ru_maxrss."""
    with tempfile.NamedTemporaryFile("r") as t:
        p = subprocess.run(["/usr/bin/time", "-o", t.name, "-f", "%M", cli.COMMAND,
                            *(options or ("-o", "roce.match_window_us:100")), "report", capture],
                           env=cli.ENV, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
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
    expiry(argv)


def expiry(argv):
    with tempfile.TemporaryDirectory() as tmp:
        scn, capture = os.path.join(tmp, "staggered.scn"), os.path.join(tmp, "staggered.pcapng")
        with open(scn, "w") as f:
            f.write(staggered())
        subprocess.run([GEN, scn, "-o", capture], check=True, capture_output=True)
        kept, freed = (peak_kib(capture, "-o", f"roce.flow_idle_s:{s}") for s in (0, 1))
        print(f"200 QPs one after another: peak RSS {kept} KiB with expiry off, {freed} KiB with "
              f"roce.flow_idle_s:1 ({kept - freed:+d} KiB)")
        if "--measure" in argv:
            return
        if kept - freed < EXPIRY_KIB:
            raise rslib.Failure(f"expiry saved {kept - freed} KiB, expected at least {EXPIRY_KIB} KiB")
        for view in cli.VIEWS:
            outs = [cli.command("-o", f"roce.flow_idle_s:{s}", view, capture)[1] for s in (0, 1)]
            cli.same(f"roceshark {view} with and without expiry", outs[1], outs[0])
        want = rslib.tshark("-n", "-q", "-r", capture, "-o", "roce.flow_idle_s:1", "-z", "roce,report")
        got = cli.command("-o", "roce.flow_idle_s:1", "report", capture)[1]
        cli.same("roceshark report with roce.flow_idle_s:1, against tshark", got, want)


rslib.main(run)
