# SPDX-License-Identifier: GPL-2.0-or-later
"""Timestamp-hostile copies of a pcapng capture: the same frames, stamped as
a broken or unlucky clock would stamp them.

  step      the second half 1 s earlier than the first (an NTP step, files appended)
  wrap      stamps that pass 2^64 units in the middle of the capture
  equal     every frame stamped the same
  reversed  the stamps in reverse order
  random    seeded random stamps over 2^63 units

Only Enhanced Packet Blocks carry stamps; the other blocks are copied as they
are. Used by fuzz.py.

  retime.py MODE IN.pcapng OUT.pcapng
"""
import os
import random
import struct
import sys

MODES = ("step", "wrap", "equal", "reversed", "random")
EPB, IDB = 6, 1


def blocks(data):
    """(offset, type, length) of each block, in the byte order of its section."""
    at, order = 0, "<"
    while at + 12 <= len(data):
        kind = struct.unpack_from(order + "I", data, at)[0]
        if kind == 0x0A0D0D0A:
            order = "<" if struct.unpack_from("<I", data, at + 8)[0] == 0x1A2B3C4D else ">"
        length = struct.unpack_from(order + "I", data, at + 4)[0]
        if length < 12 or at + length > len(data):
            raise ValueError(f"block at {at} has length {length}")
        yield at, kind, length, order
        at += length


def units_per_second(data, at, length, order):
    """An IDB's if_tsresol as units per second (default: microseconds)."""
    opt = at + 16
    while opt + 4 <= at + length - 4:
        code, size = struct.unpack_from(order + "HH", data, opt)
        if code == 0:
            break
        if code == 9 and size >= 1:
            r = data[opt + 4]
            return 2 ** (r & 0x7F) if r & 0x80 else 10 ** r
        opt += 4 + size + (-size % 4)
    return 10**6


def stamps(mode, old, seconds, rng):
    n = len(old)
    if mode == "step":
        return [t - seconds[i] * (i >= n // 2) for i, t in enumerate(old)]
    if mode == "wrap":
        base = 2**64 - (old[n // 2] - old[0]) - 1 if n else 0
        return [(base + t - old[0]) % 2**64 for t in old]
    if mode == "equal":
        return [old[0]] * n
    if mode == "reversed":
        return old[::-1]
    return [rng.randrange(2**63) for _ in old]


def copies(captures, directory):
    """Every mode's copy of each capture (paths), written in `directory`:
    [(copy, capture)]."""
    out = []
    for capture in captures:
        with open(capture, "rb") as f:
            data = f.read()
        for mode in MODES:
            path = os.path.join(directory, f"{mode}-{os.path.basename(capture)}")
            with open(path, "wb") as f:
                f.write(retime(mode, data))
            out.append((path, capture))
    return out

def retime(mode, data, seed=1):
    out = bytearray(data)
    epbs, old, seconds, resolution = [], [], [], []
    for at, kind, length, order in blocks(data):
        if kind == 0x0A0D0D0A:
            resolution = []
        elif kind == IDB:
            resolution.append(units_per_second(data, at, length, order))
        elif kind == EPB:
            interface, hi, lo = struct.unpack_from(order + "III", data, at + 8)
            epbs.append((at, order))
            old.append(hi << 32 | lo)
            seconds.append(resolution[interface] if interface < len(resolution) else 10**6)
    for (at, order), t in zip(epbs, stamps(mode, old, seconds, random.Random(seed))):
        struct.pack_into(order + "II", out, at + 12, t >> 32, t & 0xFFFFFFFF)
    return bytes(out)


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in MODES:
        sys.exit(__doc__)
    with open(sys.argv[2], "rb") as f:
        data = f.read()
    with open(sys.argv[3], "wb") as f:
        f.write(retime(sys.argv[1], data))
