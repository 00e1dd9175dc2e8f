# SPDX-License-Identifier: GPL-2.0-or-later
"""The statistics tables (ui-stats/) in tshark and in the real Wireshark GUI.

1. tshark -z roce,hop_table must say what -z roce,hops says for mp_drop.
2. roce.hop.latency_ns works as an I/O graph y-field (AVG, MAX, MIN, COUNT).
3. Wireshark (Qt) under Xvfb opens the hop and the QP table at start
   (-z roce,hop_table, -z roce,qp_table); each dialog window must appear and
   draw something. The screenshots go to the build dir (gui/); with
   --update-docs the dialogs' pictures also go to docs/.

Skips (exit 77) only when wireshark, Xvfb or ImageMagick is not installed.
"""
import os
import re
import secrets
import shutil
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tshark"))
from rslib import BUILD, CAPTURES, PLUGIN_SO, PLUGIN_SUBDIR, ROOT, Failure, tshark  # noqa: E402

SKIP = 77
CAPTURE = os.path.join(CAPTURES, "mp_drop.pcapng")
PLUGIN = PLUGIN_SO
OUT = os.path.join(BUILD, "gui")
NOBODY = 65534
WAIT_S = 60
# Dialog sizes for the screenshots, by title (the dialog's geometry key).
DIALOGS = {"roce,hop_table": ("RoCE Hops", 1250, 260), "roce,qp_table": ("RoCE QPs", 1560, 330)}


# --- tshark ---------------------------------------------------------------

def simple_table(text, title):
    """Rows of a tshark -z <stat_tap_table> printout, as lists of cells."""
    lines = text.splitlines()
    start = lines.index(title + ":")
    header = [c.strip() for c in lines[start + 2].split(" |")][:-1]
    rows = []
    for line in lines[start + 4:]:
        if line.startswith("====="):
            break
        rows.append(dict(zip(header, [c.strip() for c in line.split(" |")][:-1])))
    return rows


def text_hops(text):
    """The 'Per hop' rows of -z roce,hops."""
    lines = text.splitlines()
    i = lines.index("Per hop (upstream point -> downstream point)") + 1
    rows = []
    for line in lines[i + 1:]:
        if not line.strip():
            break
        cells = re.split(r"\s{2,}", line.strip())
        # From To Matched Lost First-lost Reordered First-reordered Latency Queue Bursts Remarked CE TTL Negative
        lat = cells[7].split("/")
        rows.append({"From": cells[0], "To": cells[1], "Matched": cells[2], "Lost": cells[3],
                     "lat": [lat[0], lat[1], lat[2], lat[4]], "queue_p99": cells[8].split("/")[0],
                     "Bursts": cells[9], "Remarked": cells[10], "CE set": cells[11]})
    return rows


def us(ns):
    return "%.2f" % (int(ns) / 1000.0)


