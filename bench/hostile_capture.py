# SPDX-License-Identifier: GPL-2.0-or-later
"""Hostile captures: many of one thing the analysis keeps state for.

  qps     one RoCEv2 SEND per QP, every QP new           (flows)
  points  one RoCEv2 SEND per pcapng interface           (capture points,
          the same QP everywhere                          flow x point states)
  pfc     PFC frames, each from a new port MAC            (pausing ports)
  cm      CM REQ / REP / RTU exchanges, each a new QP    (connections)
  bulk    1 KB SENDs of 64 QPs, an ACK every 16          (a long capture:
          frames; COUNT SENDs (1.8 M make 2 GB)           size, not state)

Written here, not by roceshark-gen: the generator models fabrics, these
are the captures no fabric makes. Frames are whole, with correct ICRCs
(IBA A17.4.1.5), so nothing in them is malformed: only their number is
hostile. Used by bench/hostile.py and tests/tshark/growth_test.py.

  bench/hostile_capture.py KIND COUNT OUT.pcapng
"""
import struct
import sys
import zlib

KINDS = ("qps", "points", "pfc", "cm", "bulk")
HOST_A = (bytes.fromhex("02000000000a"), bytes([10, 0, 0, 1]))
HOST_B = (bytes.fromhex("02000000000b"), bytes([10, 0, 0, 2]))
SEND_ONLY, UD_SEND_ONLY, ACK = 0x04, 0x64, 0x11
EPOCH_NS = 1_700_000_000 * 10**9


def block(kind, body):
    body += b"\0" * (-len(body) % 4)
    return struct.pack("<II", kind, len(body) + 12) + body + struct.pack("<I", len(body) + 12)


def option(code, value):
    return struct.pack("<HH", code, len(value)) + value + b"\0" * (-len(value) % 4)


SHB = block(0x0A0D0D0A, struct.pack("<IHHq", 0x1A2B3C4D, 1, 0, -1) + option(4, b"hostile_capture") + option(0, b""))


def idb(name):
    return block(1, struct.pack("<HHI", 1, 0, 65535) + option(2, name.encode()) + option(9, b"\x09") + option(0, b""))


def epb(iface, ts_ns, frame):
    ts = EPOCH_NS + ts_ns
    return block(6, struct.pack("<IIIII", iface, ts >> 32, ts & 0xFFFFFFFF, len(frame), len(frame)) + frame)


def ip_checksum(header):
    s = sum(struct.unpack("!10H", header))
    s = (s & 0xFFFF) + (s >> 16)
    return ~((s & 0xFFFF) + (s >> 16)) & 0xFFFF


def rocev2(src, dst, opcode, qp, psn, payload):
    """A RoCEv2 frame from host src to host dst, ICRC included."""
    bth = struct.pack("!BBHII", opcode, 0, 0xFFFF, qp & 0xFFFFFF, psn & 0xFFFFFF)
    udp_len = 8 + len(bth) + len(payload) + 4
    ip = bytearray(struct.pack("!BBHHHBBH4s4s", 0x45, 26 << 2 | 2, 20 + udp_len, 0, 0x4000, 64, 17, 0, src[1], dst[1]))
    ip[10:12] = struct.pack("!H", ip_checksum(bytes(ip)))
    udp = struct.pack("!HHHH", 0xC000 | (qp & 0x3FFF), 4791, udp_len, 0)
    masked = bytearray(ip + udp + bth + payload)
    masked[1] = masked[8] = 0xFF           # TOS, TTL
    masked[10:12] = masked[26:28] = b"\xff\xff"  # IP and UDP checksums
    masked[32] = 0xFF                      # BTH FECN, BECN, reserved
    icrc = struct.pack("<I", zlib.crc32(b"\xff" * 8 + bytes(masked)))
    return dst[0] + src[0] + b"\x08\x00" + bytes(ip) + udp + bth + payload + icrc


