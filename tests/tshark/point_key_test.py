# SPDX-License-Identifier: GPL-2.0-or-later
"""roce.point_key:vlan. An RSPAN-style collector: mp_drop's three points
recorded on one interface, each point's frames carrying an outer VLAN tag
of its own (100 + its interface id). Keyed by VLAN and named back, the hop
statistics must be exactly those of the original file; keyed by interface
(the default) everything is one point and nothing matches."""
import os
import struct
import tempfile

import rslib

EPB = 6


def tag_by_interface(src, dst):
    """Copy a little-endian pcapng file, moving every packet to interface 0
    with an 802.1Q tag (VLAN 100 + its old interface, PCP 3) after its MACs."""
    with open(src, "rb") as f:
        data = f.read()
    out, at = bytearray(), 0
    while at < len(data):
        kind, length = struct.unpack_from("<II", data, at)
        block = data[at:at + length]
        if kind == EPB:
            iface, ts_hi, ts_lo, cap, orig = struct.unpack_from("<IIIII", block, 8)
            frame = block[28:28 + cap]
            rest = block[28 + ((cap + 3) & ~3):length - 4]  # options
            tag = struct.pack(">HH", 0x8100, (3 << 13) | (100 + iface))
            frame = frame[:12] + tag + frame[12:]
            body = struct.pack("<IIIII", 0, ts_hi, ts_lo, cap + 4, orig + 4) + frame
            body += b"\0" * (-len(body) % 4) + rest
            total = 12 + len(body)
            block = struct.pack("<II", EPB, total) + body + struct.pack("<I", total)
        out += block
        at += length
    with open(dst, "wb") as f:
        f.write(out)


def hops(capture, *options):
    return rslib.tshark("-n", "-q", *options, "-r", capture, "-z", "roce,hops")


def run(argv):
    original = rslib.capture_path("mp_drop")
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)
        tagged = os.path.join(tmp, "rspan.pcapng")
        tag_by_interface(original, tagged)
        os.chmod(tagged, 0o644)
        by_vlan = hops(tagged, "-o", "roce.point_key:vlan", "-o", "roce.point_names:100=nic-a,101=leaf-1,102=nic-b")
        by_interface = hops(tagged)
    want = hops(original)
    if by_vlan != want:
        raise rslib.Failure(f"keyed by VLAN:\n{by_vlan}\ndiffers from the original's:\n{want}")
    if "Matched" in by_interface and "nic-b" in by_interface.split("Per QP")[0]:
        raise rslib.Failure(f"keyed by interface, one point still matched hops:\n{by_interface}")
    print("VLAN-keyed points give the original's hop statistics")


if __name__ == "__main__":
    rslib.main(run)
