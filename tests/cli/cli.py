# SPDX-License-Identifier: GPL-2.0-or-later
"""What the command tests share: running the command, comparing its output
with tshark's line by line."""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tshark"))
import rslib  # noqa: E402

VIEWS = ["qp", "pfc", "qos", "hops", "triage", "report"]
COMMAND = rslib.ROCESHARK
ENV = rslib.ROCESHARK_ENV
command = rslib.roceshark


def same(what, got, want):
    """Raise with the first differing line unless the outputs are equal."""
    if got == want:
        return
    lines = [(i, a, b) for i, (a, b) in enumerate(zip(got.splitlines(), want.splitlines())) if a != b]
    first = lines[0] if lines else (min(len(got.splitlines()), len(want.splitlines())), "(end)", "(end)")
    raise rslib.Failure(f"{what}: differs from tshark, first at line {first[0] + 1}:\n"
                        f"  roceshark: {first[1]!r}\n  tshark:    {first[2]!r}")
