# SPDX-License-Identifier: GPL-2.0-or-later
"""The RoCE configuration profile (profiles/RoCE, README "The RoCE
profile"), found the way Wireshark finds a user's profile (rs-tshark copies
profiles/ into its HOME): every colouring rule compiles, each colours
exactly the frames its filter selects that no earlier rule took (the
go-back-N frames of gbn.pcapng are "RoCE Go-back-N"), and the Stream, Point,
QP and PSN columns show the fields they name. The I/O graphs (the build's
profiles/RoCE/io_graphs, made for its Wireshark version: docs/gui.md "I/O
graphs") have the version's columns (9 up to 4.4, 10 from 4.6), values the
GUI takes, a display filter tshark compiles, a Y field that is registered,
and each plots something on the capture that shows it (tshark -z io,stat
with the graph's calculation)."""
import csv
import io
import os

import rslib

PROFILE = os.path.join(rslib.ROOT, "profiles", "RoCE")
# Captures with at least one frame for the rule named.
CASES = [("gbn", "RoCE Go-back-N"), ("timeout", "RoCE Timeout"), ("pfc_storm", "RoCE PFC Storm"),
         ("lossy_prio", "RoCE Lossy Class"), ("qos_dscp_lossy", "RoCE Lossy Class"),
         ("mp_remark", "RoCE Remarked"), ("rnr", "Bad RoCE"), ("cnp", "RoCE CNP"), ("clean", "RoCE")]
COLUMNS = {"Stream": "roce.qp.stream", "Point": "roce.point", "QP": "infiniband.bth.destqp",
           "PSN": "infiniband.bth.psn"}


def rules():
    """(name, filter) in the file's order."""
    out = []
    with open(os.path.join(PROFILE, "colorfilters")) as f:
        for line in f:
            if line.startswith("@"):
                _, name, flt, _colours = line.rstrip("\n").split("@")
                out.append((name, flt))
    return out


IO_GRAPHS = os.path.join(rslib.BUILD, "profiles", "RoCE", "io_graphs")
# The io_graphs table's columns, as ui/qt/io_graph_dialog.cpp declares them:
# 4.6 added asAOT ("Avg over Time").
IO_COLUMNS = ["enabled", "name", "dfilter", "color", "style", "yaxis", "yfield", "sma_period", "y_axis_factor"]
if tuple(map(int, rslib.WS_VERSION.split("."))) >= (4, 6):
    IO_COLUMNS.append("asAOT")
IO_STYLES = {"Line", "Impulse", "Bar", "Stacked Bar", "Dot", "Square", "Diamond"}
IO_YAXES = {"Packets": None, "Bytes": None, "Bits": None, "SUM(Y Field)": "SUM", "COUNT FRAMES(Y Field)": "COUNT_FRAMES",
            "COUNT FIELDS(Y Field)": "COUNT_FIELDS", "MAX(Y Field)": "MAX", "MIN(Y Field)": "MIN",
            "AVG(Y Field)": "AVG"}
# A capture where each graph has points.
IO_CAPTURES = {"RoCE retransmissions": "gbn", "RoCE packets held by PFC": "pfc_storm", "RoCE packets": "clean",
               "RoCE PFC pause (ns per interval)": "pfc_storm", "RoCE hop queueing max (ns)": "mp_burst",
               "RoCE hop queueing avg (ns)": "mp_burst"}


def io_graphs():
    """The graphs, each a dict by column, as Wireshark's UAT reader splits them."""
    with open(IO_GRAPHS) as f:
        rows = [line for line in f if line.strip() and not line.startswith("#")]
    graphs = []
    for row in csv.reader(io.StringIO("".join(rows))):
        if len(row) != len(IO_COLUMNS):
            raise rslib.Failure(f"io_graphs: {len(row)} columns for Wireshark {rslib.WS_VERSION}, want "
                                f"{len(IO_COLUMNS)} ({', '.join(IO_COLUMNS)}): {row}")
        graphs.append(dict(zip(IO_COLUMNS, row)))
    return graphs


