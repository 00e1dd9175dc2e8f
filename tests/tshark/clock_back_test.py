# SPDX-License-Identifier: GPL-2.0-or-later
"""Frames stamped back carry `roce.clock_back` and its expert info, PFC
frames as well as RoCE packets (docs/analysis.md, "Time that runs
backwards").

Copies of captures with PFC are made with some PFC frames' stamps swapped
with the analysed frame before them at the same interface, and one with
the second half stepped back 1 s. Which frames are stamped back is worked
out here from the pcapng stamps themselves: at each point (the interface),
a frame analysed by the plugin is stamped back when its stamp is before
the latest one so far; a step of more than 1 ms starts afresh from it."""
import os
import struct
import tempfile

import retime
import rslib

HOLD_NS = 1_000_000
PAUSE_ETHERTYPE = "0x8808"


def epb_stamps(data):
    """(interface, stamp in ns) of each packet, in file order."""
    out, resolution = [], []
    for at, kind, length, order in retime.blocks(data):
        if kind == 0x0A0D0D0A:
            resolution = []
        elif kind == retime.IDB:
            resolution.append(retime.units_per_second(data, at, length, order))
        elif kind == retime.EPB:
            interface, hi, lo = struct.unpack_from(order + "III", data, at + 8)
            units = resolution[interface] if interface < len(resolution) else 10**6
            out.append((interface, (hi << 32 | lo) * 10**9 // units))
        elif kind in (3, 2):  # simple and obsolete packet blocks: frames without a stamp we could model
            raise rslib.Failure("a capture with simple packet blocks: not one this test models")
    return out


def swapped(data, frames):
    """A copy with each pair (i, j) of frame numbers' stamps swapped."""
    out = bytearray(data)
    epbs = [(at, order) for at, kind, _, order in retime.blocks(data) if kind == retime.EPB]
    for i, j in frames:
        (ai, oi), (aj, oj) = epbs[i - 1], epbs[j - 1]
        si, sj = data[ai + 12:ai + 20], data[aj + 12:aj + 20]
        out[ai + 12:ai + 20], out[aj + 12:aj + 20] = sj, si
    return bytes(out)


def frame_rows(capture, *fields):
    out = rslib.tshark("-n", "-2", "-r", capture, "-T", "fields", "-E", "occurrence=a", "-E", "aggregator=|",
                       *[a for f in fields for a in ("-e", f)])
    return [line.split("\t") for line in out.splitlines()]


def expected_back(stamps, analysed):
    latest, back = {}, set()
    for n, (interface, t) in enumerate(stamps, 1):
        if n not in analysed:
            continue
        if interface not in latest:
            latest[interface] = t
        elif t < latest[interface]:
            back.add(n)
            if latest[interface] - t > HOLD_NS:
                latest[interface] = t
        else:
            latest[interface] = t
    return back


def check(name, path, kinds):
    with open(path, "rb") as f:
        stamps = epb_stamps(f.read())
    rows = frame_rows(path, "frame.number", "roce.point", "roce.clock_back", "_ws.expert.message")
    analysed = {int(r[0]) for r in rows if r[1]}
    flagged = {int(r[0]) for r in rows if r[2]}
    want = expected_back(stamps, analysed)
    if flagged != want:
        raise rslib.Failure(f"{name}: roce.clock_back on {sorted(flagged - want)[:10]} not stamped back, "
                            f"missing on {sorted(want - flagged)[:10]}")
    texts = {int(r[0]): r[3] for r in rows}
    for n in flagged:
        if "Stamped before an earlier frame" not in texts[n]:
            raise rslib.Failure(f"{name}: frame {n} has roce.clock_back without its expert info: {texts[n]!r}")
    pauses = sum(1 for n in flagged if kinds.get(n) == PAUSE_ETHERTYPE)
    if not pauses:
        raise rslib.Failure(f"{name}: none of the {len(flagged)} frames stamped back is a PFC frame")
    print(f"{name}: {len(flagged)} frames stamped back, {pauses} of them PFC frames, as the stamps say")


def test(_args):
    with tempfile.TemporaryDirectory() as tmp:
        for scenario in ("pfc_storm", "demo"):
            original = rslib.capture_path(scenario)
            with open(original, "rb") as f:
                data = f.read()
            rows = frame_rows(original, "frame.number", "eth.type", "roce.point")
            kinds = {int(r[0]): r[1].split("|")[-1] for r in rows}
            stamps = epb_stamps(data)
            last_at, pairs = {}, []
            pause_no = 0
            for r in rows:
                n = int(r[0])
                if not r[2]:
                    continue
                interface = stamps[n - 1][0]
                if kinds[n] == PAUSE_ETHERTYPE and interface in last_at:
                    pause_no += 1
                    if pause_no % 5 == 1:
                        pairs.append((n, last_at.pop(interface)))
                        continue
                last_at[interface] = n
            copy = os.path.join(tmp, f"swapped-{scenario}.pcapng")
            with open(copy, "wb") as f:
                f.write(swapped(data, pairs))
            check(f"{scenario} with {len(pairs)} PFC frames swapped", copy, kinds)
            stepped = os.path.join(tmp, f"step-{scenario}.pcapng")
            with open(stepped, "wb") as f:
                f.write(retime.retime("step", data))
            with open(stepped, "rb") as f:
                stamps = epb_stamps(f.read())
            rows = frame_rows(stepped, "frame.number", "roce.point", "roce.clock_back")
            analysed = {int(r[0]) for r in rows if r[1]}
            flagged = {int(r[0]) for r in rows if r[2]}
            want = expected_back(stamps, analysed)
            if flagged != want or not want:
                raise rslib.Failure(f"step-{scenario}: roce.clock_back on {sorted(flagged)[:10]}, "
                                    f"stamped back {sorted(want)[:10]}")
            print(f"step-{scenario}: {len(flagged)} frames stamped back, as the stamps say")


rslib.main(test)
