# SPDX-License-Identifier: GPL-2.0-or-later
"""The statistics tables (ui-stats/) in tshark and in the real Wireshark GUI.

1. tshark -z roce,hop_table must say what -z roce,hops says for mp_drop (a
   loss), reorder_ooo (packets overtaken on the hop, not lost), mp_mtu
   (frames too long for a hop) and mp_vlan_strip (a tag stripped), times
   to the precision each shows ("2.0 us"; "–" for no sample).
2. -z roce,qp_table, roce,pfc_table and roce,qos_table say what
   -z roce,report says of each QP (go-back-N and timeout resends, RTT and
   hop latency), pause row and marking row; a QP's stall is the triage's.
3. roce.hop.latency_ns works as an I/O graph y-field (AVG, MAX, MIN, COUNT).
4. Wireshark (Qt) under Xvfb: each table opens from the Statistics menu
   (RoCE QPs, RoCE Hops, RoCE PFC, RoCE QoS), and its dialog shows its
   headers and a figure in the command's units, read with tesseract. The
   screenshots go to the build dir (gui/); with --update-docs the dialogs'
   pictures also go to docs/.

Skips (exit 77) only when wireshark, Xvfb or ImageMagick is not installed.
"""
import json
import os
import re
import shutil
import sys
import time

from guilib import OUT, gui_session, plain, run
sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tshark"))
from rslib import CAPTURES, ROOT, Failure, simple_table, tshark  # noqa: E402

CAPTURE = os.path.join(CAPTURES, "mp_drop.pcapng")
DEMO = os.path.join(CAPTURES, "demo.pcapng")
# Each dialog: its name in docs/gui-<name>-table.png, its capture, its size for the screenshot (by title, the
# dialog's geometry key) and words it must show: headers, and figures in the
# units the command writes (tesseract drops the _ : , . it misreads).
DIALOGS = {
    "RoCE QPs": ("qp", CAPTURE, 1560, 330, ["Stall", "GBN", "Timeout", "Hop", "latency", "13.4", "us"]),
    "RoCE Hops": ("hop", CAPTURE, 1250, 260, ["Latency", "p50", "Queue", "2.0", "3.0", "us"]),
    "RoCE PFC": ("pfc", DEMO, 1250, 200, ["Pausing", "MAC", "Paused", "Longest", "QPs", "held", "2.60", "5.20", "ms"]),
    "RoCE QoS": ("qos", DEMO, 1560, 330, ["DSCP", "PCP", "Violations", "roceqosdscpnotlossless514"]),
}


# --- tshark ---------------------------------------------------------------

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
        # VLAN-changed Largest-passed Lost-longer
        lat = cells[7].split("/")
        rows.append({"From": cells[0], "To": cells[1], "Matched": cells[2], "Lost": cells[3], "Reordered": cells[5],
                     "lat": [lat[0], lat[1], lat[2], lat[4]], "queue_p99": cells[8].split("/")[0],
                     "Bursts": cells[9], "Remarked": cells[10], "CE set": cells[11], "VLAN changed": cells[14],
                     "Largest passed (B)": cells[15], "Lost longer": cells[16]})
    return rows


NONE = "\u2013"  # a table cell with no sample


def duration(ns):
    """A time as the tables write it (cell::duration, epan-ext/common/text_table.cpp)."""
    for unit, scale, fmt in (("s", 1e9, "%.2f"), ("ms", 1e6, "%.2f"), ("us", 1e3, "%.1f")):
        if abs(ns) >= scale:
            return ("-" if ns < 0 else "") + fmt % (abs(ns) / scale) + " " + unit
    return f"{ns} ns"


def close(cell, text_us):
    """Whether a table's time and -z roce,hops's microseconds (two decimals)
    are the same time, to the precision each shows; "-" is no sample."""
    if text_us == "-" or cell == NONE:
        return text_us == "-" and cell == NONE
    value, step = ns_of(cell)
    return abs(value - float(text_us) * 1e3) <= step / 2 + 5


def ns_of(cell):
    """A table's time in nanoseconds, and the step its last digit stands for."""
    value, unit = cell.split()
    scale = {"ns": 1, "us": 1e3, "ms": 1e6, "s": 1e9}[unit]
    return float(value) * scale, scale * (1 if unit == "ns" else 10 ** -len(value.split(".")[1]))


