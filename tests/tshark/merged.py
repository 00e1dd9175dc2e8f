# SPDX-License-Identifier: GPL-2.0-or-later
"""Taps merged with `mergecap -I none` stay separate capture points: the
copy of a packet seen at the second tap is never a retransmission.

Builds one file per point of a multi-point scenario with the generator,
merges them as a user would, and checks every verdict the plugin gives on
the merged file against the generator's truth for the all-points file
(frames are matched by point and timestamp, since the merge may order ties
differently).

  merged.py SCENARIO P1,P2          mergecap -I none: every verdict as intended
  merged.py SCENARIO P1,P2 --same-name
      taps whose interfaces look alike (same name, link type, snaplen), as
      two taps both called eth0: mergecap's default IDB merge makes them
      one interface, and the plugin must say so (roce.point.merged)."""
import os
import subprocess
import tempfile

import rslib
import truth

GEN = os.path.join(rslib.BUILD, "captures", "roceshark-gen")


def same_name(parts, points, tmp):
    """Rename every point's interface to one name, merge the default way."""
    name = b"tap" + b"-" * (len(points[0]) - 3)
    renamed = []
    for part, p in zip(parts, points):
        with open(part, "rb") as f:
            data = f.read()
        if len(p) != len(name) or data.count(p.encode()) != 1:
            raise rslib.Failure(f"point {p}: its name must be {len(name)} bytes and appear once (in its IDB)")
        out = part[:-len(".pcapng")] + ".same.pcapng"
        with open(out, "wb") as f:
            f.write(data.replace(p.encode(), name))
        renamed.append(out)
    merged = os.path.join(tmp, "default.pcapng")
    subprocess.run(["mergecap", "-w", merged, *renamed], check=True)
    rows = rslib.rows(rslib.fields(merged))
    names = {r["frame.interface_name"] for r in rows}
    if names != {name.decode()}:
        raise rslib.Failure(f"mergecap's default merge kept interfaces {sorted(names)}: expected one")
    warned = [r["frame.number"] for r in rows if r["roce.point.merged"] == "1"]
    if not warned:
        raise rslib.Failure("points merged into one interface, and no roce.point.merged warning")
    print(f"default merge: one interface, roce.point.merged on frames {warned}")


def run(argv):
    scenario, points = argv[0], argv[1].split(",")
    scn = os.path.join(rslib.CAPTURES, "scenarios", scenario + ".scn")
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)
        parts = []
        for p in points:
            out = os.path.join(tmp, p + ".pcapng")
            subprocess.run([GEN, scn, "-o", out, "--only-point", p], check=True)
            parts.append(out)
        if "--same-name" in argv:
            return same_name(parts, points, tmp)
        merged = os.path.join(tmp, "merged.pcapng")
        subprocess.run(["mergecap", "-I", "none", "-w", merged, *parts], check=True)
        got = rslib.rows(rslib.fields(merged, "-e", "frame.time_epoch", "-e", truth.PAIR_AMBIGUOUS))
    want = truth.load(scenario)
    by_key = {}
    for t in want:  # frames can share a point and a nanosecond: keep them in order
        psn = t["psn"] if t["psn"] != "-" else "0"  # PFC and LLDP frames have no BTH: tshark gives no PSN
        by_key.setdefault((t["point"], t["ts_ns"], psn), []).append(t)
    if len(got) != len(want):
        raise rslib.Failure(f"merged file has {len(got)} frames, the scenario {len(want)}")
    names = {r["frame.interface_name"] for r in got}
    if names != set(points):
        raise rslib.Failure(f"merged file has points {sorted(names)}, want {points}")
    problems, resends = [], 0
    for r in got:
        secs, frac = r["frame.time_epoch"].split(".")
        same = by_key.get((r["frame.interface_name"], str(int(secs + frac.ljust(9, "0"))),
                           r["infiniband.bth.psn"] or "0"))
        t = same.pop(0) if same else None
        if t is None:
            problems.append(f"frame {r['frame.number']}: no truth row at that point and time")
            continue
        resends += r["roce.seq.retransmission"] == "1"
        for field, value in truth.expected(t, frame_numbers=False).items():
            if r[field] != value:
                problems.append(f"frame {r['frame.number']} ({t['point']} psn {t['psn']}): {field} is "
                                f"{r[field]!r}, want {value!r}")
    if problems:
        raise rslib.Failure("\n".join(problems[:30]))
    print(f"{len(got)} merged frames from {len(points)} taps match; {resends} retransmissions, all real")


if __name__ == "__main__":
    rslib.main(run)
