# SPDX-License-Identifier: GPL-2.0-or-later
"""-j changes how the command runs, never what it prints: every bundled
capture's JSON report is the same with -j 1 (one thread), -j 2 (libwiretap
and the decoder, the analysis, and the statistics on a thread each) and
-j 4, and so is every view of a generated capture long enough to fill many
of the reader's and the statistics' batches (1024 and 256 records), with three
points, several QPs and pauses, whole and filtered. A capture cut short
gives the same output, message and exit status whatever -j."""
import glob
import os
import subprocess
import tempfile

import cli
import rslib

GEN = os.path.join(rslib.BUILD, "captures", "roceshark-gen")
THREADS = ("1", "2", "4")

SCENARIO = """seed 11
snaplen 128
ack_coalesce 2us
host a 10.0.0.1 02:00:00:00:00:0a
host b 10.0.0.2 02:00:00:00:00:0b
host c 10.0.0.3 02:00:00:00:00:0c
switch leaf1 0c:42:a1:10:00:01
path a 300ns nic-a 600ns leaf1 600ns leaf-1 900ns b
path c 800ns leaf1 600ns leaf-1 900ns b
qp q1 a:0x000100 b:0x000200 psn=0,0 mtu=1024 window=64 dscp=26 ecn=2
qp q2 c:0x000300 b:0x000400 psn=0,0 mtu=1024 window=64 dscp=26 ecn=2
qp q3 a:0x000500 b:0x000600 psn=0,0 mtu=1024 dscp=26 ecn=2
pfc leaf-1 storm from=b prio=3 quanta=0xffff at=1ms every=100us until=3.5ms
write q1 a 8K repeat=400 every=20us
write q2 c 8K repeat=400 every=20us
read q3 a 4K repeat=200 every=30us at=10us
drop q1 a psn=300 where=after:leaf-1
"""


def same_for_every_j(what, *args):
    outs = {}
    for j in THREADS:
        status, out, err = cli.command("-j", j, *args)
        outs[j] = (status, out, err)
    for j in THREADS[1:]:
        if outs[j] != outs[THREADS[0]]:
            cli.same(f"{what} -j {j} against -j {THREADS[0]}", outs[j][1] + outs[j][2] + str(outs[j][0]),
                     outs[THREADS[0]][1] + outs[THREADS[0]][2] + str(outs[THREADS[0]][0]))
    return outs[THREADS[0]]


def run(argv):
    bundled = sorted(glob.glob(os.path.join(rslib.CAPTURES, "*.pcapng")))
    if len(bundled) < 50:
        raise rslib.Failure(f"{len(bundled)} bundled captures in {rslib.CAPTURES}: the build made too few")
    for capture in bundled:
        same_for_every_j(os.path.basename(capture), "report", capture)
    with tempfile.TemporaryDirectory() as tmp:
        scn, capture = os.path.join(tmp, "long.scn"), os.path.join(tmp, "long.pcapng")
        with open(scn, "w") as f:
            f.write(SCENARIO)
        subprocess.run([GEN, scn, "-o", capture], check=True, capture_output=True)
        frames = int(subprocess.run(["capinfos", "-M", "-c", capture], capture_output=True, text=True,
                                    check=True).stdout.split()[-1])
        if frames < 10 * 1024:
            raise rslib.Failure(f"the long capture has {frames} frames: too few to fill ten batches")
        for view in cli.VIEWS:
            status, out, _ = same_for_every_j(f"{view} of the long capture", view, capture)
            if status != 0 or not out:
                raise rslib.Failure(f"roceshark {view} of the long capture exited {status}")
        for selection in (("--qp", "0x000400"), ("--point", "leaf-1")):
            same_for_every_j(f"the long capture's report with {' '.join(selection)}", *selection, "report", capture)
        # Cut mid-record: the error and what came before it, whatever -j.
        cut = os.path.join(tmp, "cut.pcapng")
        with open(capture, "rb") as src, open(cut, "wb") as dst:
            dst.write(src.read(os.path.getsize(capture) * 2 // 3 + 7))
        status, out, err = same_for_every_j("the cut capture", "triage", cut)
        if status != 1 or "the records before it are analysed" not in err:
            raise rslib.Failure(f"the cut capture: exit {status}, stderr {err!r}")
    print(f"{len(THREADS)} thread counts agree: {len(bundled)} bundled captures, a {frames}-frame capture, a cut one")


rslib.main(run)
