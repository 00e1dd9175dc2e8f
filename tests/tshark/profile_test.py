# SPDX-License-Identifier: GPL-2.0-or-later
"""The RoCE configuration profile (profiles/RoCE, README "The RoCE
profile"), found the way Wireshark finds a user's profile (rs-tshark copies
profiles/ into its HOME): every colouring rule compiles, each colours
exactly the frames its filter selects that no earlier rule took (the
go-back-N frames of gbn.pcapng are "RoCE Go-back-N"), and the Stream, Point,
QP and PSN columns show the fields they name."""
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


rslib.main(test)
