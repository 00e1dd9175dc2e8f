# SPDX-License-Identifier: GPL-2.0-or-later
"""The RoCE profile's colouring rules in the real Wireshark GUI (profiles/RoCE).

tshark -C RoCE --color names the rule that colours each frame of the demo
under a filter that lists several kinds of verdict (a storm, a timeout,
go-back-N, CNPs, other verdicts). Wireshark (Qt) under Xvfb, started with
-C RoCE and that filter, must paint each of the packet list's first rows
in its rule's background colour, read off a screenshot. The screenshot
goes to the build dir (gui/); with --update-docs also to docs/gui-profile.png.

Skips (exit 77) only when wireshark, Xvfb or ImageMagick is not installed.
"""
import os
import re
import shutil
import subprocess
import sys

from guilib import OUT, gui_session, run
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tshark"))
from rslib import CAPTURES, ROOT, Failure, tshark  # noqa: E402

CAPTURE = os.path.join(CAPTURES, "demo.pcapng")
FILTER = "(roce.analysis.flags && !roce.hop.remarked) || roce.pfc.storm"
ROWS = 14                    # the rows checked: all fit in the packet list
MAIN_W, MAIN_H = 1000, 700   # guilib's main window geometry
ROW0_Y, ROW_H = 111, 17      # the packet list's first row and the rows' pitch (tests/gui/triage_window.py)
SAMPLE_X = 6                 # inside the No. column, left of its text


def rule_colours():
    """Each rule's background (the first colour of its line), 8 bits a channel, from the profile's colorfilters."""
    out = {}
    for line in open(os.path.join(ROOT, "profiles", "RoCE", "colorfilters")):
        m = re.match(r"@([^@]+)@[^@]*@\[(\d+),(\d+),(\d+)\]\[[\d,]+\]", line)
        if m:
            out[m.group(1)] = tuple(int(m.group(i)) * 255 // 65535 for i in (2, 3, 4))
    return out


def expected_rows():
    names = tshark("-n", "-C", "RoCE", "--color", "-r", CAPTURE, "-Y", FILTER, "-T", "fields",
                   "-e", "frame.coloring_rule.name").splitlines()[:ROWS]
    if len(names) < ROWS or len(set(names[1:])) < 4:
        raise Failure(f"the filter lists too few rows or rules to test the colours: {names}")
    return names


def pixels(path):
    """The image's RGB bytes and width."""
    width = int(subprocess.run(["identify", "-format", "%w", path], capture_output=True, text=True,
                               check=True).stdout)
    raw = subprocess.run(["convert", path, "-depth", "8", "rgb:-"], capture_output=True, check=True).stdout
    return raw, width


def check_gui(update_docs):
    colours = rule_colours()
    names = expected_rows()
    missing = set(names) - colours.keys()
    if missing:
        raise Failure(f"tshark names rules the profile does not have: {missing}")

    with gui_session() as gui:
        gui.start_wireshark(CAPTURE, args=("-C", "RoCE", "-Y", FILTER), profiles=True)
        main = gui.wait_for_window("demo.pcapng")
        shot = os.path.join(OUT, "profile.png")
        gui.grab(main, shot)
        raw, width = pixels(shot)
        wrong = []
        for i, name in enumerate(names):
            if i == 0:
                continue  # Wireshark selects the first row: it is in the selection's colour
            y = ROW0_Y + i * ROW_H + ROW_H // 2
            at = 3 * (y * width + SAMPLE_X)
            got = tuple(raw[at:at + 3])
            if any(abs(g - w) > 2 for g, w in zip(got, colours[name])):
                wrong.append(f"row {i + 1} ({name}): {got}, want {colours[name]}")
        if wrong:
            raise Failure(f"rows not in their rule's colour ({shot}):\n" + "\n".join(wrong))
        bad = gui.log_complaints()
        if bad:
            raise Failure(f"wireshark complained:\n{''.join(bad)}")
        print(f"gui: -C RoCE colours the first {ROWS} rows as tshark's rules say "
              f"({', '.join(sorted(set(names)))}); {shot}")
        if update_docs:
            shutil.copy(shot, os.path.join(ROOT, "docs", "gui-profile.png"))


if __name__ == "__main__":
    sys.exit(run(check_gui))
