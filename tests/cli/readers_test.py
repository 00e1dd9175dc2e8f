# SPDX-License-Identifier: GPL-2.0-or-later
"""The mapped reader (cli/mapped_capture.cpp) and libwiretap give the same
records (issue 36): every view, stderr and the exit status of the command
are the same with ROCESHARK_READER=wiretap, on every bundled capture, on
its pcap copies (us and ns), and on files that send the mapped reader back
to libwiretap part-way: two sections, truncated at any byte, big-endian,
nanosecond and offset timestamps, NULs in interface names, simple packet
blocks. The fuzzed copies are compared with tshark by tests/tshark/fuzz.py,
which reads them through libwiretap."""
import glob
import os
import struct
import subprocess
import tempfile

import cli
import rslib


def both(*args):
    mapped = subprocess.run([cli.COMMAND, *args], capture_output=True, env=cli.ENV, timeout=600)
    wiretap = subprocess.run([cli.COMMAND, *args], capture_output=True, timeout=600,
                             env=dict(cli.ENV, ROCESHARK_READER="wiretap"))
    if (mapped.returncode, mapped.stdout, mapped.stderr) != (wiretap.returncode, wiretap.stdout, wiretap.stderr):
        raise rslib.Failure(f"roceshark {' '.join(args)}: the mapped reader says (exit {mapped.returncode}) "
                            f"{mapped.stderr[-300:]!r}, libwiretap (exit {wiretap.returncode}) {wiretap.stderr[-300:]!r}"
                            f"{'' if mapped.stdout == wiretap.stdout else ', and the reports differ'}")
    return mapped


def pcapng_blocks(data):
    """(type, body) of each block of a little-endian pcapng file."""
    out, pos = [], 0
    while pos + 12 <= len(data):
        kind, length = struct.unpack_from("<II", data, pos)
        out.append((kind, data[pos + 8:pos + length - 4]))
        pos += length
    return out


def block(kind, body, endian="<"):
    body += b"\0" * (-len(body) % 4)
    return struct.pack(endian + "II", kind, len(body) + 12) + body + struct.pack(endian + "I", len(body) + 12)


def option(code, value, endian="<"):
    return struct.pack(endian + "HH", code, len(value)) + value + b"\0" * (-len(value) % 4)


def crafted(tmp, capture):
    """Variants of one capture's blocks that the mapped reader must hand to libwiretap, or read as it reads them."""
    with open(capture, "rb") as f:
        data = f.read()
    blocks = pcapng_blocks(data)
    shb = [b for k, b in blocks if k == 0x0A0D0D0A][0]
    idbs = [b for k, b in blocks if k == 1]
    epbs = [b for k, b in blocks if k == 6]
    head = block(0x0A0D0D0A, shb)

    def idb(body, opts):
        return block(1, body[:8] + b"".join(opts) + option(0, b""))

    def epbs_as():
        return b"".join(block(6, b) for b in epbs)

    variants = {
        "ns": head + b"".join(idb(b, [option(2, b"ns-if"), option(9, b"\x09")]) for b in idbs) + epbs_as(),
        "us": head + b"".join(idb(b, [option(9, b"\x06")]) for b in idbs) + epbs_as(),
        "ms": head + b"".join(idb(b, [option(9, b"\x03")]) for b in idbs) + epbs_as(),
        "offset": head + b"".join(idb(b, [option(14, struct.pack("<q", 5))]) for b in idbs) + epbs_as(),
        "binary-resolution": head + b"".join(idb(b, [option(9, b"\x94")]) for b in idbs) + epbs_as(),
        "nul-name": head + b"".join(idb(b, [option(2, b"leaf\0junk"), option(3, b"desc")]) for b in idbs) + epbs_as(),
        "empty-name": head + b"".join(idb(b, [option(2, b"")]) for b in idbs) + epbs_as(),
        "description": head + b"".join(idb(b, [option(3, b"a description")]) for b in idbs) + epbs_as(),
        "late-idb": head + idb(idbs[0], []) + epbs_as()[:0] + b"".join(
            block(6, e) for e in epbs if struct.unpack_from("<I", e)[0] == 0) + b"".join(
            idb(b, [option(2, b"late")]) for b in idbs[1:]) + epbs_as(),
        "simple-packet": data + block(3, struct.pack("<I", 60) + bytes(60)) + data[len(head):],
        "two-sections": data + data,
        "garbage-tail": data + b"\x01\x02\x03",
        "unknown-blocks": head + b"".join(block(1, b) for b in idbs) + block(0x0BAD, b"\0" * 12) + block(5, b"\0" * 12)
        + epbs_as(),
    }
    paths = []
    for name, body in variants.items():
        path = os.path.join(tmp, f"{name}-{os.path.basename(capture)}")
        with open(path, "wb") as f:
            f.write(body)
        paths.append(path)
    return paths


def run(argv):
    captures = sorted(glob.glob(os.path.join(rslib.CAPTURES, "*.pcapng")))
    with tempfile.TemporaryDirectory() as tmp:
        files = 0
        for capture in captures:
            both("report", capture)
            for fmt in ("pcap", "nsecpcap"):
                out = os.path.join(tmp, f"{fmt}-{os.path.basename(capture)}.pcap")
                if subprocess.run(["editcap", "-F", fmt, capture, out], capture_output=True).returncode == 0:
                    both("report", out)
                    files += 1
            files += 1
        print(f"{files} bundled captures and their pcap copies: the same report through either reader")
        for name in ("multipoint", "mp_drop", "demo"):
            for path in crafted(tmp, rslib.capture_path(name)):
                for view in ("report", "hops"):
                    both(view, path)
                files += 1
        print("unusual pcapng (ns and offset stamps, NULs in names, late interfaces, simple packets, two sections, "
              "unknown blocks, a garbage tail): the same through either reader")
        with open(rslib.capture_path("multipoint"), "rb") as f:
            data = f.read()
        cut = os.path.join(tmp, "cut.pcapng")
        for size in list(range(0, 200, 7)) + list(range(len(data) - 120, len(data), 5)) + [len(data) // 2]:
            with open(cut, "wb") as f:
                f.write(data[:size])
            both("report", cut)
        pcap = os.path.join(tmp, "mp.pcap")
        subprocess.run(["editcap", "-F", "pcap", rslib.capture_path("pfc_storm"), pcap], check=True)
        with open(pcap, "rb") as f:
            classic = f.read()
        for size in list(range(0, 120, 5)) + list(range(len(classic) - 60, len(classic), 7)):
            with open(cut, "wb") as f:
                f.write(classic[:size])
            both("report", cut)
        print("pcapng and pcap truncated at 70 places, in the header, mid-block and at the end: the same output "
              "and exit status")
        # The same pcap written big-endian, as a big-endian host writes it.
        magic, major, minor, zone, sigfigs, snap, link = struct.unpack_from("<IHHiIII", classic)
        big = struct.pack(">IHHiIII", magic, major, minor, zone, sigfigs, snap, link)
        pos = 24
        while pos + 16 <= len(classic):
            sec, frac, caplen, length = struct.unpack_from("<IIII", classic, pos)
            big += struct.pack(">IIII", sec, frac, caplen, length) + classic[pos + 16:pos + 16 + caplen]
            pos += 16 + caplen
        with open(cut, "wb") as f:
            f.write(big)
        if both("report", cut).stdout != subprocess.run([cli.COMMAND, "report", pcap], capture_output=True).stdout:
            raise rslib.Failure("a big-endian pcap is not read as its little-endian twin")
        print("a big-endian pcap: the same report as its little-endian twin, through either reader")


rslib.main(run)