def hop_table_agrees(capture):
    """The GUI hop table's rows, by hop, after checking them against -z roce,hops."""
    hops = text_hops(tshark("-n", "-q", "-r", capture, "-z", "roce,hops"))
    table = simple_table(tshark("-n", "-q", "-r", capture, "-z", "roce,hop_table"), "RoCE Hops")
    by_hop = {(r["From"], r["To"]): r for r in table}
    if sorted(by_hop) != sorted((h["From"], h["To"]) for h in hops):
        raise Failure(f"hop_table rows {sorted(by_hop)} != roce,hops rows {[(h['From'], h['To']) for h in hops]}")
    for h in hops:
        t = by_hop[(h["From"], h["To"])]
        times = [t["Latency min"], t["Latency p50"], t["Latency p99"], t["Latency max"], t["Queue p99"]]
        got = [t["Matched"], t["Lost"], t["Reordered"], t["Bursts"], t["Remarked"], t["CE set"], t["VLAN changed"],
               t["Largest passed (B)"], t["Lost longer"], *times]
        want = [h["Matched"], h["Lost"], h["Reordered"], h["Bursts"], h["Remarked"], h["CE set"], h["VLAN changed"],
                h["Largest passed (B)"], h["Lost longer"], *h["lat"], h["queue_p99"]]
        if got[:9] != want[:9] or not all(close(c, u) for c, u in zip(times, want[9:])):
            raise Failure(f"{os.path.basename(capture)} hop {h['From']} -> {h['To']}: hop_table {got} != "
                          f"roce,hops {want}")
    return table, by_hop


def check_tshark():
    table, by_hop = hop_table_agrees(CAPTURE)
    # The scenario's one drop, between the leaf and the receiving NIC.
    lost = {k: int(r["Lost"]) for k, r in by_hop.items() if int(r["Lost"])}
    if lost != {("leaf-1", "nic-b"): 1}:
        raise Failure(f"losses {lost}, want one on leaf-1 -> nic-b")
    # Four packets overtaken between the NICs: reordered, none lost.
    _, by_hop = hop_table_agrees(os.path.join(CAPTURES, "reorder_ooo.pcapng"))
    moved = {k: (int(r["Lost"]), int(r["Reordered"])) for k, r in by_hop.items()}
    if moved != {("nic-a", "nic-b"): (0, 4), ("nic-b", "nic-a"): (0, 0)}:
        raise Failure(f"reorder_ooo (lost, reordered) by hop {moved}, want (0, 4) on nic-a -> nic-b only")
    # Eight frames too long for leaf-1 -> nic-b, the longest that passed it 570 bytes.
    _, by_hop = hop_table_agrees(os.path.join(CAPTURES, "mp_mtu.pcapng"))
    mtu = {k: (int(r["Largest passed (B)"]), int(r["Lost longer"])) for k, r in by_hop.items() if int(r["Lost longer"])}
    if mtu != {("leaf-1", "nic-b"): (570, 8)}:
        raise Failure(f"mp_mtu (largest passed, lost longer) {mtu}, want (570, 8) on leaf-1 -> nic-b only")
    # leaf-1 strips the tag of every frame from nic-a.
    _, by_hop = hop_table_agrees(os.path.join(CAPTURES, "mp_vlan_strip.pcapng"))
    vlan = {k: int(r["VLAN changed"]) for k, r in by_hop.items() if int(r["VLAN changed"])}
    if vlan != {("nic-a", "leaf-1"): 16}:
        raise Failure(f"mp_vlan_strip VLAN changes by hop {vlan}, want 16 on nic-a -> leaf-1 only")

    pfc_table_agrees(DEMO)
    pfc_table_agrees(os.path.join(CAPTURES, "pfc_chatter.pcapng"))
    qos_table_agrees(DEMO)
    qos_table_agrees(os.path.join(CAPTURES, "qos_remark.pcapng"))
    qps = qp_table_agrees(CAPTURE)
    gaps = {r["Point"]: int(r["Gaps"]) for r in qps if r["DestQP"] == "0x000102"}
    if gaps != {"nic-a": 0, "leaf-1": 0, "nic-b": 1}:
        raise Failure(f"gaps on QP 0x000102 by point {gaps}, want the drop seen at nic-b only")
    # The triage ranks by the stall of each QP where it shows most: here one QP's.
    report = json.loads(tshark("-n", "-q", "-r", CAPTURE, "-z", "roce,report"))
    stall = [r["Stall"] for r in qps if r["DestQP"] == "0x000102" and r["Point"] == "nic-b"]
    if stall != [duration(report["triage"]["stalled_ns"])]:
        raise Failure(f"QP 0x000102's stall at nic-b {stall}, the triage's {report['triage']['stalled_ns']} ns")
    # Timer resends, apart from go-back-N ones.
    qp_table_agrees(os.path.join(CAPTURES, "timeout.pcapng"), want_timeouts=True)
    print(f"tshark: {len(table)} hop rows and {len(qps)} QP rows agree with roce,hops, roce,report and the drop")
    return table


