# SPDX-License-Identifier: GPL-2.0-or-later
"""--qp, --host and --point select frames as tshark's -z filter does: every
view of `roceshark SELECTION VIEW FILE` is, byte for byte, what
`tshark -q -r FILE -z roce,VIEW,FILTER` prints, FILTER being the display
filter the command's title (or the report's "filter") names. The
selections come from each capture's own fields: its busiest destination QP
and the next, a host, a point, a point and a QP together, and a QP no frame
has. A --point no point has is an error, naming it."""
import collections
import json

import cli
import rslib

# Single and multi-point, ICMP too-big, IPv6 and RoCEv1, PFC, DCBX, ERSPAN (its own point key).
CAPTURES = [("gbn", []), ("mp_drop", []), ("mtu_icmp", []), ("mp_mtu_icmp", []), ("ipv6_v1", []),
            ("pfc_storm", []), ("dcbx", []), ("mp_truncated", []),
            ("mp_erspan", ["-o", "roce.point_key:erspan", "-o", "roce.point_names:100=leaf-1,200=nic-b"])]


def busiest(capture, options):
    """The capture's destination QPs, addresses and point ids, busiest first.
    Of the addresses only the innermost packet's two count: a mirror's
    tunnel (ERSPAN, VXLAN) adds its own to ip.addr, which --host does not
    look at (docs/command.md, "Selecting frames")."""
    tsv = rslib.tshark("-n", "-r", capture, *options, "-T", "fields", "-e", "infiniband.bth.destqp", "-e",
                       "ip.addr", "-e", "ipv6.addr", "-e", "roce.point")
    seen = [collections.Counter() for _ in range(3)]
    for line in tsv.splitlines():
        qp, ip, ip6, point = (line.split("\t") + [""] * 4)[:4]
        addresses = [v for v in (ip + "," + ip6).split(",") if v][-2:]
        for counter, values in zip(seen, (qp.split(","), addresses, point.split(","))):
            counter.update(v for v in values if v)
    return [[v for v, _ in c.most_common()] for c in seen]


def point_name(capture, options, point):
    """A point's name, as the JSON report gives it (the id when it gives none)."""
    out = cli.command(*options, "report", capture)[1]
    names = {p["id"]: p["name"] for p in json.loads(out).get("points", []) if "id" in p and "name" in p}
    return names.get(int(point), point)


def selections(capture, options):
    qps, hosts, points = busiest(capture, options)
    out = []
    if qps:
        out.append(["--qp", qps[0]])
    if len(qps) > 1:
        out.append(["--qp", qps[0], "--qp", qps[1]])
    if hosts:
        out.append(["--host", hosts[-1]])
    if points:
        out.append(["--point", point_name(capture, options, points[-1])])
        if qps:
            out.append(["--point", points[0], "--qp", qps[0]])
    out.append(["--qp", "0xabcdef"])
    return out


def run(argv):
    compared = 0
    for scenario, options in CAPTURES:
        capture = rslib.capture_path(scenario)
        # Every view under a capture's first selection; under the others the
        # triage and the JSON report, which draw on every statistic (CI's
        # time is counted: one tshark run per view).
        for i, selection in enumerate(selections(capture, options)):
            for view in cli.VIEWS if i == 0 else ["triage", "report"]:
                status, got, err = cli.command(*options, *selection, view, capture)
                if status != 0:
                    raise rslib.Failure(f"roceshark {' '.join(selection)} {view} {scenario}: exit {status}\n{err}")
                fil = json.loads(got)["filter"] if view == "report" else got.splitlines()[2][len("Filter:"):]
                if not fil:
                    raise rslib.Failure(f"roceshark {' '.join(selection)} {view} {scenario}: no filter in the title")
                want = rslib.tshark("-n", "-q", "-r", capture, *options, "-z", f"roce,{view},{fil}")
                cli.same(f"roceshark {' '.join(selection)} {view} {scenario} (-z roce,{view},{fil})", got, want)
                compared += 1
    # A point no frame is at: an error, not an empty report.
    status, out, err = cli.command("--point", "no-such-point", "triage", rslib.capture_path("mp_drop"))
    if status != 2 or out or "--point no-such-point: no capture point" not in err:
        raise rslib.Failure(f"--point no-such-point: exit {status}, stderr {err!r}")
    # Without a selection the title stays tshark's own.
    if "Filter:<No Filter>" not in cli.command("triage", rslib.capture_path("gbn"))[1]:
        raise rslib.Failure("roceshark triage without a selection: not Filter:<No Filter>")
    print(f"{compared} views under a selection, each equal to tshark's with the same filter")


rslib.main(run)