def pfc(src_mac, priority):
    times = [0] * 8
    times[priority] = 0xFFFF
    body = struct.pack("!HH8H", 0x0101, 1 << priority, *times)
    frame = bytes.fromhex("0180c2000001") + src_mac + b"\x88\x08" + body
    return frame + b"\0" * (60 - len(frame))


def cm_mad(attr, tid, body):
    header = struct.pack("!BBBBHHQHHI", 1, 0x07, 2, 0x03, 0, 0, tid, attr, 0, 0)
    return header + body + b"\0" * (232 - len(body))


def cm_exchange(i):
    """REQ from A, REP from B, RTU from A for connection i (QPNs 0x100000 + i
    and 0x200000 + i), each a UD SEND to QP 1 with a DETH."""
    a_qpn, b_qpn, a_comm, b_comm = 0x100000 + i, 0x200000 + i, 0x10000000 + i, 0x20000000 + i
    req = struct.pack("!IIQQIIIII", a_comm, 0, 0x0106000000000001, 0x0A, 0, 0, a_qpn << 8 | 16, 16, 20 << 3) \
        + struct.pack("!I", (1000 + i) << 8 | 20 << 3 | 7) + struct.pack("!HBB", 0xFFFF, 5 << 4 | 7, 15 << 4)
    rep = struct.pack("!IIII", b_comm, a_comm, 0, b_qpn << 8) + struct.pack("!II", 0, (2000 + i) << 8)
    rtu = struct.pack("!II", a_comm, b_comm)
    return [(HOST_A, HOST_B, cm_mad(0x0010, i, req)), (HOST_B, HOST_A, cm_mad(0x0013, i, rep)),
            (HOST_A, HOST_B, cm_mad(0x0014, i, rtu))]


def frames(kind, count):
    """(interface, frame) in capture order; a new interface is announced
    by yielding its name instead of a frame."""
    if kind == "qps":
        yield 0, "nic-a"
        for i in range(count):
            yield 0, rocev2(HOST_A, HOST_B, SEND_ONLY, 0x10 + i, 0, b"\0" * 16)
    elif kind == "points":
        for i in range(count):
            yield i, f"point-{i}"
            yield i, rocev2(HOST_A, HOST_B, SEND_ONLY, 0x11, i, b"\0" * 16)
    elif kind == "pfc":
        yield 0, "leaf-1"
        for i in range(count):
            yield 0, pfc(b"\x02\x53" + struct.pack("!I", i), i % 8)
    elif kind == "cm":
        yield 0, "nic-a"
        for i in range(count):
            for src, dst, mad in cm_exchange(i):
                deth = struct.pack("!II", 0x80010000, 1)  # Q_Key, source QP 1
                yield 0, rocev2(src, dst, UD_SEND_ONLY, 1, i, deth + mad)
    elif kind == "bulk":
        yield 0, "nic-a"
        payload = bytes(range(256)) * 4
        for i in range(count):
            qp, psn = i % 64, i // 64
            yield 0, rocev2(HOST_A, HOST_B, SEND_ONLY, 0x100 + qp, psn, payload)
            if psn % 16 == 15:  # AETH: ACK, unlimited credits; the MSN
                yield 0, rocev2(HOST_B, HOST_A, ACK, 0x200 + qp, psn, struct.pack("!I", 0x1F << 24 | psn + 1))
    else:
        raise ValueError(f"unknown kind {kind!r}, expected one of {', '.join(KINDS)}")


def write(kind, count, path):
    with open(path, "wb") as out:
        out.write(SHB)
        ts = 0
        for iface, item in frames(kind, count):
            if isinstance(item, str):
                out.write(idb(item))
                continue
            ts += 1000  # 1 us apart
            out.write(epb(iface, ts, item))


if __name__ == "__main__":
    if len(sys.argv) != 4 or sys.argv[1] not in KINDS or not sys.argv[2].isdigit():
        sys.exit(f"usage: {sys.argv[0]} {{{'|'.join(KINDS)}}} COUNT OUT.pcapng")
    write(sys.argv[1], int(sys.argv[2]), sys.argv[3])
