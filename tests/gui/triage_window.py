# SPDX-License-Identifier: GPL-2.0-or-later
"""The RoCE Triage window in the real Wireshark GUI (ui-stats/triage_window.cpp).

Under Xvfb, on the demo capture: open Analyze → RoCE → Triage from the menu
bar, check that the window's title names the file, that it shows what
`tshark -z roce,triage` says and a button per finding named for it ("1
pfc_storm"); click that button and check that the packet list then shows
exactly the first finding's evidence; click Copy and check the clipboard
holds the triage's text; click Save..., accept the path offered (next to
the capture) and check the file holds it too. The window's text and the
status bar are read with tesseract, the clicks go through xdotool, as a
user's would, and the clipboard is read with xclip. The screenshot goes to
the build dir (gui/); with --update-docs also to docs/gui-triage.png.

Skips (exit 77) only when wireshark, Xvfb, ImageMagick, tesseract, xdotool
or xclip is not installed.
"""
import os
import re
import subprocess
import sys
import time

from guilib import OUT, gui_session, run
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tshark"))
from rslib import CAPTURES, ROOT, Failure, tshark  # noqa: E402

CAPTURE = os.path.join(CAPTURES, "demo.pcapng")
MAIN_W, MAIN_H = 1000, 700  # guilib's main window geometry
ROW0_Y, ROW_H = 111, 17      # the packet list's first row and the rows' pitch, in pixels
# "Packets: 3497 · Displayed: 16 (0.5%)": tesseract misreads the small 'l'.
DISPLAYED = re.compile(r"Packets: ?\d+\D+?(\d+) \(")


BUTTONS = 5  # ui-stats/triage_window.cpp's kMaxButtons


def tshark_findings():
    """-z roce,triage's text, and (title line, kind, filter, evidence count) of each finding."""
    # Without -n: MAC names resolved, as the GUI resolves them by default.
    text = tshark("-q", "-r", CAPTURE, "-z", "roce,triage")
    found = []
    for m in re.finditer(r"^(#\d+ \w+ (\S+): .*)\n(?:   .*\n)*?   Evidence: (\d+) frames?.*\n(?:   .*\n)*?"
                         r"   Filter:   (.*)$", text, re.M):
        found.append((m.group(1), m.group(2), m.group(4), int(m.group(3))))
    if not found:
        raise Failure(f"-z roce,triage has no findings on the demo:\n{text}")
    return text, found


def same_text(got, want, what):
    if got.strip() != want.strip():
        raise Failure(f"{what} is not -z roce,triage's text:\n{got[:600]}\n---- want ----\n{want[:600]}")


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
    triage_text, findings = tshark_findings()
    first_title, first_kind, first_filter, first_count = findings[0]
    first_frames = tshark("-n", "-r", CAPTURE, "-Y", first_filter, "-T", "fields", "-e", "frame.number").split()
    if len(first_frames) != first_count:
        raise Failure(f"finding #1's filter matches {len(first_frames)} frames, its evidence says {first_count}")

    with gui_session() as gui:
        gui.start_wireshark(CAPTURE)
        main = gui.wait_for_window("demo.pcapng")
        # Analyze → RoCE → Triage: the menus open one after the other.
        gui.click_text(main, "Analyze")
        time.sleep(1)
        gui.click_text("root", "RoCE")
        time.sleep(1)
        gui.click_text("root", "Triage")
        window = gui.wait_for_window("RoCE Triage - demo.pcapng")
        text = " ".join(w for w, _, _ in gui.words(window))
        shown(first_title, text, "finding #1")
        shown("Filter: " + first_filter, text, "finding #1's filter")
        buttons = [f"{i + 1} {f[1]}" for i, f in enumerate(findings[:BUTTONS])]
        for b in buttons + ["Clear filter", "Copy", "Save..."]:
            shown(b, text, "the buttons")

        gui.click_text(window, "1", first_kind)
        status = ""
        for _ in range(20):  # the filter applies in the background
            time.sleep(0.5)
            status = gui.read_line(main, MAIN_W // 2, MAIN_H - 22, MAIN_W // 2, 22)
            m = DISPLAYED.search(status)
            if m:
                break
        if not m or int(m.group(1)) != first_count:
            raise Failure(f"after '1 {first_kind}' the status bar reads '{status}', want {first_count} displayed")
        # The No. column of the first five rows, under the header.
        listed = [gui.read_line(main, 20, ROW0_Y + i * ROW_H, 60, ROW_H, digits=True) for i in range(5)]
        if listed != first_frames[:5]:
            raise Failure(f"the packet list's first rows read {listed}, want finding #1's frames {first_frames[:5]}")
        screen = os.path.join(OUT, "triage.screen.png")
        gui.grab("root", screen)

        gui.click_text(window, "Copy")
        clip = ""
        for _ in range(20):  # Qt owns the clipboard once the click is handled
            clip = subprocess.run(["xclip", "-o", "-selection", "clipboard"], env=gui.x_env, capture_output=True,
                                  text=True).stdout
            if clip:
                break
            time.sleep(0.5)
        same_text(clip, triage_text, "the clipboard after Copy")

        gui.click_text(window, "Save...")
        dialog = gui.wait_for_window("Save RoCE Triage")
        subprocess.run(["import", "-window", dialog, os.path.join(OUT, "triage-save.png")], env=gui.x_env)
        # Return in the path's field is OK (tesseract misreads the button's icon and label).
        gui.click_text(dialog, "Save", "the", "triage")
        subprocess.run(["xdotool", "key", "Return"], env=gui.x_env, check=True)
        saved = os.path.join(gui.tmp, "demo.triage.txt")  # next to the capture's copy
        for _ in range(20):
            if os.path.exists(saved) and os.path.getsize(saved):
                break
            time.sleep(0.5)
        if not os.path.exists(saved):
            raise Failure(f"Save... wrote no {saved}; files there: {os.listdir(gui.tmp)}")
        same_text(open(saved).read(), triage_text, saved)
        bad = gui.log_complaints()
        if bad:
            raise Failure(f"wireshark complained:\n{''.join(bad)}")
        print(f"gui: Analyze → RoCE → Triage, titled with the file, shows finding #1 and buttons {buttons}; "
              f"'1 {first_kind}' displays {first_count} frames from {first_frames[0]}; Copy and Save hold the "
              f"triage's text; {screen}")
        if update_docs:  # the main window and the triage, without the empty screen around them
            subprocess.run(["convert", screen, "-crop", "1560x705+0+0", "+repage",
                            os.path.join(ROOT, "docs", "gui-triage.png")], check=True)


if __name__ == "__main__":
    sys.exit(run(check_gui, tools=("tesseract", "xdotool", "xclip")))
