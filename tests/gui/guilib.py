# SPDX-License-Identifier: GPL-2.0-or-later
"""The real Wireshark GUI under Xvfb, for the GUI tests: start it on a
capture with the plugin, find its windows, take screenshots, read text off
them (tesseract) and click what they show (xdotool)."""
import contextlib
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tshark"))
from rslib import BUILD, PLUGIN_SO, PLUGIN_SUBDIR, ROOT, Failure  # noqa: E402

SKIP = 77
OUT = os.path.join(BUILD, "gui")
NOBODY = 65534
WAIT_S = 60
TOOLS = ("wireshark", "Xvfb", "xwininfo", "import", "identify", "xauth")


def missing_tools(extra=()):
    return [t for t in (*TOOLS, *extra) if not shutil.which(t)]


class Gui:
    """Xvfb on a display it picks itself, and Wireshark as an unprivileged
    user when we are root (Wireshark as root loads no WIRESHARK_PLUGIN_DIR)."""

    def __init__(self, tmp):
        self.tmp = tmp
        self.root = os.getuid() == 0
        self.xauth = os.path.join(tmp, "xauth")
        cookie = secrets.token_hex(16)
        os.close(os.open(self.xauth, os.O_CREAT | os.O_WRONLY, 0o600))  # else xauth warns it is new
        subprocess.run(["xauth", "-q", "-f", self.xauth, "add", ":0", ".", cookie], check=True)
        r, w = os.pipe()
        self.xvfb = subprocess.Popen(["Xvfb", "-displayfd", str(w), "-screen", "0", "1600x1000x24", "-nolisten",
                                      "tcp", "-auth", self.xauth], pass_fds=[w], stdout=subprocess.DEVNULL,
                                     stderr=open(os.path.join(tmp, "xvfb.log"), "w"))
        os.close(w)
        with os.fdopen(r) as f:
            number = f.readline().strip()
        if not number:
            raise Failure("Xvfb did not start: " + open(os.path.join(tmp, "xvfb.log")).read())
        self.display = ":" + number
        subprocess.run(["xauth", "-q", "-f", self.xauth, "add", self.display, ".", cookie], check=True)
        self.x_env = dict(os.environ, DISPLAY=self.display, XAUTHORITY=self.xauth)
        self.wireshark = None

    def start_wireshark(self, capture, args=(), geometry=None, profiles=False):
        """Wireshark on a copy of `capture`; `geometry` maps dialog titles to
        (x, y, width, height) so each opens where and as big as wanted;
        `profiles` gives it the tree's configuration profiles (-C RoCE), as
        scripts/rs-tshark does."""
        home = os.path.join(self.tmp, "home")
        conf = os.path.join(home, ".config", "wireshark")
        os.makedirs(conf, exist_ok=True)
        if profiles:
            shutil.copytree(os.path.join(ROOT, "profiles"), os.path.join(conf, "profiles"))
            made = os.path.join(BUILD, "profiles", "RoCE", "io_graphs")  # made for this Wireshark version
            if os.path.exists(made):
                shutil.copy(made, os.path.join(conf, "profiles", "RoCE"))
        # A fresh profile: no first-run questions, known window places.
        with open(os.path.join(conf, "recent_common"), "w") as f:
            f.write("gui.geometry_main_x: 0\ngui.geometry_main_y: 0\n"
                    "gui.geometry_main_width: 1000\ngui.geometry_main_height: 700\n")
            for title, (x, y, width, height) in (geometry or {}).items():
                f.write(f"gui.geom.{title}.x: {x}\ngui.geom.{title}.y: {y}\n"
                        f"gui.geom.{title}.width: {width}\ngui.geom.{title}.height: {height}\n")
        plugins = os.path.join(self.tmp, "plugins")
        os.makedirs(os.path.join(plugins, PLUGIN_SUBDIR), exist_ok=True)
        shutil.copy(PLUGIN_SO, os.path.join(plugins, PLUGIN_SUBDIR))
        capture = shutil.copy(capture, self.tmp)
        runtime = os.path.join(self.tmp, "run")
        os.makedirs(runtime, mode=0o700, exist_ok=True)
        env = {"PATH": "/usr/bin:/bin", "HOME": home, "XDG_CONFIG_HOME": os.path.join(home, ".config"),
               "XDG_RUNTIME_DIR": runtime, "DISPLAY": self.display, "XAUTHORITY": self.xauth,
               "QT_QPA_PLATFORM": "xcb", "NO_AT_BRIDGE": "1", "QT_ACCESSIBILITY": "0",
               "DBUS_SESSION_BUS_ADDRESS": "disabled:", "LANG": "C.UTF-8", "TZ": "UTC",
               "WIRESHARK_PLUGIN_DIR": plugins}
        cmd = ["wireshark", "-r", capture, *args]
        if self.root:
            for dirpath, dirs, files in os.walk(self.tmp):
                for name in [dirpath] + [os.path.join(dirpath, n) for n in dirs + files]:
                    os.chown(name, NOBODY, NOBODY)
            os.chmod(self.tmp, 0o755)
            cmd = ["setpriv", f"--reuid={NOBODY}", f"--regid={NOBODY}", "--clear-groups", *cmd]
        self.log = os.path.join(self.tmp, "wireshark.log")
        self.wireshark = subprocess.Popen(cmd, env=env, stdout=subprocess.DEVNULL, stderr=open(self.log, "w"),
                                          start_new_session=True)

    def windows(self):
        out = subprocess.run(["xwininfo", "-root", "-tree"], env=self.x_env, capture_output=True, text=True).stdout
        return {m.group(2): m.group(1) for m in re.finditer(r'^\s+(0x[0-9a-f]+) "([^"]*)"', out, re.M)}

    def origin(self, window):
        """The window's top-left corner on the screen."""
        which = ["-root"] if window == "root" else ["-id", window]
        out = subprocess.run(["xwininfo", *which], env=self.x_env, capture_output=True, text=True).stdout
        return (int(re.search(r"Absolute upper-left X:\s+(-?\d+)", out).group(1)),
                int(re.search(r"Absolute upper-left Y:\s+(-?\d+)", out).group(1)))

    def grab(self, window, path):
        subprocess.run(["import", "-window", window, path], env=self.x_env, check=True, capture_output=True)
        return subprocess.run(["identify", "-format", "%k", path], capture_output=True, text=True,
                              check=True).stdout.strip()

    def wait_for_window(self, title):
        """The window's id, once it has looked the same for a second (a
        dialog opens empty, then fills as Wireshark retaps the file)."""
        deadline = time.monotonic() + WAIT_S
        window, last, same = None, None, 0
        probe = os.path.join(self.tmp, "probe.rgb")
        while time.monotonic() < deadline:
            self.check_alive()
            window = window or next((w for name, w in self.windows().items() if title in name), None)
            if window:
                subprocess.run(["import", "-window", window, probe], env=self.x_env, capture_output=True)
                now = open(probe, "rb").read() if os.path.exists(probe) else None
                same = same + 1 if now and now == last else 0
                if same == 2:
                    return window
                last = now
            time.sleep(0.5)
        raise Failure(f"no settled '{title}' window within {WAIT_S} s; windows: {list(self.windows())}\n"
                      f"{open(self.log).read()}")

    def check_alive(self):
        if self.wireshark.poll() is not None:
            raise Failure(f"wireshark exited {self.wireshark.returncode}:\n{open(self.log).read()}")

    def words(self, window):
        """The words tesseract reads off the window, each with its centre on
        the screen. The screenshot is scaled 2x first: UI fonts are small."""
        png = os.path.join(self.tmp, "ocr.png")
        subprocess.run(["import", "-window", window, "-resize", "200%", png], env=self.x_env, check=True,
                       capture_output=True)
        tsv = subprocess.run(["tesseract", png, "-", "--psm", "11", "tsv"], capture_output=True, text=True).stdout
        x0, y0 = self.origin(window)
        out = []
        for line in tsv.splitlines()[1:]:
            cells = line.split("\t")
            if len(cells) == 12 and cells[11].strip():
                left, top, width, height = (int(c) for c in cells[6:10])
                out.append((cells[11].strip(), x0 + (left + width // 2) // 2, y0 + (top + height // 2) // 2))
        return out

    def read_line(self, window, x, y, width, height, digits=False):
        """The one line of text in that part of the window (tesseract,
        scaled 3x); `digits` for a number, which it then reads reliably."""
        png = os.path.join(self.tmp, "line.png")
        subprocess.run(["import", "-window", window, "-crop", f"{width}x{height}+{x}+{y}", "+repage", "-resize",
                        "300%", png], env=self.x_env, check=True, capture_output=True)
        only = ["-c", "tessedit_char_whitelist=0123456789"] if digits else []
        return subprocess.run(["tesseract", png, "-", "--psm", "7", *only], capture_output=True,
                              text=True).stdout.strip()

    def click_text(self, window, *phrase):
        """Clicks the first place the window shows `phrase` (consecutive
        words, compared without the punctuation tesseract misreads: _ : , .)."""
        words = self.words(window)
        for i in range(len(words) - len(phrase) + 1):
            if all(plain(words[i + k][0]) == plain(p) for k, p in enumerate(phrase)):
                _, x, y = words[i]
                subprocess.run(["xdotool", "mousemove", str(x), str(y), "click", "1"], env=self.x_env, check=True)
                return
        raise Failure(f"'{' '.join(phrase)}' not found on the screen; read: {' '.join(w for w, _, _ in words)}")

    def log_complaints(self):
        return [l for l in open(self.log) if any(m in l for m in ("Dissector bug", "CRITICAL", "Segmentation"))]

    def stop_wireshark(self):
        if self.wireshark:
            stop(self.wireshark)
        self.wireshark = None

    def close(self):
        self.stop_wireshark()
        stop(self.xvfb)


@contextlib.contextmanager
def gui_session():
    """A Gui in a temporary directory of its own (gui.tmp), closed and
    removed afterwards; screenshots go to OUT."""
    os.makedirs(OUT, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="roceshark-gui-")
    gui = None
    try:
        gui = Gui(tmp)
        yield gui
    finally:
        if gui:
            gui.close()
        shutil.rmtree(tmp, ignore_errors=True)


def plain(word):
    return re.sub(r"[_:,.]", "", word)


def stop(process):
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def run(check_gui, tools=(), tshark_part=None):
    """A GUI test's exit status: `tshark_part` first (it needs no X), then
    `check_gui(update_docs)`, skipped (77) when a tool is missing."""
    try:
        if tshark_part:
            tshark_part()
        missing = missing_tools(tools)
        if missing:
            print(f"SKIP: GUI part needs {', '.join(missing)} (scripts/run-tests installs them)")
            return SKIP
        check_gui("--update-docs" in sys.argv)
    except Failure as e:
        print(f"FAIL: {e}")
        return 1
    print("PASS")
    return 0