def qp_table_agrees(capture, want_timeouts=False):
    """The QP table's rows, after checking each against -z roce,report's QP."""
    report = json.loads(tshark("-n", "-q", "-r", capture, "-z", "roce,report"))
    qps = simple_table(tshark("-n", "-q", "-r", capture, "-z", "roce,qp_table"), "RoCE QPs")
    want = {}
    for q in report["qps"]:
        pick = lambda h, p: duration(q[h][p]) if q[h]["count"] else NONE  # noqa: E731
        want[(q["point"], str(q["stream"]), "0x%06x" % q["dest_qp"])] = {
            "GBN": str(q["gbn_resends"]), "Timeout": str(q["timeout_retransmissions"]),
            "RTT p50": pick("ack_rtt_ns", "p50"), "RTT p99": pick("ack_rtt_ns", "p99"),
            "Hop latency p50": pick("hop_latency_ns", "p50"), "Hop latency p99": pick("hop_latency_ns", "p99")}
    got = {(r["Point"], r["Stream"], r["DestQP"]): {k: r[k] for k in next(iter(want.values()))} for r in qps}
    if got != want:
        raise Failure(f"{os.path.basename(capture)}: qp_table {got} != roce,report {want}")
    if want_timeouts and not any(int(r["Timeout"]) and not int(r["GBN"]) for r in qps):
        raise Failure(f"{os.path.basename(capture)}: no QP row with timeout resends only: {qps}")
    return qps


def pfc_table_agrees(capture):
    """The PFC table's rows against -z roce,report's pause rows."""
    report = json.loads(tshark("-n", "-q", "-r", capture, "-z", "roce,report"))
    table = simple_table(tshark("-n", "-q", "-r", capture, "-z", "roce,pfc_table"), "RoCE PFC")
    want = {(p["point"], p["pausing_mac"], str(p["priority"])): [
        str(p["frames"]), str(p["xoff"]), str(p["xon"]), duration(p["paused_ns"]), duration(p["longest_ns"]),
        str(len(p["storms"])), str(sum(e["chatter"] for e in p["episodes"])), str(p["no_ecn_pauses"]),
        str(p["propagated"]), str(len(p["stalled_qps"])),
        duration(sum(q["stall_ns"] for q in p["stalled_qps"])) if p["stalled_qps"] else NONE]
        for p in report["pfc"]["pauses"]}
    cols = ["Frames", "XOFF", "XON", "Paused", "Longest", "Storms", "Chatter", "No-ECN", "Propagated", "QPs held",
            "QP stall"]
    got = {(r["Point"], r["Pausing MAC"], r["Prio"]): [r[c] for c in cols] for r in table}
    if not want or got != want:
        raise Failure(f"{os.path.basename(capture)}: pfc_table {got} != roce,report {want}")


