# SPDX-License-Identifier: GPL-2.0-or-later
"""The RoCE tab of Statistics → Conversations and Endpoints in the real
Wireshark GUI (taps/conversation_table.cpp).

Wireshark (Qt) under Xvfb on the demo: open Statistics → Conversations
(then Endpoints) from the menu, tick RoCE in the dialog's list of types (a
type off by default, as most are), open the RoCE tab and read its rows with
tesseract: each conversation's (host's) addresses and total frames must be
those tshark -z conv,roce (endpoints,roce) prints, and a conversation's
ports the QPs at its ends (the destination QPs of its frames; tshark prints
no ports). (Wireshark 4.0's own
`wireshark -z conv,TYPE` fails for every type: "No such method
statCommandConversations".) The screenshots go to the build dir (gui/).

Skips (exit 77) only when wireshark, Xvfb, ImageMagick, tesseract or
xdotool is not installed.
"""
import os
import re
import subprocess
import sys
import time

from guilib import OUT, gui_session, plain, run
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tshark"))
from rslib import CAPTURES, Failure, tshark  # noqa: E402

CAPTURE = os.path.join(CAPTURES, "demo.pcapng")
# Per table: the dialog's title, the -z table's title, and how a row's
# address and frame total are found in tshark's text.
TABLES = {
    "conv,roce": ("Conversations", "RoCE Conversations", re.compile(r"^(\S+)\s+<->\s+(\S+)\s+\d+ .*?(\d+) +\d+ \S+ +[\d.]+ +[\d.]+$")),
    "endpoints,roce": ("Endpoints", "RoCE Endpoints", re.compile(r"^(\S+)\s+(\d+)\s+\d+\s+\d+\s+\d+\s+\d+\s+\d+\s*$")),
}


def expected(z):
    """The addresses and frame totals tshark's table lists."""
    _, title, row = TABLES[z]
    text = tshark("-q", "-r", CAPTURE, "-z", z)
    words = set()
    for line in text.split(title, 1)[1].splitlines():
        m = row.match(line.strip())
        if m:
            words.update(m.groups())
    if len(words) < 3:
        raise Failure(f"-z {z} lists too little to test:\n{text}")
    if z.startswith("conv"):
        # The ports are the QP at each end: the destination QPs of the frames sent to it (tshark prints none).
        qps = tshark("-r", CAPTURE, "-Y", "roce.qp.stream", "-T", "fields", "-e", "infiniband.bth.destqp").split()
        words.update(str(int(q, 16)) for q in qps)
    return words


def open_roce_tab(gui, main, dialog):
    """Statistics → `dialog`, RoCE ticked in its list of types, its tab shown."""
    gui.click_text(main, "Statistics")
    time.sleep(1)
    gui.click_text("root", dialog)
    window = gui.wait_for_window(dialog)
    gui.click_text(window, "Filter", "list")  # the list's search field
    subprocess.run(["xdotool", "type", "RoCE"], env=gui.x_env, check=True)
    time.sleep(1)
    words = gui.words(window)
    at = [(x, y) for w, x, y in words if w == "RoCE"]
    if not at:
        raise Failure(f"{dialog}: no RoCE in the list of types; read: {[w for w, _, _ in words]}")
    x, y = at[-1]
    # The tick box is left of the name, in the list's first column.
    subprocess.run(["xdotool", "mousemove", str(x - 38), str(y), "click", "1"], env=gui.x_env, check=True)
    time.sleep(1)
    gui.click_text(window, "RoCE")  # the new tab, above the list
    time.sleep(1)
    return window


def check_gui(update_docs):
    with gui_session() as gui:
        gui.start_wireshark(CAPTURE, geometry={dialog: (20, 20, 1400, 500) for dialog, _, _ in TABLES.values()})
        main = gui.wait_for_window(os.path.basename(CAPTURE))
        for z, (dialog, _, _) in TABLES.items():
            want = expected(z)
            window = open_roce_tab(gui, main, dialog)
            shot = os.path.join(OUT, f"{z.split(',')[0]}_roce.png")
            gui.grab(window, shot)
            seen = {plain(w) for w, _, _ in gui.words(window)}
            missing = sorted(w for w in want if plain(w) not in seen)
            if missing:
                raise Failure(f"{dialog}'s RoCE tab does not show {missing}; read: {sorted(seen)}")
            print(f"gui: Statistics → {dialog}, RoCE tab, shows {sorted(want)}; {shot}")
            subprocess.run(["xdotool", "key", "Escape"], env=gui.x_env, check=True)  # closes the dialog
            time.sleep(1)
        bad = gui.log_complaints()
        if bad:
            raise Failure(f"wireshark complained:\n{''.join(bad)}")


if __name__ == "__main__":
    sys.exit(run(check_gui, tools=("tesseract", "xdotool")))
