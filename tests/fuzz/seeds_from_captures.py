#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Seeds for the fuzzers from the bundled captures (tests/fuzz/*_fuzz.cpp):

  tests/fuzz/seeds_from_captures.py OUT_DIR [CAPTURES_DIR] [--kind decode|session|capture]

decode (the default): up to PER_FILE frames of each capture, spread over
the file, one raw frame per seed file. session: each capture's first
SESSION_FRAMES frames in session_fuzz's record format (interface,
timestamp, frame). capture: each capture cut after its first
CAPTURE_FRAMES packets, its section and interface blocks kept (pcapng).
"""
import argparse
import glob
import os
import struct

PER_FILE = 40
SESSION_FRAMES = 48
CAPTURE_FRAMES = 24


def blocks(data):
    """(type, whole block bytes) of a little-endian pcapng file."""
    at = 0
    while at + 12 <= len(data):
        kind, length = struct.unpack_from("<II", data, at)
        if length < 12 or at + length > len(data):
            return
        yield kind, data[at:at + length]
        at += length


def packets(data):
    """(interface, timestamp, frame bytes) of each enhanced packet block."""
    for kind, b in blocks(data):
        if kind == 6:
            iface, hi, lo, caplen, _ = struct.unpack_from("<IIIII", b, 8)
            yield iface, hi << 32 | lo, b[28:28 + caplen]


def session_seed(data):
    out = bytearray([0])  # settings: the defaults
    for iface, ts, frame in list(packets(data))[:SESSION_FRAMES]:
        out += bytes([(iface & 7) | 1 << 3]) + struct.pack("<QH", ts, len(frame)) + frame
    return bytes(out)


def capture_seed(data):
    out, n = bytearray(), 0
    for kind, b in blocks(data):
        if kind == 6:
            n += 1
            if n > CAPTURE_FRAMES:
                break
        out += b
    return bytes(out)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("captures", nargs="?", default=os.path.join(os.path.dirname(__file__), "..", "..", "captures"))
    ap.add_argument("--kind", choices=("decode", "session", "capture"), default="decode")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    written = 0
    for path in sorted(glob.glob(os.path.join(a.captures, "*.pcapng"))):
        with open(path, "rb") as f:
            data = f.read()
        name = os.path.splitext(os.path.basename(path))[0]
        if a.kind == "decode":
            frames = [frame for _, _, frame in packets(data)]
            step = max(1, len(frames) // PER_FILE)
            seeds = {f"{name}-{i}": frames[i] for i in range(0, len(frames), step)[:PER_FILE]}
        else:
            seeds = {name: session_seed(data) if a.kind == "session" else capture_seed(data)}
        for seed, content in seeds.items():
            with open(os.path.join(a.out, seed), "wb") as f:
                f.write(content)
            written += 1
    print(f"{written} {a.kind} seeds from {a.captures}")


if __name__ == "__main__":
    main()
