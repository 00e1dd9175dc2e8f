# SPDX-License-Identifier: GPL-2.0-or-later
"""The roceshark command prints what tshark with the plugin prints, byte
for byte: every view (qp, pfc, qos, hops, triage, report) of every bundled
capture, and of the scenarios the goldens also check under other roce.*
preferences, given as the same -o options. One decoder, one analysis, one
set of views: a difference is a bug in the command's reading or feeding,
never an accepted variation."""
import glob
import os

import cli
import golden
import rslib


def compare(capture, options=()):
    name = os.path.basename(capture) + "".join(" " + o for o in options if o != "-o")
    # tshark prints its -z views in the order given; each view of the
    # command is one run, so compare view by view.
    for view in cli.VIEWS:
        want = rslib.tshark("-n", "-q", "-r", capture, *options, "-z", f"roce,{view}")
        status, got, err = cli.command(*options, view, capture)
        if status != 0:
            raise rslib.Failure(f"roceshark {view} {name} exited {status}:\n{err}")
        cli.same(f"roceshark {view} {name}", got, want)


def run(argv):
    captures = argv or sorted(glob.glob(os.path.join(rslib.CAPTURES, "*.pcapng")))
    for capture in captures:
        compare(capture)
    if not argv:
        for scenario, _, options in golden.VARIANTS:
            compare(rslib.capture_path(scenario), options)


rslib.main(run)
