# SPDX-License-Identifier: GPL-2.0-or-later
"""The capture formats the command reads through libwiretap, beside pcapng:
gzip-compressed pcapng, pcap with microsecond and with nanosecond
timestamps, and ERF as Endace DAG taps write it (Ethernet records with the
FCS, several ports). On each, every view equals tshark's on the same file,
and the findings are those of the pcapng it was made from: agreeing on
"nothing found" would pass a reader that sees nothing. Point names differ
by format (pcap has none), so findings are compared by kind."""
import gzip
import json
import os
import shutil
import struct
import subprocess
import tempfile
import zlib

import cli
import rslib

SCENARIOS = ["gbn", "pfc_storm", "mp_drop"]  # one point, PFC, three points


def pcapng_packets(path):
    """(interface, ns, bytes, wire length) of each Enhanced Packet Block."""
    data = open(path, "rb").read()
    resolution, off, packets = [], 0, []
    while off + 12 <= len(data):
        kind, length = struct.unpack_from("<II", data, off)
        body = data[off + 8:off + length - 4]
        if kind == 1:  # Interface Description: if_tsresol, default microseconds
            res, opt = 6, 8
            while opt + 4 <= len(body):
                code, olen = struct.unpack_from("<HH", body, opt)
                if code == 0:
                    break
                if code == 9:
                    res = body[opt + 4]
                opt += 4 + olen + (-olen % 4)
            resolution.append(res)
        elif kind == 6:
            iface, hi, lo, caplen, wire = struct.unpack_from("<IIIII", body)
            units = (hi << 32) | lo
            ns = units * 10 ** (9 - resolution[iface])
            packets.append((iface, ns, body[20:20 + caplen], wire))
        off += length
    return packets


def write_erf(pcapng, erf):
    """ERF type ETH records, as a DAG card writes them: the port in the
    flags, the FCS captured and counted in wlen, 8-byte aligned records."""
    out = bytearray()
    for iface, ns, frame, wire in pcapng_packets(pcapng):
        secs, frac = divmod(ns, 10 ** 9)
        ts = (secs << 32) | ((frac << 32) // 10 ** 9)
        body = b"\x00\x00" + frame + struct.pack("<I", zlib.crc32(frame))
        rlen = 16 + len(body)
        body += b"\x00" * (-rlen % 8)
        out += struct.pack("<Q", ts) + struct.pack(">BBHHH", 2, 0x04 | iface, 16 + len(body), 0, wire + 4) + body
    with open(erf, "wb") as f:
        f.write(out)


def finding_kinds(report):
    return sorted(f["kind"] for f in json.loads(report)["triage"]["findings"])


def variants(scenario, tmp):
    source = rslib.capture_path(scenario)
    made = {"pcapng.gz": os.path.join(tmp, f"{scenario}.pcapng.gz"), "erf": os.path.join(tmp, f"{scenario}.erf")}
    with open(source, "rb") as f, gzip.open(made["pcapng.gz"], "wb") as g:
        shutil.copyfileobj(f, g)
    write_erf(source, made["erf"])
    if not scenario.startswith("mp_"):  # pcap has one interface: one point only
        for fmt in ("pcap", "nsecpcap"):
            made[fmt] = os.path.join(tmp, f"{scenario}.{fmt}")
            subprocess.run(["editcap", "-F", fmt, source, made[fmt]], check=True, capture_output=True)
    for path in made.values():
        os.chmod(path, 0o644)
    return source, made


def run(argv):
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)  # tshark runs as nobody
        for scenario in argv or SCENARIOS:
            source, made = variants(scenario, tmp)
            want_kinds = finding_kinds(cli.command("report", source)[1])
            if not want_kinds:
                raise rslib.Failure(f"{scenario}: no finding in the pcapng; pick a scenario with one")
            for fmt, path in made.items():
                for view in cli.VIEWS:
                    want = rslib.tshark("-n", "-q", "-r", path, "-z", f"roce,{view}")
                    status, got, err = cli.command(view, path)
                    if status != 0:
                        raise rslib.Failure(f"roceshark {view} on {fmt} of {scenario}: exit {status}\n{err}")
                    cli.same(f"roceshark {view} on {fmt} of {scenario}", got, want)
                    if view == "report" and finding_kinds(got) != want_kinds:
                        raise rslib.Failure(f"{fmt} of {scenario}: findings {finding_kinds(got)}, "
                                            f"the pcapng's {want_kinds}")
                if fmt == "pcapng.gz" and cli.command("report", path)[1] != cli.command("report", source)[1]:
                    raise rslib.Failure(f"{scenario}: the gzip-compressed pcapng reports otherwise than the pcapng")
            print(f"{scenario}: {', '.join(made)}: every view as tshark's, the pcapng's findings")


rslib.main(run)