def check_tshark():
    hops = text_hops(tshark("-n", "-q", "-r", CAPTURE, "-z", "roce,hops"))
    table = simple_table(tshark("-n", "-q", "-r", CAPTURE, "-z", "roce,hop_table"), "RoCE Hops")
    by_hop = {(r["From"], r["To"]): r for r in table}
    if sorted(by_hop) != sorted((h["From"], h["To"]) for h in hops):
        raise Failure(f"hop_table rows {sorted(by_hop)} != roce,hops rows {[(h['From'], h['To']) for h in hops]}")
    for h in hops:
        t = by_hop[(h["From"], h["To"])]
        got = [t["Matched"], t["Lost"], us(t["Latency min (ns)"]), us(t["Latency p50 (ns)"]),
               us(t["Latency p99 (ns)"]), us(t["Latency max (ns)"]), us(t["Queue p99 (ns)"]), t["Bursts"],
               t["Remarked"], t["CE set"]]
        want = [h["Matched"], h["Lost"], *h["lat"], h["queue_p99"], h["Bursts"], h["Remarked"], h["CE set"]]
        if got != want:
            raise Failure(f"hop {h['From']} -> {h['To']}: hop_table {got} != roce,hops {want}")
    # The scenario's one drop, between the leaf and the receiving NIC.
    lost = {k: int(r["Lost"]) for k, r in by_hop.items() if int(r["Lost"])}
    if lost != {("leaf-1", "nic-b"): 1}:
        raise Failure(f"losses {lost}, want one on leaf-1 -> nic-b")

    qps = simple_table(tshark("-n", "-q", "-r", CAPTURE, "-z", "roce,qp_table"), "RoCE QPs")
    if not qps or {r["Point"] for r in qps} != {"nic-a", "leaf-1", "nic-b"}:
        raise Failure(f"qp_table rows: {qps}")
    gaps = {r["Point"]: int(r["Gaps"]) for r in qps if r["DestQP"] == "0x000102"}
    if gaps != {"nic-a": 0, "leaf-1": 0, "nic-b": 1}:
        raise Failure(f"gaps on QP 0x000102 by point {gaps}, want the drop seen at nic-b only")
    print(f"tshark: {len(table)} hop rows and {len(qps)} QP rows agree with roce,hops / the drop")
    return table


def check_io_graph(table):
    f = "roce.hop.latency_ns"
    out = tshark("-n", "-q", "-r", CAPTURE, "-z", f"io,stat,0,AVG({f}){f},MAX({f}){f},MIN({f}){f},COUNT({f}){f}")
    row = [l for l in out.splitlines() if "<>" in l]
    if len(row) != 1:
        raise Failure(f"io,stat printed no interval row:\n{out}")
    avg, mx, mn, count = (int(c) for c in row[0].split("|")[2:6])
    values = [int(v) for v in tshark("-n", "-r", CAPTURE, "-T", "fields", "-e", f, "-Y", f).split()]
    want_min = min(int(r["Latency min (ns)"]) for r in table)
    want_max = max(int(r["Latency max (ns)"]) for r in table)
    if (mn, mx) != (want_min, want_max) or count != sum(int(r["Matched"]) for r in table):
        raise Failure(f"io,stat MIN/MAX/COUNT {mn}/{mx}/{count} != hop table {want_min}/{want_max}/"
                      f"{sum(int(r['Matched']) for r in table)}")
    if not values or avg != sum(values) // len(values):
        raise Failure(f"io,stat AVG {avg} != mean of {len(values)} {f} values")
    print(f"io,stat: {f} AVG {avg} MIN {mn} MAX {mx} COUNT {count}")


# --- the GUI --------------------------------------------------------------

