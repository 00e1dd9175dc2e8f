#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Generator of the frames in decode_fixtures.h, built with scapy's own
layers (RoCE BTH/GRH with its ICRC, ERSPAN, MAC control) so the fixtures
do not share the decoder's reading of the formats.

  tests/unit/decode_fixtures.py > tests/unit/decode_fixtures.h
  tests/unit/decode_fixtures.py --corpus tests/fuzz/corpus/decode   (the decoder fuzzer's seeds)
"""
import os
import struct
import sys

from scapy.all import ICMP, Dot1AD, Dot1Q, Ether, GRE, ICMPv6EchoRequest, ICMPv6PacketTooBig, IP, IPv6, Raw, UDP
from scapy.contrib.erspan import ERSPAN_II, ERSPAN_III
from scapy.contrib.mac_control import MACControlClassBasedFlowControl, MACControlPause
from scapy.contrib.roce import AETH, BTH, GRH

A, B = "02:00:00:00:00:0a", "02:00:00:00:00:0b"


def reth(va, rkey, dmalen):
    return struct.pack(">QII", va, rkey, dmalen)


def v4(**kw):
    return IP(src="10.0.0.1", dst="10.0.0.2", tos=26 << 2 | 2, ttl=64, id=0x1234, **kw)


def write_only():
    return (v4() / UDP(sport=49152, dport=4791) /
            BTH(opcode=0x0A, dqpn=0x000162, psn=5, ackreq=1) / Raw(reth(0x1000, 0x42, 64) + bytes(range(64))))


def cm_req():
    mad = struct.pack(">BBBBHHQHHI", 1, 0x07, 2, 0x03, 0, 0, 0x1234, 0x0010, 0, 0)
    data = bytearray(232)
    data[0:4] = struct.pack(">I", 0xC0DE0001)
    data[32:35] = (0x000161).to_bytes(3, "big")
    data[44:47] = (0x000ABC).to_bytes(3, "big")
    deth = struct.pack(">II", 0x80010000, 1)
    return v4() / UDP(sport=49153, dport=4791) / BTH(opcode=0x64, dqpn=1, psn=0) / Raw(deth + mad + bytes(data))


def write_first(ip, size):
    """A WRITE FIRST of `size` payload bytes, as a router too small for it received it."""
    return bytes(ip / UDP(sport=49152, dport=4791) / BTH(opcode=0x06, dqpn=0x000162, psn=0x00ABCD) /
                 Raw(reth(0x1000, 0x42, 8192) + bytes(size)))


V4_BIG = write_first(v4(flags="DF"), 4096)
V6_BIG = write_first(IPv6(src="fd00::1", dst="fd00::2", tc=26 << 2 | 2, hlim=63), 4096)
R = "02:53:57:00:00:01"  # the router's MAC


def frag_needed(quote, mtu=1500):
    return Ether(src=R, dst=A) / IP(src="10.0.0.254", dst="10.0.0.1", ttl=255) / ICMP(type=3, code=4, nexthopmtu=mtu) / Raw(quote)


LLDP_DCBX = bytes.fromhex(
    "02070402000000000b"        # chassis ID: MAC
    "04070302000000000b"        # port ID: MAC
    "06020078"                  # TTL 120
    "fe060080c20b0808"          # PFC configuration: PFC on priority 3
    "fe080080c20c0065001a"      # APP: priority 3, selector 5 (DSCP), DSCP 26
    "0000")                     # end

FIXTURES = {
    "kWriteOnlyVlan": Ether(src=A, dst=B) / Dot1Q(prio=3, vlan=100) / write_only(),
    # scapy computes the ICRC over IPv4 only: the IPv6 and GRH fixtures carry 0.
    "kAckIpv6": Ether(src=B, dst=A) / IPv6(src="fd00::2", dst="fd00::1", tc=26 << 2 | 1, hlim=63) /
                UDP(sport=49154, dport=4791) / BTH(opcode=0x11, dqpn=0x000161, psn=7) / AETH(syndrome=0x1F, msn=3),
    "kQinQ": Ether(src=A, dst=B) / Dot1AD(prio=1, vlan=10) / Dot1Q(prio=5, vlan=20) / v4() /
             UDP(sport=49152, dport=4791) / BTH(opcode=0x04, dqpn=0x000162, psn=9) / Raw(bytes(16)),
    "kErspan2": Ether(src="02:00:00:00:00:99", dst="02:00:00:00:00:98") / IP(src="192.168.0.1", dst="192.168.0.2") /
                GRE(seqnum_present=1, proto=0x88BE, sequence_number=7) / ERSPAN_II(session_id=100, index=1) /
                Ether(src=A, dst=B) / Dot1Q(prio=3, vlan=100) / write_only(),
    "kErspan3": Ether(src="02:00:00:00:00:99", dst="02:00:00:00:00:98") / IP(src="192.168.0.1", dst="192.168.0.2") /
                GRE(seqnum_present=1, proto=0x22EB, sequence_number=7) / ERSPAN_III(session_id=200, timestamp=5) /
                Ether(src=A, dst=B) / write_only(),
    "kRocev1": Ether(src=A, dst=B, type=0x8915) /
               GRH(tclass=26 << 2 | 2, flowlabel=0, paylen=32, hoplmt=64, nexthdr=0x1B, sgid=0xfe80 << 112 | 0xa, dgid=0xfe80 << 112 | 0xb) /
               BTH(opcode=0x0C, dqpn=0x000162, psn=11) / Raw(reth(0x2000, 0x43, 4096)),
    "kCmReq": Ether(src=A, dst=B) / cm_req(),
    "kCmpSwap": Ether(src=A, dst=B) / v4() / UDP(sport=49152, dport=4791) / BTH(opcode=0x13, dqpn=0x000162, psn=12) /
                Raw(struct.pack(">QIQQ", 0x3000, 0x44, 0x55, 0x66)),
    "kPfc": Ether(src=B, dst="01:80:c2:00:00:01") /
            MACControlClassBasedFlowControl(c3_enabled=1, c3_pause_time=0xFFFF, c4_enabled=1, c4_pause_time=0x10),
    "kPause": Ether(src=B, dst="01:80:c2:00:00:01") / MACControlPause(pause_time=0x100),
    "kLldp": Ether(src=B, dst="01:80:c2:00:00:0e", type=0x88CC) / Raw(LLDP_DCBX),
    "kDns": Ether(src=A, dst=B) / v4() / UDP(sport=49152, dport=53) / Raw(bytes(24)),
    # RFC 1812 routers quote as much as fits in 576 bytes: here through the RETH.
    "kIcmpFragNeeded": frag_needed(V4_BIG[:20 + 8 + 12 + 16]),
    # RFC 792's minimum: the IP header and 8 bytes, the UDP header; no BTH.
    "kIcmpShortQuote": frag_needed(V4_BIG[:20 + 8], mtu=4000),
    "kIcmpNotRoce": frag_needed(bytes(v4() / UDP(sport=49152, dport=53) / Raw(bytes(2000)))[:28]),
    # RFC 4443: as much of the packet as fits in 1280 bytes.
    "kIcmpv6TooBig": Ether(src=R, dst=A) / IPv6(src="fd00::fe", dst="fd00::1", hlim=255) /
                     ICMPv6PacketTooBig(mtu=1500) / Raw(V6_BIG[:1280 - 48]),
    "kIcmpv6Echo": Ether(src=R, dst=A) / IPv6(src="fd00::fe", dst="fd00::1") / ICMPv6EchoRequest(),
}


def frames():
    for name, pkt in FIXTURES.items():
        raw = bytes(pkt)
        yield name, raw + bytes(max(0, 60 - len(raw)))  # Ethernet padding to the minimum frame


if len(sys.argv) == 3 and sys.argv[1] == "--corpus":
    for name, raw in frames():
        with open(os.path.join(sys.argv[2], name[1:].lower() + ".bin"), "wb") as f:
            f.write(raw)
    sys.exit()
print("// SPDX-License-Identifier: GPL-2.0-or-later")
print("// Frames for the decoder's tests, as captured. Generated by decode_fixtures.py (scapy): do not edit.")
print("#pragma once")
print("#include <string_view>")
print()
print("namespace roceshark::test {")
print()
for name, raw in frames():
    h = raw.hex()
    lines = [h[i:i + 96] for i in range(0, len(h), 96)]
    print(f"inline constexpr std::string_view {name} =")
    print("\n".join(f'    "{l}"' for l in lines) + ";")
print()
print("}  // namespace roceshark::test")
