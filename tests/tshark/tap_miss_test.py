# SPDX-License-Identifier: GPL-2.0-or-later
"""A tap that misses a copy is not a network loss. Captures without a
network loss, with one request's copy cut out at a downstream point, as a
SPAN port dropping mirror copies does: the responder acknowledged the PSN
and it was never resent, so the cut adds no hop loss, no hop_loss
finding, no roce.hop.lost_after and leaves the Loss verdict as it was, and the QP table shows the gap
at the point that missed it. The report's capture_quality and -z roce,hops say once that that point
missed one copy, and the health is not PASS. Routed (mp_ce) and L2-bridged
(mp_vlan_bridged, mp_besteffort_bridged) layouts, and flows with late,
reordered copies (mp_vlan_bridged, mp_ecn_reorder). The real losses of
mp_drop and multipoint, resent after their NAKs, still stand. The command
reports every cut capture as tshark does."""
import json
import os
import subprocess
import tempfile

import rslib

COMMAND = os.path.join(rslib.BUILD, "roceshark")


def request_frames(capture, point):
    """Frame numbers of the requests (opcodes below 0x11) captured at `point`."""
    out = rslib.tshark("-n", "-r", capture, "-Y", f'frame.interface_name == "{point}" && infiniband.bth.opcode < 17',
                       "-T", "fields", "-e", "frame.number")
    return [int(n) for n in out.split()]


def judged(capture, label):
    report = rslib.tshark("-n", "-q", "-r", capture, "-z", "roce,report")
    p = subprocess.run([COMMAND, "report", capture], capture_output=True, text=True, timeout=300,
                       env=dict(os.environ, TZ="UTC", LC_ALL="C"))
    if p.returncode or p.stdout != report:
        raise rslib.Failure(f"{label}: roceshark report exited {p.returncode} or differs from tshark's\n{p.stderr}")
    r = json.loads(report)
    kinds = [f["kind"] for f in r["triage"]["findings"]]
    loss = next(m for m in r["triage"]["health"]["metrics"] if m["name"] == "loss")
    lost = sum(h["lost"] for h in r["hops"])
    marked = rslib.tshark("-n", "-2", "-r", capture, "-Y", "roce.hop.lost_after", "-T", "fields", "-e", "frame.number")
    missed = {q["point"]: q["count"] for q in r["capture_quality"] if q["kind"] == "tap_missed_copies"}
    return kinds, loss, lost, marked.split(), missed, r["triage"]["health"]["verdict"]


def hops_note(capture):
    """The capture-quality lines of -z roce,hops."""
    out = rslib.tshark("-n", "-q", "-r", capture, "-z", "roce,hops")
    return [l for l in out.splitlines() if l.startswith("Capture quality: ")]


def gaps(capture):
    """PSN gaps in the QP table, by point."""
    out = {}
    for q in json.loads(rslib.tshark("-n", "-q", "-r", capture, "-z", "roce,report"))["qps"]:
        out[q["point"]] = out.get(q["point"], 0) + q["gaps"]
    return out


# capture: the downstream points to cut a request's copy at, one at a time
CUTS = {"mp_ce": ["leaf-1", "nic-b"], "mp_vlan_bridged": ["leaf-1", "nic-b"],
        "mp_besteffort_bridged": ["spine-1"], "mp_ecn_reorder": ["spine-1"]}


def run(argv):
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)  # tshark runs as nobody
        for scenario, points in CUTS.items():
            whole = rslib.capture_path(scenario)
            want, before = judged(whole, scenario), gaps(whole)
            if "hop_loss" in want[0] or want[2] or want[3] or want[4]:
                raise rslib.Failure(f"{scenario}: has a hop loss or a tap miss of its own: pick a capture without")
            for point in points:
                frame = request_frames(whole, point)[2]
                cut = os.path.join(tmp, f"{scenario}-{point}.pcapng")
                subprocess.run(["editcap", whole, cut, str(frame)], check=True, capture_output=True)
                os.chmod(cut, 0o644)
                label = f"{scenario} without frame {frame} (a request at {point})"
                got = judged(cut, label)
                if "hop_loss" in got[0] or got[2] or got[3] or got[1]["verdict"] != want[1]["verdict"]:
                    raise rslib.Failure(f"{label}: taken as a network loss: findings {got[0]}, "
                                        f"hops lost {got[2]}, lost_after on {got[3]}, Loss {got[1]['verdict']}")
                # Said once, as capture quality, in the report and -z roce,hops; never a PASS.
                notes = hops_note(cut)
                if got[4] != {point: 1} or got[5] == "PASS" or len(notes) != 1 or not notes[0].startswith(
                        f"Capture quality: {point}'s tap missed 1 copy"):
                    raise rslib.Failure(f"{label}: capture quality {got[4]}, health {got[5]}, -z roce,hops {notes}; "
                                        f"want {point} missing 1 copy, not PASS")
                # A point whose flow was already reordered there may show the
                # missing copy inside a gap it had: then no gap is added.
                added = {p: n - before.get(p, 0) for p, n in gaps(cut).items() if n != before.get(p, 0)}
                if added != ({} if before.get(point) else {point: 1}) and added != {point: 1}:
                    raise rslib.Failure(f"{label}: PSN gaps added by point {added}, want one at {point}")
                print(f"{label}: no loss, the gap shown at {point}")
    for scenario in ("mp_drop", "multipoint"):
        kinds, loss, lost, marked, _, _ = judged(rslib.capture_path(scenario), scenario)
        if "hop_loss" not in kinds or not lost or len(marked) != lost or loss["verdict"] != "FAIL":
            raise rslib.Failure(f"{scenario}: its resent loss must stand: findings {kinds}, hops lost {lost}, "
                                f"lost_after on {marked}, Loss {loss['verdict']}")
        print(f"{scenario}: the loss the requester resent stands ({lost})")


if __name__ == "__main__":
    rslib.main(run)
