#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Seeds for the decoder fuzzer from the bundled captures: up to PER_FILE
frames of each, spread over the file, one raw frame per seed file.

  tests/fuzz/seeds_from_captures.py OUT_DIR [CAPTURES_DIR]
"""
import glob
import os
import sys

from scapy.utils import PcapNgReader

PER_FILE = 40


def main():
    out = sys.argv[1]
    captures = sys.argv[2] if len(sys.argv) > 2 else os.path.join(os.path.dirname(__file__), "..", "..", "captures")
    os.makedirs(out, exist_ok=True)
    written = 0
    for path in sorted(glob.glob(os.path.join(captures, "*.pcapng"))):
        frames = [bytes(p) for p in PcapNgReader(path)]
        step = max(1, len(frames) // PER_FILE)
        name = os.path.splitext(os.path.basename(path))[0]
        for i in range(0, len(frames), step)[:PER_FILE]:
            with open(os.path.join(out, f"{name}-{i}"), "wb") as f:
                f.write(frames[i])
            written += 1
    print(f"{written} seeds from {captures}")


if __name__ == "__main__":
    main()
