# SPDX-License-Identifier: GPL-2.0-or-later
"""The RoCE Triage window in the real Wireshark GUI (ui-stats/triage_window.cpp).

Under Xvfb, on the demo capture: open RoCE → Triage from the menu bar, check
that the window shows what `tshark -z roce,triage` says, click "Filter 1"
and check that the packet list then shows exactly the first finding's
evidence. The window's text and the status bar are read with tesseract and
the clicks go through xdotool, as a user's would. The screenshot goes to the
build dir (gui/); with --update-docs also to docs/gui-triage.png.

Skips (exit 77) only when wireshark, Xvfb, ImageMagick, tesseract or
xdotool is not installed.
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from guilib import OUT, Gui, run
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tshark"))
from rslib import CAPTURES, ROOT, Failure, tshark  # noqa: E402

CAPTURE = os.path.join(CAPTURES, "demo.pcapng")
MAIN_W, MAIN_H = 1000, 700  # guilib's main window geometry
ROW0_Y, ROW_H = 111, 17      # the packet list's first row and the rows' pitch, in pixels
# "Packets: 3497 · Displayed: 16 (0.5%)": tesseract misreads the small 'l'.
DISPLAYED = re.compile(r"Packets: ?\d+\D+?(\d+) \(")


def tshark_findings():
    """(title line, filter, evidence count) of each finding of -z roce,triage."""
    text = tshark("-n", "-q", "-r", CAPTURE, "-z", "roce,triage")
    found = []
    for m in re.finditer(r"^(#\d+ \w+ \S+: .*)\n(?:   .*\n)*?   Evidence: (\d+) frames?.*\n(?:   .*\n)*?"
                         r"   Filter:   (.*)$", text, re.M):
        found.append((m.group(1), m.group(3), int(m.group(2))))
    if not found:
        raise Failure(f"-z roce,triage has no findings on the demo:\n{text}")
    return found


def words_of(text):
    """Words without the punctuation tesseract most often misreads (_ : ,)."""
    return [w for w in (re.sub(r"[^0-9A-Za-z.#=&|-]", "", w) for w in text.split()) if w]


def shown(expected, seen, what):
    """Most words of `expected` read off the screen: tesseract misreads a
    word here and there (underscores, a glyph under the text cursor), so up
    to a quarter may be missing. The exact checks are the status bar's count
    and the packet list's frame numbers."""
    seen = set(words_of(seen))
    want = words_of(expected)
    missing = [w for w in want if w not in seen]
    if len(missing) > max(1, len(want) // 4):
        raise Failure(f"{what}: the window does not show '{expected}' (unread: {missing})")


def check_gui(update_docs):
    findings = tshark_findings()
    first_title, first_filter, first_count = findings[0]
    first_frames = tshark("-n", "-r", CAPTURE, "-Y", first_filter, "-T", "fields", "-e", "frame.number").split()
    if len(first_frames) != first_count:
        raise Failure(f"finding #1's filter matches {len(first_frames)} frames, its evidence says {first_count}")

    os.makedirs(OUT, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="roceshark-gui-")
    gui = None
    try:
        gui = Gui(tmp)
        gui.start_wireshark(CAPTURE)
        main = gui.wait_for_window("demo.pcapng")
        gui.click_text(main, "RoCE")
        time.sleep(1)
        gui.click_text("root", "Triage")
        window = gui.wait_for_window("RoCE Triage")
        text = " ".join(w for w, _, _ in gui.words(window))
        shown(first_title, text, "finding #1")
        shown("Filter: " + first_filter, text, "finding #1's filter")
        buttons = [f"Filter {i}" for i in range(1, min(len(findings), 8) + 1)]
        for b in buttons:
            shown(b, text, "the buttons")

        gui.click_text(window, "Filter", "1")
        status = ""
        for _ in range(20):  # the filter applies in the background
            time.sleep(0.5)
            status = gui.read_line(main, MAIN_W // 2, MAIN_H - 22, MAIN_W // 2, 22)
            m = DISPLAYED.search(status)
            if m:
                break
        if not m or int(m.group(1)) != first_count:
            raise Failure(f"after 'Filter 1' the status bar reads '{status}', want {first_count} displayed")
        # The No. column of the first five rows, under the header.
        listed = [gui.read_line(main, 20, ROW0_Y + i * ROW_H, 60, ROW_H, digits=True) for i in range(5)]
        if listed != first_frames[:5]:
            raise Failure(f"the packet list's first rows read {listed}, want finding #1's frames {first_frames[:5]}")
        bad = gui.log_complaints()
        if bad:
            raise Failure(f"wireshark complained:\n{''.join(bad)}")

        screen = os.path.join(OUT, "triage.screen.png")
        gui.grab("root", screen)
        print(f"gui: RoCE Triage shows finding #1 and {len(buttons)} filter buttons; 'Filter 1' displays "
              f"{first_count} frames from {first_frames[0]}; {screen}")
        if update_docs:  # the main window and the triage, without the empty screen around them
            subprocess.run(["convert", screen, "-crop", "1380x690+0+0", "+repage",
                            os.path.join(ROOT, "docs", "gui-triage.png")], check=True)
    finally:
        if gui:
            gui.close()
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(run(check_gui, tools=("tesseract", "xdotool")))