def check_io_graphs():
    fields = {line.split("\t")[2] for line in rslib.tshark("-G", "fields").splitlines() if line.startswith("F\t")}
    graphs = io_graphs()
    if {g["name"] for g in graphs} != set(IO_CAPTURES):
        raise rslib.Failure(f"io_graphs names {[g['name'] for g in graphs]}, the test knows {sorted(IO_CAPTURES)}")
    for g in graphs:
        bad = [c for c, ok in (("enabled", g["enabled"] in ("TRUE", "FALSE")), ("style", g["style"] in IO_STYLES),
                               ("yaxis", g["yaxis"] in IO_YAXES), ("sma_period", g["sma_period"] == "None"),
                               ("y_axis_factor", g["y_axis_factor"].isdigit()),
                               ("color", len(g["color"]) == 7 and g["color"][0] == "#"),
                               ("asAOT", g.get("asAOT", "FALSE") in ("TRUE", "FALSE"))) if not ok]
        calc = IO_YAXES.get(g["yaxis"])
        if bad or (calc is None) != (g["yfield"] == "") or (g["yfield"] and g["yfield"] not in fields):
            raise rslib.Failure(f"io_graphs {g['name']!r}: bad {bad or 'Y field'}: {g}")
        # The filter compiles (tshark exits 0 on it), and the graph plots
        # something where its capture shows it.
        capture = rslib.capture_path(IO_CAPTURES[g["name"]])
        expr = f"{calc}({g['yfield']}){g['yfield']} && ({g['dfilter']})" if calc else g["dfilter"]
        out = rslib.tshark("-n", "-q", "-r", capture, "-z", f"io,stat,0,{expr}")
        row = [line for line in out.splitlines() if "<>" in line]
        cells = [c.strip() for c in row[0].split("|") if c.strip()] if row else []
        value = float(cells[1]) if len(cells) > 1 else 0  # after the interval: frames, or the calculation
        if value <= 0:
            raise rslib.Failure(f"io_graphs {g['name']!r} plots nothing on {IO_CAPTURES[g['name']]}: {out}")
        print(f"io graph {g['name']!r}: {value:g} on {IO_CAPTURES[g['name']]}")


def run(capture, *args):
    return rslib.tshark("-n", "-2", "-C", "RoCE", "--color", "-r", capture, "-T", "fields", "-E", "separator=/t",
                        "-e", "frame.number", *args)


def selected(capture, flt):
    out = rslib.tshark("-n", "-2", "-r", capture, "-Y", flt, "-T", "fields", "-e", "frame.number")
    return {int(n) for n in out.split()}


def test(_args):
    order = rules()
    names = [n for n, _ in order]
    for scenario, rule in CASES:
        capture = rslib.capture_path(scenario)
        coloured = {}
        for line in run(capture, "-e", "frame.coloring_rule.name").splitlines():
            number, _, name = line.partition("\t")
            coloured.setdefault(name, set()).add(int(number))
        at = names.index(rule)
        want = selected(capture, f"({order[at][1]}) && !(" + ") && !(".join(f for _, f in order[:at]) + ")"
                        if at else order[at][1])
        if not want:
            raise rslib.Failure(f"{scenario}: no frame for {rule!r}: pick another capture")
        got = coloured.get(rule, set())
        if got != want:
            raise rslib.Failure(f"{scenario}: {rule!r} colours {sorted(got - want)[:10]} it should not and misses "
                                f"{sorted(want - got)[:10]}")
        print(f"{scenario}: {len(got)} frames {rule}")
    # The columns hold the fields they name. Read off the summary lines
    # (-T tabs), whose columns are the profile's in every version; the
    # _ws.col.<title> fields of 4.0 are named otherwise from 4.2 on.
    capture = rslib.capture_path("gbn")
    lines = rslib.tshark("-n", "-C", "RoCE", "-r", capture, "-T", "tabs").splitlines()
    # No., then the custom columns just before the last two (Length, Info).
    cols = "".join("\t".join([c[0].strip()] + [x.strip() for x in c[-6:-2]]) + "\n"
                   for c in (line.split("\t") for line in lines))
    fields = rslib.tshark("-n", "-r", capture, "-T", "fields", "-E", "separator=/t", "-e", "frame.number",
                          *(a for f in COLUMNS.values() for a in ("-e", f)))
    if cols != fields or len(cols.splitlines()) < 10:
        raise rslib.Failure(f"the profile's columns are not the fields they name:\n{cols[:300]}\n{fields[:300]}")
    check_io_graphs()


rslib.main(test)
