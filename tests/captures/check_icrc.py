#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Independent ICRC check of a capture.

Every fully captured frame gets its ICRC recomputed without the project's
C++ code: RoCEv2 over IPv4 with scapy.contrib.roce, RoCEv2 over IPv6 and
RoCEv1 with the small implementation below (IBA vol. 1 A16.5 / A17.4.1.5:
mask the variant fields with 1s, CRC-32 over 8 bytes of 1s and the rest,
little-endian on the wire). The frames whose ICRC does not match must be
exactly those the truth file marks icrc-bad, and as many as the scenario's
`expect bad_icrc=N` says (0 by default). The same pass checks the IPv4
header checksum, the UDP checksum of IPv6 (0 for IPv4) and the CNP body.
PFC and LLDP frames carry no ICRC: they must be what the truth file calls
pfc / lldp, with their ethertype, and are otherwise left to check_decode (so are ICMP
too-big frames and best-effort TCP packets).
An ERSPAN copy (the truth file's span_id) is checked inside: its outer IPv4
header checksum and GRE header, then the mirrored frame as any other.
"""

import argparse
import struct
import sys
import zlib

import scn
import tshark_env

import logging
logging.getLogger('scapy.runtime').setLevel(logging.ERROR)
from scapy.contrib.roce import BTH  # noqa: E402
from scapy.layers.inet import IP  # noqa: E402
from scapy.utils import RawPcapNgReader  # noqa: E402


def ones_complement(data):
    if len(data) % 2:
        data += b'\0'
    s = sum(struct.unpack('!%dH' % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s


def icrc_v6_like(l3, with_udp):
    """ICRC of an IPv6 (RoCEv2) or GRH (RoCEv1) packet, l3 up to the ICRC."""
    h = bytearray(l3)
    h[0] |= 0x0F            # traffic class, low nibble of byte 0 ...
    h[1:4] = b'\xff' * 3    # ... rest of traffic class and the flow label
    h[7] = 0xFF             # hop limit
    bth = 40
    if with_udp:
        h[46:48] = b'\xff\xff'  # UDP checksum
        bth += 8
    h[bth + 4] = 0xFF           # BTH FECN, BECN, reserved
    return zlib.crc32(b'\xff' * 8 + bytes(h)) & 0xFFFFFFFF


def icrc_v4_scapy(l3):
    return BTH.compute_icrc(IP(l3)[BTH], None)


def strip_erspan(data, n, errors):
    """The mirrored frame inside an ERSPAN copy: Ethernet / IPv4 / GRE with a
    sequence number / an 8-byte type II or 12-byte type III header."""
    if struct.unpack_from('!H', data, 12)[0] != 0x0800 or data[14 + 9] != 47:
        errors.append('frame %d: an ERSPAN copy without IPv4/GRE outside' % n)
        return None
    ihl = (data[14] & 0x0F) * 4
    if ones_complement(bytes(data[14:14 + ihl])) != 0xFFFF:
        errors.append('frame %d: bad outer IPv4 header checksum' % n)
    gre = 14 + ihl
    flags, proto = struct.unpack_from('!HH', data, gre)
    if flags != 0x1000 or proto not in (0x88BE, 0x22EB):
        errors.append('frame %d: GRE flags 0x%04x protocol 0x%04x' % (n, flags, proto))
        return None
    version = data[gre + 8] >> 4
    if (proto, version) not in ((0x88BE, 1), (0x22EB, 2)):
        errors.append('frame %d: ERSPAN version %d under GRE protocol 0x%04x' % (n, version, proto))
        return None
    return data[gre + 8 + (8 if version == 1 else 12):]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--scenario', required=True)
    ap.add_argument('--pcap', required=True)
    ap.add_argument('--truth', required=True)
    a = ap.parse_args()
    sc = scn.Scenario(a.scenario)
    truth = tshark_env.read_truth(a.truth)
    errors = []
    checked = 0
    erspan = 0
    bad = set()
    frames = list(RawPcapNgReader(a.pcap))
    if len(frames) != len(truth):
        errors.append('%d frames in the capture, %d in the truth file' % (len(frames), len(truth)))
    link_local = {'pfc': 0x8808, 'lldp': 0x88CC}
    for i, (data, meta) in enumerate(frames):
        n = i + 1
        etype = struct.unpack_from('!H', data, 12)[0]
        kind = truth[i]['kind'] if i < len(truth) else None
        if kind in link_local or etype in link_local.values():
            if link_local.get(kind) != etype:
                errors.append('frame %d: ethertype 0x%04x for a %s frame' % (n, etype, kind))
            continue
        if kind in ('icmp', 'besteffort'):
            continue  # an ICMP too-big or a best-effort TCP packet has no ICRC; check_decode reads it
        if len(data) < meta.wirelen:
            continue  # cut by the snaplen: the ICRC is not in the file
        if kind is not None and truth[i].get('span_id', '-') != '-':
            data = strip_erspan(data, n, errors)
            if data is None:
                continue
            erspan += 1
        off = 12
        etype = struct.unpack_from('!H', data, off)[0]
        if etype == 0x8100:
            off += 4
            etype = struct.unpack_from('!H', data, off)[0]
        off += 2
        if etype == 0x0800:
            ihl = (data[off] & 0x0F) * 4
            total = struct.unpack_from('!H', data, off + 2)[0]
            l3 = bytes(data[off:off + total])
            if ones_complement(l3[:ihl]) != 0xFFFF:
                errors.append('frame %d: bad IPv4 header checksum' % n)
            if l3[6] & 0x40 == 0:
                errors.append('frame %d: IPv4 DF not set' % n)
            if struct.unpack_from('!H', l3, ihl + 6)[0] != 0:
                errors.append('frame %d: IPv4 UDP checksum is not 0' % n)
            want = struct.unpack('<I', icrc_v4_scapy(l3))[0]
            bth = ihl + 8
        elif etype == 0x86DD:
            plen = struct.unpack_from('!H', data, off + 4)[0]
            l3 = bytes(data[off:off + 40 + plen])
            udp = l3[40:]
            pseudo = l3[8:40] + struct.pack('!IxxxB', len(udp), 17)
            udp_ok = ones_complement(pseudo + udp) == 0xFFFF
            want = icrc_v6_like(l3[:-4], True)
            bth = 48
        elif etype == 0x8915:
            plen = struct.unpack_from('!H', data, off + 4)[0]
            l3 = bytes(data[off:off + 40 + plen])
            want = icrc_v6_like(l3[:-4], False)
            bth = 40
        else:
            errors.append('frame %d: ethertype 0x%04x is not RoCE' % (n, etype))
            continue
        checked += 1
        got = struct.unpack('<I', l3[-4:])[0]
        if got != want:
            bad.add(n)
        # A flipped payload byte breaks the UDP checksum as well as the ICRC.
        if etype == 0x86DD and not udp_ok and got == want:
            errors.append('frame %d: bad IPv6 UDP checksum' % n)
        if l3[bth] == 0x81:  # CNP: BECN set, 16 reserved zero bytes
            if l3[bth + 4] & 0x40 == 0:
                errors.append('frame %d: CNP without BECN' % n)
            if l3[bth + 12:bth + 28] != b'\0' * 16 or len(l3) != bth + 32:
                errors.append('frame %d: CNP body is not 16 zero bytes' % n)

    marked = {int(r['frame']) for r in truth if 'icrc-bad' in r['note'].split(';')}
    if bad != marked:
        errors.append('ICRC mismatches in frames %s, the truth file marks %s' % (sorted(bad)[:20], sorted(marked)[:20]))
    want_bad = int(sc.expect.get('bad_icrc', 0))
    if len(bad) != want_bad:
        errors.append('%d frames with a bad ICRC, the scenario expects %d' % (len(bad), want_bad))
    if checked == 0:
        errors.append('no frame was fully captured, nothing checked')
    for e in errors[:50]:
        print(e)
    if errors:
        return 1
    print('%s: %d ICRCs recomputed (%d inside ERSPAN), %d bad as intended' % (a.pcap, checked, erspan, len(bad)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
