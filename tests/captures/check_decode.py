#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Wireshark decodes what the generator meant.

Runs plain tshark (its built-in InfiniBand, MAC control and LLDP
dissectors, no roceshark plugin) over a committed capture and checks every
frame twice:
  * against the truth file: point, timestamp, opcode, QPN, PSN, and the
    kind, verdict and note of PFC and LLDP frames;
  * against the scenario itself, read by scn.py: the Ethernet addresses of
    the link each point taps (RoCEv2 is routed: the MACs of that link's two
    nodes, host or switch; RoCEv1, and everything under `bridged`, is
    bridged: the hosts'), VLAN PCP/ID,
    DSCP and ECN (IPv4 ToS, IPv6 traffic class, GRH traffic class) as each
    QP, CNP, `marking` change and `rewrite` makes them, TTL / hop limit per
    point (one less per switch on the way),
    P_Key, AckReq on the last packet of each message, segmentation (opcode
    and payload size of every request PSN), AETH syndromes and MSNs, read
    responses, CNPs (none from an end whose notification point is off)
    and the CM REQ/REP fields, snaplen; PFC frames
    (addresses, class-enable vector, per-class pause times, length) and
    LLDP frames (chassis, port, TTL, DCBX PFC bits and APP entries), each
    one the scenario sends and nothing else;
  * ERSPAN copies (read with the first occurrence of each field; everything
    above with the last, the mirrored frame's): interface (the point's own
    or its collector's), outer MACs and addresses, GRE protocol and a
    sequence number counting each session's copies, ERSPAN version,
    session ID, VLAN and COS of the mirrored frame, the type III timestamp
    (100 ns on the point's clock); timestamps = true_ts_ns + the clock
    offset of the interface (+ the session's latency);
  * matching across points: a packet_id names one transmission, with the
    same headers and IPv4 ID wherever it is seen (a SPAN copy with
    rewrite=on: TTL and MACs of the switch's other side), two transmissions
    of one PSN with different IPv4 IDs (the same one from a
    `resend_ipid=same` NIC, 0 from an `ipid=zero` one), at every recording point
    of its route up to where it is lost (`lost-before=`) and nowhere else,
    lost_after exactly on the copy just before a loss ahead of a point, hop
    latencies = segment latency + queue_ns (more with jitter, pacing or
    pauses), queue_ns = the burst's backlog, or back to back behind the
    previous queued frame, or longer by a `reorder`'s by= on a reordered one;
  * READs re-issued from a missing response (at its PSN, DMA length the
    bytes still missing), the first response to one a FIRST (or ONLY);
  * ATOMICs: the AtomicETH swap/add and compare data the scenario gives,
    and every ATOMIC ACKNOWLEDGE (one at an ATOMIC's PSN only) carrying the
    target's value before that ATOMIC, the ATOMICs run once each in PSN
    order on a target starting at 0;
  * the pauses: no RoCE frame passes a point towards a pausing device in a
    class while a PFC window is in force there; every frame the truth file
    calls paused travels towards the pausing device (whatever its MACs: a
    port MAC, a bridged fabric), names the XOFF that opened a pause there
    (not a refresh, in FIFO order), and leaves after that pause ended, back
    to back with the rest of the backlog, the first one serialization time
    after the end (or after a later pause that stopped the drain);
  * best-effort flows (`besteffort`): each packet a TCP segment to port
    5201 (tshark decodes it so) from the flow's port, routed like RoCE of
    its direction (MACs, TTL, VLAN), in its DSCP, Not-ECT, of its size;
    sent every serialization time at its rate (IPv4 ID and sequence number
    counting), recorded at the point before the flow's and at it with the
    same IPv4 ID and sequence number, later there by the latency +
    queue_ns + its serialization; the queue it shares with RoCE: no wait
    for best-effort under strict priority, RoCE leaving in order when its
    class's share (the full rate after the flow) has served it;
and asserts that tshark reports no errors except the malformed runt PFC
frames, and the PFC expert warnings exactly on the bad PFC frames.
"""

import argparse
import bisect
import logging
import math
import struct
import sys

import scn
import tshark_env

logging.getLogger('scapy.runtime').setLevel(logging.ERROR)
from scapy.utils import RawPcapNgReader  # noqa: E402

FIELDS = [
    'frame.number', 'frame.interface_name', 'frame.time_epoch', 'frame.len', 'frame.cap_len',
    'eth.type', 'vlan.etype', 'vlan.priority', 'vlan.id',
    'ip.dsfield.dscp', 'ip.dsfield.ecn', 'ip.ttl', 'ip.flags.df',
    'ipv6.tclass.dscp', 'ipv6.tclass.ecn', 'ipv6.hlim',
    'udp.dstport', 'udp.length',
    'infiniband.grh.tclass', 'infiniband.grh.nxthdr', 'infiniband.grh.hoplmt', 'infiniband.grh.paylen',
    'infiniband.bth.opcode', 'infiniband.bth.destqp', 'infiniband.bth.psn', 'infiniband.bth.a',
    'infiniband.bth.p_key', 'infiniband.bth.padcnt',
    'icmp.mtu', 'icmpv6.mtu',
    'infiniband.aeth.syndrome', 'infiniband.aeth.msn', 'infiniband.reth.dmalen', 'infiniband.deth.srcqp',
    'infiniband.atomiceth.swapdt', 'infiniband.atomiceth.cmpdt', 'infiniband.atomicacketh.origremdt',
    'infiniband.mad.mgmtclass', 'infiniband.mad.attributeid',
    'infiniband.cm.req.localqpn', 'infiniband.cm.req.startpsn', 'infiniband.cm.req.pppmtu',
    'infiniband.cm.rep.localqpn', 'infiniband.cm.rep.startpsn', 'infiniband.cm.rep.remotecommid',
    'infiniband.cm.rtu.localcommid',
    'eth.dst', 'eth.src', 'ip.id', 'tcp.srcport', 'tcp.dstport', 'tcp.seq_raw', 'tcp.len',
    'macc.opcode', 'macc.cbfc.enbv',
] + ['macc.cbfc.pause_time.c%d' % c for c in range(8)] + [
    'lldp.chassis.id.mac', 'lldp.port.id', 'lldp.time_to_live',
    'lldp.dcbx.ieee.willing', 'lldp.dcbx.ieee.pfc.mbc', 'lldp.dcbx.ieee.pfc.numtcs',
    'lldp.ieee.802_3.max_frame_size', 'lldp.dcbx.ieee.ets.maxtcs',
] + ['lldp.dcbx.feature.pfc.prio%d' % c for c in range(8)] + [
    '%s%d' % (f, c) for f in ('lldp.dcbx.feature.pg.pgid_prio', 'lldp.dcbx.feature.pg.per', 'lldp.dcbx.ieee.ets.tsa')
    for c in range(8)]

# The outer headers of an ERSPAN copy: read with the first occurrence.
OUTER_FIELDS = [
    'frame.number', 'eth.src', 'eth.dst', 'eth.type', 'ip.src', 'ip.dst', 'ip.proto', 'ip.ttl', 'ip.len', 'ip.id',
    'ip.dsfield.dscp', 'gre.flags_and_version', 'gre.proto', 'gre.sequence_number',
    'erspan.version', 'erspan.vlan', 'erspan.cos', 'erspan.encap', 'erspan.bso', 'erspan.truncated', 'erspan.spanid',
    'erspan.index', 'erspan.timestamp', 'erspan.sgt', 'erspan.ft', 'erspan.hw', 'erspan.gra', 'erspan.o',
]
ERSPAN_SRC_MAC = '02:45:52:00:%02x:%02x'
ERSPAN_DST_MAC = '02:45:52:c0:00:01'

# Fields that occur once per APP entry: read with every occurrence.
APP_FIELDS = ['frame.number', 'lldp.dcbx.ieee.app.prio', 'lldp.dcbx.iee.app.sf', 'lldp.dcbx.feature.app.proto']
PFC_DST = '01:80:c2:00:00:01'
LLDP_DST = '01:80:c2:00:00:0e'
SEVERITY_ERROR = 0x00800000
GROUP_MALFORMED = 0x07000000

NAK_SYNDROME = {'nak:seq': 0x60, 'nak:inv-req': 0x61, 'nak:rem-access': 0x62, 'nak:rem-op': 0x63}
CM_ATTR = {'cm-req': 0x10, 'cm-rep': 0x13, 'cm-rtu': 0x14}
# Extension header bytes between the BTH and the payload, by opcode.
EXT_LEN = {op: (16 if op in scn.RETH else 0) + (28 if op in scn.ATOMIC else 0) + (4 if op in scn.IMM else 0) +
           (4 if op in scn.AETH else 0) + (8 if op == scn.ATOMIC_ACK else 0)
           for op in range(0x100)}
EXT_LEN[0x64] = 8  # DETH


def num(v):
    return int(v, 0) if v else None


def serialization_ns(length, gbps):
    """Link time of a frame: its bytes plus preamble, FCS and gap, rounded up."""
    mbps = round(gbps * 1000)
    return -(-(length + 24) * 8 * 1000 // mbps)


class Checker:
    def __init__(self, sc, rows, truth, apps, raw, outer):
        self.sc = sc
        self.outer = outer  # the first occurrence of the outer (ERSPAN) fields, per frame
        self.erspan_seq = {}  # point -> the GRE sequence number its next copy carries
        self.ip_id = {}       # frame number -> the mirrored packet's IPv4 ID
        self.raw = raw    # the captured bytes of every frame
        self.rows = rows
        self.truth = truth
        self.apps = apps  # frame number -> APP entry fields, every occurrence
        self.errors = []
        self.seen = {}    # (qp name, side) -> request PSN offsets seen
        self.owner = {}   # (host, qpn) -> Qp currently using it
        self.cm_comm = {}  # active side's comm ID (echoed by the REP) -> Qp
        for q in sc.qps:
            for s in (0, 1):
                self.owner.setdefault((q.hosts[s], q.qpns[s]), q)
        # Every PFC and LLDP frame the scenario sends: (point, ts_ns, src MAC) -> directive.
        self.link_local = {}
        for d in sc.pfcs + sc.lldps:
            for at in d['times']:
                self.link_local[(d['point'], sc.epoch_ns + at, d['mac'])] = d
        self.link_local_seen = set()
        self.marking_seen = {}  # (qp name, side, point) -> indices of the markings seen
        self.marking_last = {}  # (qp name, side, point, kind) -> last marking index seen
        self.roce = []          # (truth row, frame length, priority, next node) for the pause checks
        self.be = []            # (truth row, flow, IPv4 ID, TCP sequence number) of the best-effort packets
        self.pfc_rows = []      # (truth row, directive)

    def err(self, frame, msg):
        self.errors.append('frame %s: %s' % (frame, msg))

    def expect(self, frame, what, got, want):
        if got != want:
            self.err(frame, '%s is %r, expected %r' % (what, got, want))

    def run(self):
        if len(self.rows) != len(self.truth):
            self.errors.append('tshark reads %d frames, the truth file has %d' % (len(self.rows), len(self.truth)))
            return
        last_ts = 0
        for t, r in zip(self.rows, self.truth):
            ts = int(t['frame.time_epoch'].replace('.', ''))
            if ts < last_ts:
                self.err(r['frame'], 'timestamps go backwards')
            last_ts = ts
            if r['kind'] in ('pfc', 'lldp'):
                self.link_local_frame(t, r, ts)
            elif r['kind'] == 'icmp':
                self.icmp_frame(t, r, ts)
            elif r['kind'] == 'besteffort':
                self.besteffort_frame(t, r)
            else:
                self.frame(t, r, ts)
        self.coverage()
        self.marking_coverage()
        self.pauses()
        self.matching()
        self.queueing()
        for flow in self.sc.besteffort:
            self.besteffort_packets(flow)
            self.besteffort_queue(flow)

    # -- one frame ---------------------------------------------------------

    def frame(self, t, r, ts):
        n = r['frame']
        sc = self.sc
        point, kind, note = r['point'], r['kind'], r['note'].split(';')
        src, dst = r['dir'].split('->')
        self.expect(n, 'frame number', t['frame.number'], n)
        self.interface(n, t, r, ts)
        self.erspan_frame(n, t, r)
        opcode = num(t['infiniband.bth.opcode'])
        destqp = num(t['infiniband.bth.destqp'])
        psn = num(t['infiniband.bth.psn'])
        self.expect(n, 'BTH opcode', opcode, int(r['opcode'], 16))
        self.expect(n, 'BTH destination QP', destqp, int(r['qpn'], 16))
        self.expect(n, 'BTH PSN', psn, int(r['psn']))
        if r.get('paused') not in ('0', '1'):
            self.err(n, 'paused column is %r for a RoCE frame' % r.get('paused'))
        if (r.get('paused') == '1') != (r.get('pause_frame', '-') != '-'):
            self.err(n, 'paused %s with pause_frame %s' % (r.get('paused'), r.get('pause_frame')))
        if not sc.records(point, src, dst):
            self.err(n, 'point %s should not record %s' % (point, r['dir']))
        self.expect(n, 'captured length', int(t['frame.cap_len']), min(int(t['frame.len']), sc.snaplen_of(point)))
        if ('truncated' in note) != (int(t['frame.cap_len']) < int(t['frame.len'])):
            self.err(n, 'note "truncated" does not match the captured length')

        if kind == 'cm':
            q, side = self.cm_qp(n, t, r, src, dst)
        else:
            owners = [(q, s) for q, s in sc.find_qp(src, dst, destqp) if self.owner.get((dst, destqp)) is q]
            if not owners:
                return self.err(n, 'no QP of the scenario sends %s to QPN 0x%06x' % (r['dir'], destqp))
            q, side = owners[0]
        if q is None:
            return
        other_side = r['cause'] == 'mirror' and point in sc.mirror_rewrite
        prio = self.headers(n, t, q, side, kind, note, point, src, dst, int(r['true_ts_ns']), other_side)
        length = int(t['frame.len']) - sc.erspan_overhead(point)  # of the frame on the tapped link
        self.roce.append((r, length, prio, sc.next_node(src, dst, point)))
        if q.ver == 'v2':
            self.ip_id[n] = t['ip.id']
        self.expect(n, 'P_Key', num(t['infiniband.bth.p_key']), q.pkey)

        ackreq = num(t['infiniband.bth.a'])
        if kind == 'req':
            if opcode in scn.LAST | scn.ONLY:
                self.expect(n, 'AckReq on the last packet of a message', ackreq, 1)
            elif q.ackreq_every == 0:
                self.expect(n, 'AckReq on a FIRST/MIDDLE packet', ackreq, 0)
            self.request(n, t, q, side, psn, opcode, note)
        else:
            self.expect(n, 'AckReq on a non-request', ackreq, 0)
        if kind in ('ack', 'nak'):
            self.reply(n, t, r, q, 1 - side, psn)
        elif kind == 'readresp':
            self.read_response(n, t, q, 1 - side, psn, opcode)
        elif kind == 'cnp':
            self.expect(n, 'CNP opcode', opcode, 0x81)
            self.expect(n, 'CNP PSN', psn, 0)
            if src in q.np_off:
                self.err(n, 'a CNP from %s, whose notification point is off on qp %s' % (src, q.name))

    # -- where and when: interfaces, clocks, ERSPAN ---------------------------

    def interface(self, n, t, r, ts):
        """The interface that records the point, and its clock."""
        sc, point = self.sc, r['point']
        iface = sc.interface_of(point)
        self.expect(n, 'interface name', t['frame.interface_name'], iface)
        self.expect(n, 'truth interface', r['interface'], iface)
        self.expect(n, 'timestamp (ns)', ts, int(r['ts_ns']))
        self.expect(n, 'timestamp - true_ts_ns (clock offset + mirror latency)', ts - int(r['true_ts_ns']),
                    sc.shift_of(point))

    def erspan_frame(self, n, t, r):
        """The outer headers of an ERSPAN copy, or none at all."""
        sc, point = self.sc, r['point']
        o = self.outer[int(n) - 1]
        e = sc.erspan.get(point)
        if e is None:
            if o['gre.proto'] or o['erspan.version']:
                self.err(n, 'GRE/ERSPAN headers at %s, which has no erspan session' % point)
            return self.expect(n, 'truth span_id', r['span_id'], '-')
        self.expect(n, 'truth span_id', r['span_id'], str(e['session']))
        session = e['session']
        self.expect(n, 'outer Ethernet source', o['eth.src'].lower(), ERSPAN_SRC_MAC % (session >> 8, session & 0xFF))
        self.expect(n, 'outer Ethernet destination', o['eth.dst'].lower(), ERSPAN_DST_MAC)
        self.expect(n, 'outer ethertype', num(o['eth.type']), 0x0800)
        self.expect(n, 'outer IPv4 source', o['ip.src'], e['src'])
        self.expect(n, 'outer IPv4 destination', o['ip.dst'], e['dst'])
        self.expect(n, 'outer IPv4 protocol', num(o['ip.proto']), 47)
        self.expect(n, 'outer IPv4 TTL', num(o['ip.ttl']), 64)
        self.expect(n, 'outer IPv4 DSCP', num(o['ip.dsfield.dscp']), 0)
        self.expect(n, 'outer IPv4 length', num(o['ip.len']), int(t['frame.len']) - 14)
        self.expect(n, 'GRE flags (sequence number present)', num(o['gre.flags_and_version']), 0x1000)
        self.expect(n, 'GRE protocol', num(o['gre.proto']), 0x88BE if e['type'] == 2 else 0x22EB)
        seq = self.erspan_seq.get(point, 0)
        self.expect(n, 'GRE sequence number of session %d' % session, num(o['gre.sequence_number']), seq)
        self.expect(n, 'outer IPv4 ID', num(o['ip.id']), seq & 0xFFFF)
        self.erspan_seq[point] = seq + 1
        self.expect(n, 'ERSPAN version', num(o['erspan.version']), 1 if e['type'] == 2 else 2)
        self.expect(n, 'ERSPAN session ID', num(o['erspan.spanid']), session)
        tagged = t['vlan.id'] != ''
        self.expect(n, 'ERSPAN VLAN', num(o['erspan.vlan']), num(t['vlan.id']) if tagged else 0)
        self.expect(n, 'ERSPAN COS', num(o['erspan.cos']), num(t['vlan.priority']) if tagged else 0)
        self.expect(n, 'ERSPAN truncated bit', num(o['erspan.truncated']), 0)
        if e['type'] == 2:
            self.expect(n, 'ERSPAN II encap (3: tag kept)', num(o['erspan.encap']), 3 if tagged else 0)
            self.expect(n, 'ERSPAN II index', num(o['erspan.index']), 0)
        else:
            stamp = (int(r['true_ts_ns']) + sc.clock.get(point, 0)) // 100 & 0xFFFFFFFF
            self.expect(n, 'ERSPAN III timestamp (100 ns, the point\'s clock)', num(o['erspan.timestamp']), stamp)
            self.expect(n, 'ERSPAN III granularity', num(o['erspan.gra']), 1)
            for field in ('erspan.bso', 'erspan.sgt', 'erspan.ft', 'erspan.hw', 'erspan.o'):
                self.expect(n, field, num(o[field]), 0)

    # -- marking -------------------------------------------------------------

    def markings(self, q, side, kind):
        """[(from ns or None, {'pcp', 'dscp', 'ecn'})]: what the sender uses from when on."""
        sc = self.sc
        if kind == 'cnp':
            return [(None, {'pcp': sc.cnp_pcp if q.cnp_pcp is None else q.cnp_pcp,
                            'dscp': sc.cnp_dscp if q.cnp_dscp is None else q.cnp_dscp, 'ecn': sc.cnp_ecn})]
        m = {'pcp': q.pcp, 'dscp': q.dscp, 'ecn': q.ecn}
        out = [(None, dict(m))]
        for at, change in q.markings[side]:
            m.update(change)
            out.append((at, dict(m)))
        return out

    def rewrites_on(self, src, dst, point, ts):
        """The rewrites a frame passing `point` at true time `ts` met at the points up to it, in order.
        It passed an earlier point the latency between the two before (exact without queueing)."""
        sc = self.sc
        route = sc.route(src, dst)
        here = sc.latency_to(src, dst, point)
        for p in route[:route.index(point) + 1]:
            passed = ts - sc.epoch_ns - (here - sc.latency_to(src, dst, p))
            for rp, what, direction, at in sc.rewrites:
                if rp == p and direction in (None, (src, dst)) and passed >= at:
                    yield what

    def rewritten(self, m, q, src, dst, point, ts):
        """The marking after the rewrites at the points up to and including this one."""
        m = dict(m)
        for what in self.rewrites_on(src, dst, point, ts):
            if 'dscp' in what and q.ver != 'v1' and what['dscp'][0] in (None, m['dscp']):
                m['dscp'] = what['dscp'][1]
            if 'pcp' in what and q.vlan is not None and what['pcp'][0] in (None, m['pcp']):
                m['pcp'] = what['pcp'][1]
        return m

    def vlan_at(self, q, src, dst, point, ts):
        """The VLAN id the frame carries at this point (None: untagged), after the rewrites up to it."""
        vid = q.vlan
        for what in self.rewrites_on(src, dst, point, ts):
            if vid is None or 'vlan' not in what:
                continue
            if what['vlan'] == 'strip':
                vid = None
            elif what['vlan'][0] in (None, vid):
                vid = what['vlan'][1]
        return vid

    def link_view(self, src, dst, point, bridged, other_side):
        """(source MAC, destination MAC, switches crossed) of a frame from src to dst at `point`:
        the link's ends when routed, the hosts' when bridged (RoCEv1, a `bridged` fabric).
        `other_side`: a SPAN copy with rewrite=on, the switch's other side of the link."""
        sc = self.sc
        if bridged or sc.bridged:
            want_src, want_dst = sc.mac_of(src), sc.mac_of(dst)
        else:
            up, down = sc.link_ends(src, dst, point)
            want_src, want_dst = sc.mac_of(up), sc.mac_of(down)
        hop = sc.switches_before(src, dst, point)
        if other_side and not bridged and not sc.bridged:  # a bridge forwards it unchanged
            nodes = sc.nodes(src, dst)
            if down in sc.switches:  # into the switch: copied as it leaves it
                want_src, want_dst = sc.mac_of(down), sc.mac_of(nodes[nodes.index(down) + 1])
                hop += 1
            else:                    # out of the switch: copied as it came in
                want_src, want_dst = sc.mac_of(nodes[nodes.index(up) - 1]), sc.mac_of(up)
                hop -= 1
        return want_src, want_dst, hop

    def headers(self, n, t, q, side, kind, note, point, src, dst, ts, other_side=False):
        """Checks the Ethernet and IP/GRH headers; returns the frame's priority.
        `other_side`: a SPAN copy with rewrite=on, the switch's other side of the link."""
        sc = self.sc
        vid = self.vlan_at(q, src, dst, point, ts)
        if vid is not None:
            self.expect(n, 'VLAN ID', num(t['vlan.id']), vid)
            etype = num(t['vlan.etype'])
        else:
            self.expect(n, 'VLAN tag', t['vlan.id'], '')
            etype = num(t['eth.type'])
        want_src, want_dst, hop = self.link_view(src, dst, point, q.ver == 'v1', other_side)
        self.expect(n, 'Ethernet source', t['eth.src'].lower(), want_src)
        self.expect(n, 'Ethernet destination', t['eth.dst'].lower(), want_dst)
        if q.ver == 'v2':
            self.expect(n, 'ethertype', etype, 0x0800)
            self.expect(n, 'UDP destination port', num(t['udp.dstport']), 4791)
            self.expect(n, 'IPv4 DF', num(t['ip.flags.df']), 1)
            self.expect(n, 'IPv4 TTL', num(t['ip.ttl']), 64 - hop)
            dscp, ecn = num(t['ip.dsfield.dscp']), num(t['ip.dsfield.ecn'])
        elif q.ver == 'v2-ipv6':
            self.expect(n, 'ethertype', etype, 0x86DD)
            self.expect(n, 'UDP destination port', num(t['udp.dstport']), 4791)
            self.expect(n, 'IPv6 hop limit', num(t['ipv6.hlim']), 64 - hop)
            dscp, ecn = num(t['ipv6.tclass.dscp']), num(t['ipv6.tclass.ecn'])
        else:
            self.expect(n, 'ethertype', etype, 0x8915)
            self.expect(n, 'GRH next header', num(t['infiniband.grh.nxthdr']), 0x1B)
            self.expect(n, 'GRH hop limit (bridged, never decremented)', num(t['infiniband.grh.hoplmt']), 64)
            if t['ip.dsfield.dscp'] or t['udp.dstport']:
                self.err(n, 'RoCEv1 frame with an IP/UDP header')
            tclass = num(t['infiniband.grh.tclass'])
            dscp, ecn = (tclass >> 2, tclass & 3) if tclass is not None else (None, None)
        pcp = num(t['vlan.priority']) if vid is not None else None
        got = {'pcp': pcp, 'dscp': dscp, 'ecn': ecn}

        # The marking in force when the sender built the frame. Without jitter,
        # pauses, paced links or queue bursts that is when it began to
        # serialise it: the frame passes here one host-link serialization
        # plus the latency later. Otherwise any marking that began before the
        # frame passed here will do (the newest that matches). `ts` is the
        # true time here, whatever the point's clock says.
        rel = ts - sc.epoch_ns
        upstream = sc.route(src, dst)[:sc.route(src, dst).index(point) + 1]
        exact = (not sc.jitter and not sc.pfcs and not sc.queues and not sc.besteffort and
                 not any(p in sc.speed for p in upstream))
        if exact and kind != 'cm':
            length = int(t['frame.len']) - sc.erspan_overhead(point)
            rel -= sc.latency_to(src, dst, point) + serialization_ns(length, sc.link_gbps)
        cands = [(j, m) for j, (at, m) in enumerate(self.markings(q, side, kind)) if at is None or at <= rel]
        if exact and kind != 'cm':
            cands = cands[-1:]
        chosen = None
        for j, m in reversed(cands):
            want = self.rewritten(m, q, src, dst, point, ts)
            want['ecn'] = 3 if 'ce' in note else want['ecn']
            if vid is None:
                want['pcp'] = None
            if all(got[k] == want[k] for k in got):
                chosen = j
                break
        if chosen is None:
            want = self.rewritten(cands[-1][1], q, src, dst, point, ts)
            want['ecn'] = 3 if 'ce' in note else want['ecn']
            name = {'v2': 'IPv4', 'v2-ipv6': 'IPv6 traffic class', 'v1': 'GRH traffic class'}[q.ver]
            if vid is not None:
                self.expect(n, 'VLAN PCP', pcp, want['pcp'])
            self.expect(n, name + ' DSCP', dscp, want['dscp'])
            self.expect(n, name + ' ECN', ecn, want['ecn'])
        elif kind != 'cnp':
            self.marking_seen.setdefault((q.name, side, point), set()).add(chosen)
            key = (q.name, side, point, kind)
            # Without pauses a point sees one QP's packets in sending order, so
            # the markings it sees never go back to an older one.
            if not sc.pfcs and chosen < self.marking_last.get(key, 0):
                self.err(n, '%s marking goes back to an older one' % q.name)
            self.marking_last[key] = max(chosen, self.marking_last.get(key, 0))
        return pcp if pcp is not None else (dscp or 0) >> 3

    def marking_coverage(self):
        """Every marking change shows at every point that records its sender."""
        sc = self.sc
        for q in sc.qps:
            for s in (0, 1):
                if not q.markings[s]:
                    continue
                src, dst = q.hosts[s], q.hosts[1 - s]
                for p in sc.route(src, dst):
                    if not sc.records(p, src, dst):
                        continue
                    seen = self.marking_seen.get((q.name, s, p), set())
                    missing = sorted(set(range(len(q.markings[s]) + 1)) - seen)
                    if missing:
                        self.errors.append('%s from %s: markings %s never seen at %s' % (q.name, src, missing, p))

    # -- PFC and LLDP ----------------------------------------------------------

    def link_local_frame(self, t, r, ts):
        n, point, note = r['frame'], r['point'], r['note'].split(';')
        self.expect(n, 'frame number', t['frame.number'], n)
        self.interface(n, t, r, ts)
        ts = int(r['true_ts_ns'])  # the directive's time is true time
        src = t['eth.src'].lower()
        d = self.link_local.get((point, ts, src))
        if d is None or ('quanta' in d) != (r['kind'] == 'pfc'):
            return self.err(n, '%s frame from %s at %s that no directive sends' % (r['kind'], src, point))
        if (point, ts, src) in self.link_local_seen:
            return self.err(n, 'a second %s frame from %s at the same time' % (r['kind'], src))
        self.link_local_seen.add((point, ts, src))
        for col in ('qpn', 'psn', 'opcode', 'cause', 'request_frame', 'paused', 'pause_frame', 'packet_id',
                    'lost_after', 'queue_ns', 'span_id'):
            self.expect(n, 'truth column ' + col, r.get(col), '-')
        self.expect(n, 'truth dir', r['dir'], d['name'] + '->-')
        self.expect(n, 'VLAN tag', t['vlan.id'], '')
        if r['kind'] == 'pfc':
            self.pfc_frame(n, t, r, d, note)
        else:
            self.lldp_frame(n, t, r, d, note)

    # -- ICMP too-big from a router whose MTU dropped a RoCE packet ------------

    def icmp_frame(self, t, r, ts):
        """Its bytes: IPv4 ICMP 3/4 or ICMPv6 2/0 with the `mtu` directive's MTU and
        a valid checksum, from the router to the sender, quoting the packet the
        truth row names (UDP 4791, its QPN and PSN), which this point saw lost."""
        n, note = r['frame'], dict(x.split('=', 1) for x in r['note'].split(';') if '=' in x)
        self.expect(n, 'frame number', t['frame.number'], n)
        self.interface(n, t, r, ts)
        self.expect(n, 'truth verdict', r['verdict'], 'icmp-too-big')
        if r.get('span_id', '-') != '-':
            return  # an ERSPAN copy: its raw bytes are the collector's
        raw = self.raw[int(n) - 1]
        sender = r['dir'].split('->')[1]
        etype = struct.unpack_from('!H', raw, 12)[0]
        if etype == 0x0800:
            ihl = (raw[14] & 0x0F) * 4
            total = struct.unpack_from('!H', raw, 16)[0]
            icmp = raw[14 + ihl:14 + total]
            self.expect(n, 'IP protocol', raw[14 + 9], 1)
            self.expect(n, 'ICMP type/code', (icmp[0], icmp[1]), (3, 4))
            self.expect(n, 'next-hop MTU', struct.unpack_from('!H', icmp, 6)[0], int(note['mtu']))
            self.expect(n, 'ICMP checksum', ones(icmp), 0xFFFF)
            self.expect(n, 'ICMP within 576 bytes', total <= 576, True)
            self.expect(n, 'tshark icmp.mtu', num(t['icmp.mtu']), int(note['mtu']))
            quote = icmp[8:]
            self.expect(n, 'quoted IP destination UDP port', struct.unpack_from('!H', quote, (quote[0] & 0x0F) * 4 + 2)[0], 4791)
            bth = quote[(quote[0] & 0x0F) * 4 + 8:]
        elif etype == 0x86DD:
            plen = struct.unpack_from('!H', raw, 18)[0]
            icmp = raw[54:54 + plen]
            self.expect(n, 'IPv6 next header', raw[20], 58)
            self.expect(n, 'ICMPv6 type/code', (icmp[0], icmp[1]), (2, 0))
            self.expect(n, 'MTU', struct.unpack_from('!I', icmp, 4)[0], int(note['mtu']))
            pseudo = raw[22:54] + struct.pack('!I', plen) + b'\0\0\0\x3a'
            self.expect(n, 'ICMPv6 checksum', ones(pseudo + icmp), 0xFFFF)
            self.expect(n, 'ICMPv6 within 1280 bytes', 40 + plen <= 1280, True)
            self.expect(n, 'tshark icmpv6.mtu', num(t['icmpv6.mtu']), int(note['mtu']))
            quote = icmp[8:]
            self.expect(n, 'quoted next header', quote[6], 17)
            self.expect(n, 'quoted UDP destination port', struct.unpack_from('!H', quote, 42)[0], 4791)
            bth = quote[48:]
        else:
            return self.err(n, 'ICMP frame with ethertype 0x%04x' % etype)
        self.expect(n, 'quoted BTH (opcode, QPN, PSN)',
                    (bth[0], int.from_bytes(bth[5:8], 'big'), int.from_bytes(bth[9:12], 'big')),
                    (int(r['opcode'], 16), int(r['qpn'], 16), int(r['psn'])))
        lost = [x for x in self.truth[:int(n) - 1] if x['point'] == r['point'] and x['kind'] == 'req' and
                x['qpn'] == r['qpn'] and x['psn'] == r['psn'] and 'lost-before' in x['note']]
        if not lost:
            self.err(n, 'ICMP quotes PSN %s, which %s never saw lost' % (r['psn'], r['point']))
        if not lost:
            return
        self.expect(n, 'truth dir (to the sender)', sender, lost[-1]['dir'].split('->')[0])
        if not self.sc.bridged:  # routed: back over the link the lost packet crossed here, the other way
            was = self.raw[int(lost[-1]['frame']) - 1]
            self.expect(n, 'MACs', (raw[0:6], raw[6:12]), (was[6:12], was[0:6]))

    def pfc_frame(self, n, t, r, d, note):
        self.pfc_rows.append((r, d))
        self.expect(n, 'PFC destination', t['eth.dst'].lower(), d['dst'])
        self.expect(n, 'ethertype', num(t['eth.type']), 0x8808)
        self.expect(n, 'frame length', int(t['frame.len']), d['truncate'] or 60)
        self.expect(n, 'MAC control opcode', num(t['macc.opcode']), 0x0101)
        self.expect(n, 'class-enable vector', num(t['macc.cbfc.enbv']), d['reserved'] << 8 | d['enable'])
        times = [d['quanta'][c] if d['enable'] >> c & 1 else 0 for c in range(8)]
        if d['truncate'] is None:
            for c in range(8):
                self.expect(n, 'pause time of class %d' % c, num(t['macc.cbfc.pause_time.c%d' % c]), times[c])
        else:
            # Wireshark 4.0 gives up on the whole block of pause times of a
            # runt, so compare its bytes with the start of the full frame.
            full = bytes.fromhex(d['dst'].replace(':', '') + d['mac'].replace(':', ''))
            full += struct.pack('!HHH8H', 0x8808, 0x0101, d['reserved'] << 8 | d['enable'], *times)
            self.expect(n, 'runt PFC bytes', self.raw[int(n) - 1], full[:d['truncate']])
        enabled = [c for c in range(8) if d['enable'] >> c & 1]
        self.expect(n, 'truth verdict', r['verdict'], 'pfc-xoff' if any(d['quanta'][c] for c in enabled) else 'pfc-xon')
        want = ['%d:%d' % (c, d['quanta'][c]) for c in enabled]
        if d['storm']:
            want.append('storm')
        for flag, on in (('reserved-bits', d['reserved']), ('short', d['truncate'] is not None),
                         ('bad-dst', d['dst'] != PFC_DST)):
            if on:
                want.append(flag)
        self.expect(n, 'truth note', note, want)

    def lldp_frame(self, n, t, r, d, note):
        self.expect(n, 'LLDP destination', t['eth.dst'].lower(), LLDP_DST)
        self.expect(n, 'ethertype', num(t['eth.type']), 0x88CC)
        self.expect(n, 'chassis ID', t['lldp.chassis.id.mac'].lower(), d['mac'])
        self.expect(n, 'port ID', t['lldp.port.id'], d['port'])
        self.expect(n, 'TTL', num(t['lldp.time_to_live']), d['ttl'])
        self.expect(n, 'truth verdict', r['verdict'], 'lldp')
        if d['pfc'] is None:
            self.expect(n, 'PFC Configuration TLV', t['lldp.dcbx.ieee.pfc.numtcs'], '')
        else:
            self.expect(n, 'PFC willing', num(t['lldp.dcbx.ieee.willing']), d['willing'])
            self.expect(n, 'PFC MBC', num(t['lldp.dcbx.ieee.pfc.mbc']), d['mbc'])
            self.expect(n, 'PFC capability', num(t['lldp.dcbx.ieee.pfc.numtcs']), d['cap'])
            bits = sum(num(t['lldp.dcbx.feature.pfc.prio%d' % c]) << c for c in range(8))
            self.expect(n, 'PFC enable bitmap', bits, d['pfc'])
        self.expect(n, 'maximum frame size TLV', num(t['lldp.ieee.802_3.max_frame_size']), d['maxframe'])
        if d['ets'] is None:
            self.expect(n, 'ETS Configuration TLV', t['lldp.dcbx.ieee.ets.maxtcs'], '')
        else:
            tc, bw, strict = d['ets']
            # Wireshark reads the IEEE ETS tables into its CEE PG fields.
            self.expect(n, 'ETS priority -> TC', [num(t['lldp.dcbx.feature.pg.pgid_prio%d' % p]) for p in range(8)], tc)
            self.expect(n, 'ETS TC bandwidth', [num(t['lldp.dcbx.feature.pg.per%d' % c]) for c in range(8)], bw)
            self.expect(n, 'ETS TC algorithm', [num(t['lldp.dcbx.ieee.ets.tsa%d' % c]) for c in range(8)],
                        [0 if c in strict else 2 for c in range(8)])
        a = self.apps.get(r['frame'], {})
        split = lambda f: [int(x, 0) for x in a.get(f, '').split(',') if x]  # noqa: E731
        self.expect(n, 'APP priorities', split('lldp.dcbx.ieee.app.prio'), [p for _, p in d['app']])
        self.expect(n, 'APP selectors (5: DSCP)', split('lldp.dcbx.iee.app.sf'), [5] * len(d['app']))
        self.expect(n, 'APP protocol IDs (DSCPs)', split('lldp.dcbx.feature.app.proto'), [x for x, _ in d['app']])
        want = []
        if d['pfc'] is not None:
            want.append('pfc=' + (','.join(str(c) for c in range(8) if d['pfc'] >> c & 1) or 'none'))
        if d['app']:
            want.append('app=' + ','.join('%d:%d' % e for e in d['app']))
        if d['maxframe']:
            want.append('maxframe=%d' % d['maxframe'])
        if d['ets']:
            tc, bw, strict = d['ets']
            want += ['ets=' + ','.join(map(str, tc)), 'etsbw=' + ','.join(map(str, bw))]
            if strict:
                want.append('strict=' + ','.join(map(str, sorted(strict))))
        self.expect(n, 'truth note', note, want)

    def pauses(self):
        """RoCE frames against the PFC windows of their point, side and class."""
        sc = self.sc
        missing = set(self.link_local) - self.link_local_seen
        for point, ts, mac in sorted(missing)[:10]:
            self.errors.append('no frame from %s at %s, %d ns' % (mac, point, ts))
        # Pause intervals per (point, side, class): a refresh replaces the
        # window, quanta 0 ends it. Runts and frames to another address pause nothing.
        events = {}
        for r, d in self.pfc_rows:
            if d['truncate'] is None and d['dst'] == PFC_DST:
                for c in range(8):
                    if d['enable'] >> c & 1:
                        events.setdefault((r['point'], d['name'], c), []).append(
                            (int(r['ts_ns']), d['quanta'][c], r['frame'], d['mac']))
        intervals = {}  # key -> [(start, end, frame, opens a pause)]
        for key, ev in events.items():
            gbps = sc.gbps_of(key[0])
            out = intervals.setdefault(key, [])
            xon = True  # nothing in force yet
            for i, (ts, q, f, _) in enumerate(ev):
                if q:
                    end = ts + scn.quanta_ns(q, gbps)
                    # A refresh up to the end of the window keeps the pause; one after it, or after an XON, opens one.
                    opens = xon or out[-1][1] < ts
                    if i + 1 < len(ev):
                        end = min(end, ev[i + 1][0])
                    out.append((ts, end, f, opens))
                xon = not q

        def chain_end(key, frame):
            """When the pause that `frame` opened was over; None if it opened none."""
            iv = intervals.get(key, [])
            i = next((k for k, x in enumerate(iv) if x[2] == frame and x[3]), None)
            if i is None:
                return None
            end = iv[i][1]
            while i + 1 < len(iv) and not iv[i + 1][3]:
                i += 1
                end = iv[i][1]
            return end

        backlog = {}  # (key, pause_frame) -> [(ts, serialization, frame)] of what waited behind it
        last_pause = {}  # key -> pause_frame of the last frame held there
        for r, length, prio, towards in self.roce:
            n, ts, point = r['frame'], int(r['ts_ns']), r['point']
            key = (point, towards, prio)
            for start, end, f, _ in intervals.get(key, []):
                if start < ts < end:
                    self.err(n, 'passes %s towards %s in priority %d while frame %s pauses it' % (point, towards, prio, f))
            if r.get('paused') != '1':
                continue
            end = chain_end(key, r['pause_frame'])
            if end is None:
                self.err(n, 'paused by frame %s, which opens no pause of priority %d towards %s at %s' %
                         (r['pause_frame'], prio, towards, point))
                continue
            s = serialization_ns(length, sc.gbps_of(point))
            if ts < end + s:
                self.err(n, 'held until %d ns but recorded at %d ns' % (end + s, ts))
            # FIFO per class: never an older pause than the frame held before it.
            if int(r['pause_frame']) < last_pause.get(key, 0):
                self.err(n, 'pause_frame %s is older than that of the frame held before it' % r['pause_frame'])
            last_pause[key] = int(r['pause_frame'])
            backlog.setdefault((key, r['pause_frame']), []).append((ts, s, n))

        def resumed(key, after, before):
            """The end of the last pause that began while the backlog drained, if any."""
            ends = [chain_end(key, f) for start, _, f, opens in intervals.get(key, []) if opens and after <= start < before]
            return max(ends) if ends else None

        # What waited in one busy period leaves back to back at the link's
        # rate from the end of the pause that began it (or of one that
        # stopped the drain again); on a paced link other classes may take turns.
        busy = {}  # (point, towards) -> timestamps of what passed there
        for r, _, _, towards in self.roce:
            busy.setdefault((r['point'], towards), []).append(int(r['ts_ns']))
        for (key, pf), frames in backlog.items():
            prev = chain_end(key, pf)
            for ts, s, n in frames:
                again = resumed(key, prev, ts)
                if again is not None:
                    prev = max(prev, again)
                paced = key[0] in sc.speed
                others = any(prev < x < ts for x in busy[(key[0], key[1])])
                if ts != prev + s and not (paced and others and ts > prev + s):
                    self.err(n, 'held in priority %d at %s: leaves at %d ns, expected %d ns (back to back at %g Gb/s)' %
                             (key[2], key[0], ts, prev + s, sc.gbps_of(key[0])))
                prev = ts

    def ib_payload(self, t, q, opcode):
        """Payload bytes after the extension headers, from the lengths Wireshark reports."""
        if q.ver == 'v1':
            total = num(t['infiniband.grh.paylen'])
        else:
            total = num(t['udp.length']) - 8
        pad = num(t['infiniband.bth.padcnt']) or 0
        return total - 12 - EXT_LEN[opcode] - 4 - pad, pad

    def request(self, n, t, q, side, psn, opcode, note):
        if q.psn is None:
            return
        off = (psn - q.psn[side]) & scn.PSN_MASK
        reqs, _ = scn.expected_requests(q, side)
        if off not in reqs and opcode == 0x0C and q.read_faults:
            return self.reissued_read(n, t, q, side, off)
        if off not in reqs:
            return self.err(n, 'request PSN offset %d is not a request PSN of %s' % (off, q.name))
        want_op, want_pay, m = reqs[off]
        self.seen.setdefault((q.name, side), set()).add(off)
        self.expect(n, 'opcode for PSN offset %d' % off, opcode, want_op)
        pay, pad = self.ib_payload(t, q, opcode)
        self.expect(n, 'payload bytes', pay, want_pay)
        self.expect(n, 'pad count', pad, (4 - want_pay % 4) % 4)
        if opcode in scn.RETH:
            self.expect(n, 'RETH DMA length', num(t['infiniband.reth.dmalen']), q.messages[side][m][1])
        if opcode in scn.ATOMIC:
            swap_add, compare, _ = q.atomics[side][m]
            self.expect(n, 'AtomicETH swap/add data', num(t['infiniband.atomiceth.swapdt']), swap_add)
            self.expect(n, 'AtomicETH compare data', num(t['infiniband.atomiceth.cmpdt']), compare)
        msg_id = q.messages[side][m][3]
        if msg_id and 'msg=' + msg_id not in note:
            self.err(n, 'note lacks msg=%s' % msg_id)

    def reissued_read(self, n, t, q, side, off):
        """A READ re-issued from a missing response: at that response's PSN,
        asking for the rest of the READ's bytes."""
        first = 0
        for kind, length, _, _ in q.messages[side]:
            span = scn.packet_count(length, q.mtu)
            if first < off < first + span:
                if kind != 'read':
                    break
                pay, _ = self.ib_payload(t, q, 0x0C)
                self.expect(n, 're-issued READ payload', pay, 0)
                return self.expect(n, 're-issued READ DMA length', num(t['infiniband.reth.dmalen']),
                                   length - (off - first) * q.mtu)
            first += span
        self.err(n, 'READ REQUEST at PSN offset %d of %s is inside no READ' % (off, q.name))

    def reply(self, n, t, r, q, req_side, psn):
        verdict = r['verdict']
        syn = num(t['infiniband.aeth.syndrome'])
        msn = num(t['infiniband.aeth.msn'])
        opcode = num(t['infiniband.bth.opcode'])
        if opcode == scn.ATOMIC_ACK:
            self.atomic_ack(n, t, q, req_side, psn)
        else:
            self.expect(n, 'ACK/NAK opcode', opcode, 0x11)
        if r['kind'] == 'ack':
            self.expect(n, 'ACK syndrome', syn, 0x1F)
        elif verdict == 'nak:rnr':
            if syn is None or syn & 0x60 != 0x20 or syn & 0x1F not in self.sc.rnr_timers:
                self.err(n, 'RNR NAK syndrome 0x%02x is not 0x20|timer of an rnr directive' % (syn or 0))
        elif verdict in NAK_SYNDROME:
            self.expect(n, 'NAK syndrome', syn, NAK_SYNDROME[verdict])
        elif verdict != 'duplicate':
            self.err(n, 'verdict %s for a NAK' % verdict)
        if q.psn is None or syn is None:
            return
        # MSN: messages the responder had completed, in PSN order.
        _, ends = scn.expected_requests(q, req_side)
        off = (psn - q.psn[req_side]) & scn.PSN_MASK
        done = bisect.bisect_right(ends, off) if syn & 0x60 == 0 else bisect.bisect_left(ends, off)
        self.expect(n, 'AETH MSN', msn, done)

    def atomic_ack(self, n, t, q, req_side, psn):
        """An ATOMIC ACKNOWLEDGE answers an ATOMIC at its PSN with the target's
        value before that ATOMIC, every time it is sent."""
        if q.psn is None:
            return
        off = (psn - q.psn[req_side]) & scn.PSN_MASK
        reqs, _ = scn.expected_requests(q, req_side)
        if off not in reqs or reqs[off][0] not in scn.ATOMIC:
            return self.err(n, 'ATOMIC ACKNOWLEDGE at PSN offset %d, which is no ATOMIC of %s' % (off, q.name))
        want = q.atomics[req_side][reqs[off][2]][2]
        self.expect(n, 'AtomicAckETH original data', num(t['infiniband.atomicacketh.origremdt']), want)

    def read_response(self, n, t, q, req_side, psn, opcode):
        if opcode not in scn.READ_RESPONSES:
            return self.err(n, 'read response with opcode 0x%02x' % opcode)
        if q.psn is None:
            return
        off = (psn - q.psn[req_side]) & scn.PSN_MASK
        first = 0
        for m, (kind, length, _, _) in enumerate(q.messages[req_side]):
            span = scn.packet_count(length, q.mtu)
            if first <= off < first + span:
                if kind != 'read':
                    return self.err(n, 'read response inside a %s' % kind)
                i = off - first
                want_op = 0x10 if span == 1 else 0x0D if i == 0 else 0x0F if i == span - 1 else 0x0E
                # The first response to a READ re-issued at offset i is a FIRST (ONLY for the last one).
                retry_op = 0x10 if i == span - 1 else 0x0D
                if not (q.read_faults and opcode == retry_op):
                    self.expect(n, 'read response opcode', opcode, want_op)
                pay, pad = self.ib_payload(t, q, opcode)
                self.expect(n, 'read response payload', pay, min(q.mtu, length - i * q.mtu))
                if opcode in scn.AETH:
                    self.expect(n, 'read response AETH syndrome', num(t['infiniband.aeth.syndrome']), 0x1F)
                    self.expect(n, 'read response MSN', num(t['infiniband.aeth.msn']), m + 1)
                return
            first += span
        self.err(n, 'read response PSN offset %d outside every message' % off)

    def cm_qp(self, n, t, r, src, dst):
        verdict = r['verdict']
        self.expect(n, 'MAD destination QP', num(t['infiniband.bth.destqp']), 1)
        self.expect(n, 'DETH source QP', num(t['infiniband.deth.srcqp']), 1)
        self.expect(n, 'MAD class', num(t['infiniband.mad.mgmtclass']), 0x07)
        self.expect(n, 'CM attribute', num(t['infiniband.mad.attributeid']), CM_ATTR.get(verdict))
        cands = [q for q in self.sc.qps if q.cm and set(q.hosts) == {src, dst}]
        if verdict == 'cm-req':
            qpn, spsn, side = num(t['infiniband.cm.req.localqpn']), num(t['infiniband.cm.req.startpsn']), 0
        elif verdict == 'cm-rep':
            qpn, spsn, side = num(t['infiniband.cm.rep.localqpn']), num(t['infiniband.cm.rep.startpsn']), 1
        else:
            # The RTU names no QP: its local comm ID is the active side's, which the REP echoed.
            q = self.cm_comm.get(num(t['infiniband.cm.rtu.localcommid']))
            if q is None and len(cands) == 1:
                q = cands[0]  # its REP was not recorded (a one-directional tap): only one candidate
            if q is None:
                self.err(n, 'RTU with local comm ID %s answers no REP seen, and %d cm directives join %s and %s'
                         % (t['infiniband.cm.rtu.localcommid'], len(cands), src, dst))
            return q, 0
        match = [q for q in cands if q.hosts[side] == src and q.qpns[side] == qpn and (q.psn is None or q.psn[side] == spsn)]
        if not match:
            self.err(n, '%s for QPN 0x%06x start PSN %s matches no cm directive' % (verdict, qpn or 0, spsn))
            return None, 0
        q = match[0]
        if verdict == 'cm-rep':
            self.cm_comm[num(t['infiniband.cm.rep.remotecommid'])] = q
        if verdict == 'cm-req':  # a new connection takes over its QPNs from here on
            # IBA's MTU code: 1 = 256 ... 5 = 4096.
            self.expect(n, 'CM REQ path MTU', num(t['infiniband.cm.req.pppmtu']), (q.mtu // 256).bit_length())
            for s in (0, 1):
                self.owner[(q.hosts[s], q.qpns[s])] = q
        return q, side

    # -- whole capture -----------------------------------------------------

    def coverage(self):
        """Every request PSN of every message appears, and nothing else."""
        sc = self.sc
        for q in sc.qps:
            if q.psn is None or q.fatal:
                continue  # generator-chosen PSNs, or the QP stops early on purpose
            for s in (0, 1):
                if not q.messages[s]:
                    continue
                src, dst = q.hosts[s], q.hosts[1 - s]
                if not any(sc.records(p, src, dst) for p in sc.route(src, dst)):
                    continue
                want = set(scn.expected_requests(q, s)[0])
                got = self.seen.get((q.name, s), set())
                if want != got:
                    self.errors.append('%s side %s: request PSN offsets missing %s, unexpected %s' %
                                       (q.name, q.hosts[s], sorted(want - got)[:10], sorted(got - want)[:10]))


    # -- matching one packet across points ------------------------------------

    def matching(self):
        sc = self.sc
        by_id = {}
        for r in self.truth:
            if r['kind'] in ('pfc', 'lldp', 'icmp', 'besteffort'):  # best-effort: besteffort_packets()
                continue
            if not r['packet_id'].isdigit() or r['packet_id'] == '0':
                self.err(r['frame'], 'packet_id %r' % r['packet_id'])
                continue
            by_id.setdefault(r['packet_id'], []).append(r)
        same = ('dir', 'kind', 'qpn', 'psn', 'opcode')
        transmissions = {}  # (point, dir, kind, qpn, psn) -> IPv4 IDs of the different transmissions seen there
        for pid, rows in by_id.items():
            orig = [r for r in rows if r['cause'] != 'mirror']
            if not orig:
                self.errors.append('packet_id %s: only mirror copies' % pid)
                continue
            first = orig[0]
            for r in rows:
                if any(r[c] != first[c] for c in same) or (r['cause'] != 'mirror' and r['cause'] != first['cause']):
                    self.err(r['frame'], 'packet_id %s names different packets (frame %s)' % (pid, first['frame']))
                ids = {self.ip_id.get(x['frame']) for x in (first, r)}
                if len(ids) != 1:
                    self.err(r['frame'], 'packet_id %s with IPv4 IDs %s' % (pid, sorted(map(str, ids))))
            for r in rows:
                if r['cause'] == 'mirror':
                    twin = [x for x in orig if x['point'] == r['point']]
                    if r['point'] not in sc.mirror or not twin:
                        self.err(r['frame'], 'mirror copy of packet_id %s with no original at %s' % (pid, r['point']))
                    elif r['lost_after'] != twin[0]['lost_after']:
                        self.err(r['frame'], 'mirror copy with another lost_after than its original')
            src, dst = first['dir'].split('->')
            route = sc.route(src, dst)
            lost = {x[len('lost-before='):] for r in orig for x in r['note'].split(';') if x.startswith('lost-before=')}
            if len(lost) > 1 or (lost and any('lost-before=' not in r['note'] for r in orig)):
                self.errors.append('packet_id %s: copies disagree on where it is lost: %s' % (pid, sorted(lost)))
            end = route.index(next(iter(lost))) if lost and next(iter(lost)) in route else len(route)
            want = [p for p in route[:end] if sc.records(p, src, dst)]
            orig.sort(key=lambda r: int(r['true_ts_ns']))
            got = [r['point'] for r in orig]
            missed = sc.tap_missed(src, int(first['qpn'], 0), int(first['psn'])) if first['kind'] == 'req' else set()
            if got != want and got != [p for p in want if p not in missed]:
                self.errors.append('packet_id %s (%s %s PSN %s) seen at %s, expected %s' %
                                   (pid, first['dir'], first['kind'], first['psn'], got, want))
                continue
            for i, r in enumerate(orig):
                k = route.index(r['point'])
                self.expect(r['frame'], 'lost_after', r['lost_after'], '1' if end < len(route) and k + 1 == end else '0')
                self.transmission(transmissions, r, pid)
                if i == 0:
                    continue
                prev = orig[i - 1]
                if route.index(prev['point']) + 1 != k:
                    continue  # a point between them does not record this direction
                hop = sc.latency_to(src, dst, r['point']) - sc.latency_to(src, dst, prev['point']) + int(r['queue_ns'])
                dt = int(r['true_ts_ns']) - int(prev['true_ts_ns'])
                held = sc.jitter or r['point'] in sc.speed or any(d['point'] == r['point'] for d in sc.pfcs)
                if dt != hop and not (held and dt > hop) and dt - hop not in sc.reorder_by:
                    self.err(r['frame'], 'hop %s -> %s took %d ns, expected %d (latency + queue_ns)' %
                             (prev['point'], r['point'], dt, hop))

    def transmission(self, seen, r, pid):
        """Two transmissions of one PSN at one point differ in their IPv4 ID, so they can be told apart;
        unless the sender's NIC sends ID 0 (`ipid=zero`), or resends requests byte-identical
        (`resend_ipid=same`): then they share it."""
        ip_id = self.ip_id.get(r['frame'])
        if ip_id is None:
            return
        host = self.sc.hosts[r['dir'].split('->')[0]]
        if host['ipid'] == 'zero':
            return self.expect(r['frame'], 'IPv4 ID (ipid=zero)', num(ip_id), 0)
        if host['resend_ipid'] == 'same' and r['kind'] == 'req':
            key = (r['point'], r['dir'], r['kind'], r['qpn'], r['psn'], r['opcode'])
            first = seen.setdefault(('same',) + key, ip_id)
            return self.expect(r['frame'], 'IPv4 ID of a resend (resend_ipid=same)', ip_id, first)
        key = (r['point'], r['dir'], r['kind'], r['qpn'], r['psn'])
        others = seen.setdefault(key, {})
        if ip_id in others and others[ip_id] != pid:
            self.err(r['frame'], 'packet_ids %s and %s share IPv4 ID %s' % (others[ip_id], pid, ip_id))
        others[ip_id] = pid

    def queueing(self):
        """queue_ns is what the burst's backlog says, or more only back to back
        behind the frame queued before it (FIFO at the point's rate)."""
        sc = self.sc
        last = {}  # (point, towards, burst) -> true time the previous queued frame left
        for r, length, _, towards in self.roce:
            n, point = r['frame'], r['point']
            if r['cause'] == 'mirror':
                continue
            src, dst = r['dir'].split('->')
            if sc.flows_at(point, src, dst):
                continue  # a best-effort flow shares this queue: besteffort_queue()
            qs = sc.queues_at(point, src, dst, r['kind'])
            waited = int(r['queue_ns'])
            if not qs:
                if waited:
                    self.err(n, 'queue_ns %d at %s, where no queue burst holds %s' % (waited, point, r['dir']))
                continue
            if point in sc.speed or any(d['point'] == point for d in sc.pfcs):
                continue  # what leaves the queue may wait again
            left = int(r['true_ts_ns'])
            arrival = left - waited - sc.epoch_ns
            keys = [(point, towards, i) for i, q in enumerate(sc.queues) if q in qs]
            b = max(scn.backlog(q, arrival) for q in qs)
            s = serialization_ns(length, sc.gbps_of(point))
            behind = [last[k] for k in keys if k in last and last[k] > arrival + sc.epoch_ns]
            if waited < b:
                self.err(n, 'queued %d ns at %s, the burst backlog is %d ns' % (waited, point, b))
            elif waited > b and left != max(behind, default=0) + s:
                self.err(n, 'queued %d ns at %s beyond the backlog of %d ns without leaving back to back' %
                         (waited, point, b))
            if waited:
                for k in keys:
                    last[k] = left


    # -- best-effort cross traffic (`besteffort`) ------------------------------

    def besteffort_frame(self, t, r):
        """A packet of a best-effort flow: TCP from the flow's port to 5201 (iperf3), routed like a RoCE
        frame of its direction at that point (MACs, TTL), in the flow's DSCP, Not-ECT, with the RoCE
        traffic's VLAN and the flow's PCP, of the flow's size."""
        n, point, sc = r['frame'], r['point'], self.sc
        src, dst = r['dir'].split('->')
        mirror = r['cause'] == 'mirror'
        self.expect(n, 'frame number', t['frame.number'], n)
        self.interface(n, t, r, int(t['frame.time_epoch'].replace('.', '')))
        self.erspan_frame(n, t, r)
        for col in ('qpn', 'psn', 'opcode', 'request_frame', 'paused', 'pause_frame', 'lost_after'):
            self.expect(n, 'truth column ' + col, r.get(col), '-')
        self.expect(n, 'truth verdict', r['verdict'], 'duplicate' if mirror else 'besteffort')
        self.expect(n, 'truth cause', r['cause'], 'mirror' if mirror else '-')
        if not sc.records(point, src, dst):
            self.err(n, 'point %s should not record %s' % (point, r['dir']))
        self.expect(n, 'TCP destination port (iperf3)', num(t['tcp.dstport']), 5201)
        sport = num(t['tcp.srcport'])
        flows = [f for f in sc.besteffort if f['dir'] == (src, dst) and f['sport'] == sport and
                 point in (f['point'], sc.upstream(f))]
        if not flows:
            return self.err(n, 'best-effort packet from TCP port %s at %s that no besteffort flow sends' %
                            (sport, point))
        flow = flows[0]
        vlan, v6 = sc.flow_traffic(flow)
        if vlan is not None:
            self.expect(n, 'VLAN ID', num(t['vlan.id']), vlan)
            self.expect(n, 'VLAN PCP', num(t['vlan.priority']), flow['pcp'])
            etype = num(t['vlan.etype'])
        else:
            self.expect(n, 'VLAN tag', t['vlan.id'], '')
            etype = num(t['eth.type'])
        want_src, want_dst, hop = self.link_view(src, dst, point, False, mirror and point in sc.mirror_rewrite)
        self.expect(n, 'Ethernet source', t['eth.src'].lower(), want_src)
        self.expect(n, 'Ethernet destination', t['eth.dst'].lower(), want_dst)
        if v6:
            self.expect(n, 'ethertype', etype, 0x86DD)
            self.expect(n, 'IPv6 hop limit', num(t['ipv6.hlim']), 64 - hop)
            dscp, ecn = num(t['ipv6.tclass.dscp']), num(t['ipv6.tclass.ecn'])
        else:
            self.expect(n, 'ethertype', etype, 0x0800)
            self.expect(n, 'IPv4 DF', num(t['ip.flags.df']), 1)
            self.expect(n, 'IPv4 TTL', num(t['ip.ttl']), 64 - hop)
            dscp, ecn = num(t['ip.dsfield.dscp']), num(t['ip.dsfield.ecn'])
        self.expect(n, 'DSCP', dscp, flow['dscp'])
        self.expect(n, 'ECN (Not-ECT)', ecn, 0)
        size = sc.flow_size(flow)
        self.expect(n, 'frame length', int(t['frame.len']) - sc.erspan_overhead(point), size)
        self.expect(n, 'captured length', int(t['frame.cap_len']), min(int(t['frame.len']), sc.snaplen_of(point)))
        self.expect(n, 'TCP payload', num(t['tcp.len']), self.payload(flow))
        self.be.append((r, flow, None if v6 else num(t['ip.id']), num(t['tcp.seq_raw'])))

    def payload(self, flow):
        vlan, v6 = self.sc.flow_traffic(flow)
        return self.sc.flow_size(flow) - 14 - (4 if vlan is not None else 0) - (40 if v6 else 20) - 20

    def besteffort_packets(self, flow):
        """Packet k is sent at at + k * spacing (its serialization time at the flow's rate) for `for`,
        with IPv4 ID 0x4000 + k and TCP sequence 1000000 + k * payload. Each one is recorded twice,
        at the point before the flow's (queue_ns 0) and at it (its wait there), with the same IPv4 ID
        and sequence number, later there by the segment's latency + queue_ns + its serialization at
        the point's link rate. Under strict priority it never waits."""
        sc = self.sc
        src, dst = flow['dir']
        up, point = sc.upstream(flow), flow['point']
        size, payload = sc.flow_size(flow), self.payload(flow)
        spacing = serialization_ns(size, flow['gbps'])
        count = -(-flow['for'] // spacing)
        latency = sc.latency_to(src, dst, point) - sc.latency_to(src, dst, up)
        ser = serialization_ns(size, sc.gbps_of(point))
        want_points = [p for p in (up, point) if sc.records(p, src, dst)]
        by_id = {}
        for r, f, ip_id, seq in self.be:
            if f is flow and r['cause'] != 'mirror':
                by_id.setdefault(r['packet_id'], []).append((r, ip_id, seq))
        if want_points and len(by_id) != count:
            self.errors.append('besteffort %s %s: %d packets in the capture, it sends %d' %
                               (point, r_dir(flow), len(by_id), count))
        for pid, copies in by_id.items():
            copies.sort(key=lambda c: int(c[0]['true_ts_ns']))
            first = copies[0][0]
            if not pid.isdigit() or pid == '0':
                self.err(first['frame'], 'best-effort packet_id %r' % pid)
            if [c[0]['point'] for c in copies] != want_points:
                self.err(first['frame'], 'best-effort packet_id %s seen at %s, expected %s' %
                         (pid, [c[0]['point'] for c in copies], want_points))
                continue
            if len({(c[1], c[2]) for c in copies}) != 1:
                self.err(first['frame'], 'best-effort packet_id %s: IPv4 ID / TCP sequence differ between points' % pid)
            k, rest = divmod((copies[0][2] - 1000000) % 2 ** 32, payload)
            if rest or k >= count:
                self.err(first['frame'], 'TCP sequence %d starts none of the flow\'s packets' % copies[0][2])
                continue
            if copies[0][1] is not None:
                self.expect(first['frame'], 'IPv4 ID of best-effort packet %d' % k, copies[0][1], (0x4000 + k) & 0xFFFF)
            for r, _, _ in copies:
                if r['point'] == up:
                    self.expect(r['frame'], 'best-effort queue_ns at the point before the queue', r['queue_ns'], '0')
                    self.expect(r['frame'], 'best-effort packet %d sent at' % k,
                                int(r['true_ts_ns']) - sc.epoch_ns, flow['at'] + k * spacing)
                elif flow['sched'] == 'strict':
                    self.expect(r['frame'], 'best-effort queue_ns under strict priority', r['queue_ns'], '0')
            if len(copies) == 2:
                r0, r1 = copies[0][0], copies[1][0]
                dt = int(r1['true_ts_ns']) - int(r0['true_ts_ns'])
                self.expect(r1['frame'], 'best-effort hop %s -> %s (latency + queue_ns + serialization)' % (up, point),
                            dt, latency + int(r1['queue_ns']) + ser)

    def besteffort_queue(self, flow):
        """The queue the flow shares with RoCE of its direction at its point. With f = rate / link rate,
        RoCE's class gets 1 - f under strict priority (0.02 when f = 1), max(pct, 1 - f) under ets:pct,
        while the flow is active (from its first packet's arrival there until its last one has left),
        and the whole link after it: a RoCE frame leaves when its class has served its serialization time
        since the frame before it left, and never before it arrived; FIFO. A best-effort frame waits
        only under ETS, behind the one before it at its 1 - pct share (RoCE backlogged) or at line rate."""
        sc = self.sc
        src, dst = flow['dir']
        up, point = sc.upstream(flow), flow['point']
        if not sc.records(point, src, dst) or point in sc.speed or any(d['point'] == point for d in sc.pfcs):
            return  # not seen there, or what leaves the queue may wait again
        gbps = sc.gbps_of(point)
        mbps = round(gbps * 1000)
        size = sc.flow_size(flow)
        latency = sc.latency_to(src, dst, point) - sc.latency_to(src, dst, up)
        be = sorted((r for r, f, _, _ in self.be if f is flow and r['point'] == point and r['cause'] != 'mirror'),
                    key=lambda r: int(r['true_ts_ns']))
        if not be:
            return
        start = flow['at'] + latency
        end = int(be[-1]['true_ts_ns']) - sc.epoch_ns
        f = flow['gbps'] / gbps
        if flow['sched'] == 'strict':
            share, be_share = (1 - f if f < 1 else 0.02), 1.0
        else:
            share, be_share = max(flow['pct'] / 100, 1 - f), 1 - flow['pct'] / 100
        exact = lambda length: (length + 24) * 8 * 1000 / mbps  # noqa: E731
        up_ceil = lambda x: math.ceil(x - 1e-6)  # noqa: E731

        def finish(frm, work):
            if frm < end:
                served = (end - frm) * share
                if work <= served:
                    return up_ceil(frm + work / share)
                work -= served
                frm = end
            return up_ceil(frm + work)

        # Best-effort: store and forward, waiting only under ETS.
        be_waited = False
        prev = None
        for r in be:
            left, waited = int(r['true_ts_ns']) - sc.epoch_ns, int(r['queue_ns'])
            if waited:
                be_waited = True
                shares = [be_share, 1.0]
                if flow['sched'] != 'ets' or prev is None or \
                        all(abs(left - up_ceil(prev + exact(size) / s)) > 1 for s in shares):
                    self.err(r['frame'], 'best-effort waited %d ns at %s, not behind the one before it' % (waited, point))
            prev = left
        # RoCE, in the order it leaves (the file's).
        last_arrival = int(be[-1]['true_ts_ns']) - int(be[-1]['queue_ns']) - serialization_ns(size, gbps) - sc.epoch_ns
        bursts = any(sc.queues_at(point, src, dst, None))
        prev = None
        for r, length, _, _ in self.roce:
            if r['point'] != point or r['dir'] != '%s->%s' % (src, dst) or r['cause'] == 'mirror':
                continue
            left, waited = int(r['true_ts_ns']) - sc.epoch_ns, int(r['queue_ns'])
            arrival = left - waited
            if prev is not None and left < prev:
                self.err(r['frame'], 'RoCE leaves the queue at %s before the frame ahead of it (FIFO)' % point)
            if arrival < start:
                if waited and not bursts:
                    self.err(r['frame'], 'queue_ns %d at %s before the best-effort flow reached it' % (waited, point))
                continue
            want = arrival if prev is None else max(arrival, finish(prev, exact(length)))
            if abs(left - want) > 1 and not bursts and not (be_waited and arrival < last_arrival):
                self.err(r['frame'], 'RoCE left the queue at %s at %d ns, the scheduler says %d ns (waited %d ns)' %
                         (point, left, want, waited))
            prev = left


def r_dir(flow):
    return '%s->%s' % flow['dir']


def ones(data):
    """The 16-bit ones' complement sum: 0xFFFF over a packet with a right checksum."""
    data = bytes(data) + b'\0' * (len(data) % 2)
    s = sum(struct.unpack('!%dH' % (len(data) // 2), data))
    while s >> 16:
        s = (s & 0xFFFF) + (s >> 16)
    return s


def expert_check(pcap, tshark, errors, truth):
    # The RPC-over-RDMA heuristic of Wireshark 4.0 reads 16 bytes of any RC
    # SEND ONLY payload before checking its length, so a SEND ONLY shorter
    # than that is always "Malformed: RPCoRDMA". Check the rest with it off,
    # and that it alone explains the other malformed frames with it on.
    def flagged(note):
        return {r['frame'] for r in truth if r['kind'] == 'pfc' and note in r['note'].split(';')}
    runts = flagged('short')  # a runt PFC frame is malformed by design
    off = ['--disable-heuristic', 'rpcrdma_infiniband']
    for f in tshark_env.fields(pcap, ['frame.number', '_ws.expert.message', '_ws.expert.severity', '_ws.expert.group'],
                               ['-Y', '_ws.expert'] + off, tshark, occurrence='a', aggregator='|'):
        for msg, sev, group in zip(f['_ws.expert.message'].split('|'), f['_ws.expert.severity'].split('|'),
                                   f['_ws.expert.group'].split('|')):
            if sev and int(sev) >= SEVERITY_ERROR and not (f['frame.number'] in runts and int(group) == GROUP_MALFORMED):
                errors.append('frame %s: tshark expert error: %s' % (f['frame.number'], msg))
    # The PFC warnings appear on the bad frames and nowhere else.
    for field, note in (('macc.cbfc.enbv.not_zero', 'reserved-bits'), ('macc.dst_address_invalid', 'bad-dst')):
        got = {f['frame.number'] for f in tshark_env.fields(pcap, ['frame.number'], ['-Y', field], tshark)}
        if got != flagged(note):
            errors.append('expert %s on frames %s, the truth file marks %s as %s' %
                          (field, sorted(got, key=int), sorted(flagged(note), key=int), note))
    malformed = tshark_env.fields(pcap, ['frame.number'], ['-Y', '_ws.malformed'] + off, tshark)
    if {f['frame.number'] for f in malformed} != runts:
        errors.append('malformed frames %s, expected exactly the runt PFC frames %s' %
                      (sorted(f['frame.number'] for f in malformed), sorted(runts)))
    # With it on, the only other malformed frames may be such SEND ONLYs.
    for f in tshark_env.fields(pcap, ['frame.number', 'infiniband.bth.opcode', 'udp.length', 'infiniband.grh.paylen'],
                               ['-Y', '_ws.malformed'], tshark):
        if f['frame.number'] in runts:
            continue
        length = int(f['udp.length']) - 8 if f['udp.length'] else int(f['infiniband.grh.paylen'] or 0)
        payload = length - 12 - 4
        if not (f['infiniband.bth.opcode'] == '4' and payload < 16):
            errors.append('frame %s is malformed and is not a short SEND ONLY (the known RPCoRDMA heuristic bug)' %
                          f['frame.number'])


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--scenario', required=True)
    ap.add_argument('--pcap', required=True)
    ap.add_argument('--truth', required=True)
    ap.add_argument('--tshark', default='tshark')
    a = ap.parse_args()
    sc = scn.Scenario(a.scenario)
    # The last occurrence: the mirrored frame's, under an ERSPAN copy's outer headers.
    rows = tshark_env.fields(a.pcap, FIELDS, tshark=a.tshark, occurrence='l')
    outer = tshark_env.fields(a.pcap, OUTER_FIELDS, tshark=a.tshark)
    apps = {f['frame.number']: f for f in tshark_env.fields(a.pcap, APP_FIELDS, ['-Y', 'lldp'], a.tshark, occurrence='a')}
    truth = tshark_env.read_truth(a.truth)
    raw = [bytes(data) for data, _ in RawPcapNgReader(a.pcap)]
    c = Checker(sc, rows, truth, apps, raw, outer)
    c.run()
    expert_check(a.pcap, a.tshark, c.errors, truth)
    if not truth:
        c.errors.append('empty capture')
    for e in c.errors[:50]:
        print(e)
    if c.errors:
        print('%d problem(s) in %s' % (len(c.errors), a.pcap))
        return 1
    print('%s: %d frames decode as intended' % (a.pcap, len(truth)))
    return 0


if __name__ == '__main__':
    sys.exit(main())