def qos_table_agrees(capture):
    """The QoS table's rows and violations against -z roce,report's."""
    report = json.loads(tshark("-n", "-q", "-r", capture, "-z", "roce,report"))
    table = simple_table(tshark("-n", "-q", "-r", capture, "-z", "roce,qos_table"), "RoCE QoS")
    key = lambda q: (q["point"], str(q["stream"]), q["source"], q["destination"], "0x%06x" % q["dest_qp"])  # noqa: E731
    want = {key(m): {"DSCP": {k: v for k, v in m["dscp"].items()}, "Violations": {}} for m in report["qos"]["marking"]}
    for v in report["qos"]["violations"]:
        want[key(v)]["Violations"][v["check"]] = str(v["packets"])
    got = {}
    for r in table:
        counts = lambda cell: dict(c.rsplit(":", 1) for c in cell.split()) if cell != NONE else {}  # noqa: E731
        got[(r["Point"], r["Stream"], r["Source"], r["Destination"], r["DestQP"])] = {
            "DSCP": {k: int(v) for k, v in counts(r["DSCP"]).items()}, "Violations": counts(r["Violations"])}
    if not want or got != want or not any(w["Violations"] for w in want.values()):
        raise Failure(f"{os.path.basename(capture)}: qos_table {got} != roce,report {want}")


def check_io_graph(table):
    f = "roce.hop.latency_ns"
    out = tshark("-n", "-q", "-r", CAPTURE, "-z", f"io,stat,0,AVG({f}){f},MAX({f}){f},MIN({f}){f},COUNT({f}){f}")
    row = [l for l in out.splitlines() if "<>" in l]
    if len(row) != 1:
        raise Failure(f"io,stat printed no interval row:\n{out}")
    avg, mx, mn, count = (int(c) for c in row[0].split("|")[2:6])
    values = [int(v) for v in tshark("-n", "-r", CAPTURE, "-T", "fields", "-e", f, "-Y", f).split()]
    want_min = min((r["Latency min"] for r in table if r["Latency min"] != NONE), key=lambda c: ns_of(c)[0])
    want_max = max((r["Latency max"] for r in table if r["Latency max"] != NONE), key=lambda c: ns_of(c)[0])
    if not close(want_min, "%.2f" % (mn / 1000)) or not close(want_max, "%.2f" % (mx / 1000)) or \
            count != sum(int(r["Matched"]) for r in table):
        raise Failure(f"io,stat MIN/MAX/COUNT {mn}/{mx}/{count} != hop table {want_min}/{want_max}/"
                      f"{sum(int(r['Matched']) for r in table)}")
    if not values or avg != sum(values) // len(values):
        raise Failure(f"io,stat AVG {avg} != mean of {len(values)} {f} values")
    print(f"io,stat: {f} AVG {avg} MIN {mn} MAX {mx} COUNT {count}")


# --- the GUI --------------------------------------------------------------

def check_gui(update_docs):
    with gui_session() as gui:
        for title, (name, capture, width, height, words) in DIALOGS.items():
            gui.start_wireshark(capture, geometry={title: (20, 420, width, height)})
            main = gui.wait_for_window(os.path.basename(capture))
            gui.click_text(main, "Statistics")
            time.sleep(1)
            gui.click_text("root", *title.split())
            window = gui.wait_for_window(title)
            screen = os.path.join(OUT, f"{name}_table.screen.png")
            dialog = os.path.join(OUT, f"{name}_table.png")
            colours = int(gui.grab("root", screen))
            dialog_colours = int(gui.grab(window, dialog))
            # A blank or unpainted window has one or two colours; text on a
            # table has hundreds (anti-aliasing).
            if colours < 50 or dialog_colours < 50:
                raise Failure(f"{title}: screenshot looks blank ({colours} colours, dialog {dialog_colours})")
            seen = {plain(w) for w, _, _ in gui.words(window)}
            missing = [w for w in words if plain(w) not in seen]
            if missing:
                raise Failure(f"{title}: the dialog does not show {missing}; read: {sorted(seen)}")
            bad = gui.log_complaints()
            if bad:
                raise Failure(f"wireshark complained:\n{''.join(bad)}")
            print(f"gui: Statistics → {title} shows {words}; {screen}, {dialog}")
            if update_docs:
                shutil.copy(dialog, os.path.join(ROOT, "docs", f"gui-{name}-table.png"))
            gui.stop_wireshark()


def check_tshark_part():
    check_io_graph(check_tshark())


if __name__ == "__main__":
    sys.exit(run(check_gui, tshark_part=check_tshark_part))
