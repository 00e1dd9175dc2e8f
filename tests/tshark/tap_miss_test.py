# SPDX-License-Identifier: GPL-2.0-or-later
"""A tap that misses a copy is not a network loss. mp_ce (three points, no
loss) with one request's copy cut out at leaf-1 or at nic-b, as a SPAN port
dropping mirror copies does: the responder acknowledged the PSN and it was
never resent, so no hop loses it (no hop_loss finding, Loss PASS, no
roce.hop.lost_after), and the QP table still shows the gap at the point
that missed it. mp_drop's real loss, resent after a NAK, still stands. The
command reports the cut captures as tshark does."""
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
    return kinds, loss, lost, marked.split()


def run(argv):
    clean = rslib.capture_path("mp_ce")
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)  # tshark runs as nobody
        for point in ("leaf-1", "nic-b"):
            frame = request_frames(clean, point)[2]
            cut = os.path.join(tmp, f"mp_ce-{point}.pcapng")
            subprocess.run(["editcap", clean, cut, str(frame)], check=True, capture_output=True)
            os.chmod(cut, 0o644)
            label = f"mp_ce without frame {frame} (a request at {point})"
            kinds, loss, lost, marked = judged(cut, label)
            if "hop_loss" in kinds or lost or marked or loss["verdict"] != "PASS":
                raise rslib.Failure(f"{label}: taken as a network loss: findings {kinds}, hops lost {lost}, "
                                    f"lost_after on {marked}, Loss {loss['verdict']}")
            gaps = {q["point"]: q["gaps"] for q in json.loads(rslib.tshark(
                "-n", "-q", "-r", cut, "-z", "roce,report"))["qps"] if q.get("gaps")}
            if gaps != {point: 1}:
                raise rslib.Failure(f"{label}: PSN gaps by point {gaps}, want one at {point}")
            print(f"{label}: no loss, the gap shown at {point}")
    kinds, loss, lost, marked = judged(rslib.capture_path("mp_drop"), "mp_drop")
    if "hop_loss" not in kinds or lost != 1 or len(marked) != 1 or loss["verdict"] != "FAIL":
        raise rslib.Failure(f"mp_drop: its resent loss must stand: findings {kinds}, hops lost {lost}, "
                            f"lost_after on {marked}, Loss {loss['verdict']}")
    print("mp_drop: the loss the requester resent stands")


if __name__ == "__main__":
    rslib.main(run)