def missing_tools():
    return [t for t in ("wireshark", "Xvfb", "xwininfo", "import", "identify", "xauth") if not shutil.which(t)]


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

    def start_wireshark(self, stat):
        home = os.path.join(self.tmp, "home")
        conf = os.path.join(home, ".config", "wireshark")
        os.makedirs(conf, exist_ok=True)
        title, width, height = DIALOGS[stat]
        # A fresh profile: no first-run questions; the dialog big enough to
        # show every column.
        with open(os.path.join(conf, "recent_common"), "w") as f:
            f.write("gui.geometry_main_x: 0\ngui.geometry_main_y: 0\n"
                    "gui.geometry_main_width: 1000\ngui.geometry_main_height: 700\n"
                    f"gui.geom.{title}.x: 20\ngui.geom.{title}.y: 420\n"
                    f"gui.geom.{title}.width: {width}\ngui.geom.{title}.height: {height}\n")
        plugins = os.path.join(self.tmp, "plugins")
        os.makedirs(os.path.join(plugins, PLUGIN_SUBDIR), exist_ok=True)
        shutil.copy(PLUGIN, os.path.join(plugins, PLUGIN_SUBDIR))
        capture = shutil.copy(CAPTURE, self.tmp)
        runtime = os.path.join(self.tmp, "run")
        os.makedirs(runtime, mode=0o700, exist_ok=True)
        env = {"PATH": "/usr/bin:/bin", "HOME": home, "XDG_CONFIG_HOME": os.path.join(home, ".config"),
               "XDG_RUNTIME_DIR": runtime, "DISPLAY": self.display, "XAUTHORITY": self.xauth,
               "QT_QPA_PLATFORM": "xcb", "NO_AT_BRIDGE": "1", "QT_ACCESSIBILITY": "0",
               "DBUS_SESSION_BUS_ADDRESS": "disabled:", "LANG": "C.UTF-8", "TZ": "UTC",
               "WIRESHARK_PLUGIN_DIR": plugins}
        cmd = ["wireshark", "-r", capture, "-z", stat]
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

    def grab(self, window, path):
        subprocess.run(["import", "-window", window, path], env=self.x_env, check=True, capture_output=True)
        return subprocess.run(["identify", "-format", "%k", path], capture_output=True, text=True,
                              check=True).stdout.strip()

    def wait_for_dialog(self, title):
        """The dialog's window id, once it has looked the same for a second
        (it opens empty, then fills as Wireshark retaps the file)."""
        deadline = time.monotonic() + WAIT_S
        window, last, same = None, None, 0
        probe = os.path.join(self.tmp, "probe.rgb")
        while time.monotonic() < deadline:
            if self.wireshark.poll() is not None:
                raise Failure(f"wireshark exited {self.wireshark.returncode}:\n{open(self.log).read()}")
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

    def stop_wireshark(self):
        if self.wireshark and self.wireshark.poll() is None:
            self.wireshark.terminate()
            try:
                self.wireshark.wait(10)
            except subprocess.TimeoutExpired:
                self.wireshark.kill()
                self.wireshark.wait()
        self.wireshark = None

    def close(self):
        self.stop_wireshark()
        self.xvfb.terminate()
        try:
            self.xvfb.wait(10)
        except subprocess.TimeoutExpired:
            self.xvfb.kill()
            self.xvfb.wait()


def check_gui(update_docs):
    os.makedirs(OUT, exist_ok=True)
    tmp = tempfile.mkdtemp(prefix="roceshark-gui-")
    gui = None
    try:
        gui = Gui(tmp)
        for stat, (title, _, _) in DIALOGS.items():
            gui.start_wireshark(stat)
            window = gui.wait_for_dialog(title)
            name = stat.split(",")[1]
            screen = os.path.join(OUT, f"{name}.screen.png")
            dialog = os.path.join(OUT, f"{name}.png")
            colours = int(gui.grab("root", screen))
            dialog_colours = int(gui.grab(window, dialog))
            # A blank or unpainted window has one or two colours; text on a
            # table has hundreds (anti-aliasing).
            if colours < 50 or dialog_colours < 50:
                raise Failure(f"{title}: screenshot looks blank ({colours} colours, dialog {dialog_colours})")
            bad = [l for l in open(gui.log) if any(m in l for m in ("Dissector bug", "CRITICAL", "Segmentation"))]
            if bad:
                raise Failure(f"wireshark complained:\n{''.join(bad)}")
            print(f"gui: '{title}' window {window}, {colours} colours; {screen}, {dialog}")
            if update_docs:
                shutil.copy(dialog, os.path.join(ROOT, "docs", f"gui-{name.replace('_table', '')}-table.png"))
            gui.stop_wireshark()
    finally:
        if gui:
            gui.close()
        shutil.rmtree(tmp, ignore_errors=True)


def main():
    try:
        table = check_tshark()
        check_io_graph(table)
        missing = missing_tools()
        if missing:
            print(f"SKIP: GUI part needs {', '.join(missing)} (scripts/run-tests installs them)")
            return SKIP
        check_gui("--update-docs" in sys.argv)
    except Failure as e:
        print(f"FAIL: {e}")
        return 1
    print("PASS")
    return 0


if __name__ == "__main__":
    sys.exit(main())
