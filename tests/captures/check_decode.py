#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Wireshark decodes what the generator meant.

Runs plain tshark (its built-in InfiniBand dissector, no roceshark plugin)
over a committed capture and checks every frame twice:
  * against the truth file: point, timestamp, opcode, QPN, PSN;
  * against the scenario itself, read by scn.py: VLAN PCP/ID, DSCP and ECN
    (IPv4 ToS, IPv6 traffic class, GRH traffic class), TTL / hop limit per
    point, P_Key, AckReq on the last packet of each message, segmentation
    (opcode and payload size of every request PSN), AETH syndromes and MSNs,
    read responses, CNPs and the CM REQ/REP fields, snaplen;
and asserts that `tshark -z expert` reports no errors.
"""

import argparse
import bisect
import sys

import scn
import tshark_env

FIELDS = [
    'frame.number', 'frame.interface_name', 'frame.time_epoch', 'frame.len', 'frame.cap_len',
    'eth.type', 'vlan.etype', 'vlan.priority', 'vlan.id',
    'ip.dsfield.dscp', 'ip.dsfield.ecn', 'ip.ttl', 'ip.flags.df',
    'ipv6.tclass.dscp', 'ipv6.tclass.ecn', 'ipv6.hlim',
    'udp.dstport', 'udp.length',
    'infiniband.grh.tclass', 'infiniband.grh.nxthdr', 'infiniband.grh.hoplmt', 'infiniband.grh.paylen',
    'infiniband.bth.opcode', 'infiniband.bth.destqp', 'infiniband.bth.psn', 'infiniband.bth.a',
    'infiniband.bth.p_key', 'infiniband.bth.padcnt',
    'infiniband.aeth.syndrome', 'infiniband.aeth.msn', 'infiniband.reth.dmalen', 'infiniband.deth.srcqp',
    'infiniband.mad.mgmtclass', 'infiniband.mad.attributeid',
    'infiniband.cm.req.localqpn', 'infiniband.cm.req.startpsn',
    'infiniband.cm.rep.localqpn', 'infiniband.cm.rep.startpsn',
]

NAK_SYNDROME = {'nak:seq': 0x60, 'nak:inv-req': 0x61, 'nak:rem-access': 0x62, 'nak:rem-op': 0x63}
CM_ATTR = {'cm-req': 0x10, 'cm-rep': 0x13, 'cm-rtu': 0x14}
# Extension header bytes between the BTH and the payload, by opcode.
EXT_LEN = {op: (16 if op in scn.RETH else 0) + (4 if op in scn.IMM else 0) + (4 if op in scn.AETH else 0)
           for op in range(0x100)}
EXT_LEN[0x64] = 8  # DETH


def num(v):
    return int(v, 0) if v else None


class Checker:
    def __init__(self, sc, rows, truth):
        self.sc = sc
        self.rows = rows
        self.truth = truth
        self.errors = []
        self.seen = {}    # (qp name, side) -> request PSN offsets seen
        self.owner = {}   # (host, qpn) -> Qp currently using it
        for q in sc.qps:
            for s in (0, 1):
                self.owner.setdefault((q.hosts[s], q.qpns[s]), q)

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
            self.frame(t, r, ts)
        self.coverage()

    # -- one frame ---------------------------------------------------------

    def frame(self, t, r, ts):
        n = r['frame']
        sc = self.sc
        point, kind, note = r['point'], r['kind'], r['note'].split(';')
        src, dst = r['dir'].split('->')
        self.expect(n, 'frame number', t['frame.number'], n)
        self.expect(n, 'interface name', t['frame.interface_name'], point)
        self.expect(n, 'timestamp (ns)', ts, int(r['ts_ns']))
        opcode = num(t['infiniband.bth.opcode'])
        destqp = num(t['infiniband.bth.destqp'])
        psn = num(t['infiniband.bth.psn'])
        self.expect(n, 'BTH opcode', opcode, int(r['opcode'], 16))
        self.expect(n, 'BTH destination QP', destqp, int(r['qpn'], 16))
        self.expect(n, 'BTH PSN', psn, int(r['psn']))
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
        self.headers(n, t, q, kind, note, point, src, dst)
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

    def headers(self, n, t, q, kind, note, point, src, dst):
        sc = self.sc
        if q.vlan is not None:
            self.expect(n, 'VLAN ID', num(t['vlan.id']), q.vlan)
            self.expect(n, 'VLAN PCP', num(t['vlan.priority']), q.pcp)
            etype = num(t['vlan.etype'])
        else:
            self.expect(n, 'VLAN tag', t['vlan.id'], '')
            etype = num(t['eth.type'])
        dscp = sc.cnp_dscp if kind == 'cnp' else q.dscp
        ecn = 3 if 'ce' in note else (sc.cnp_ecn if kind == 'cnp' else q.ecn)
        hop = sc.route(src, dst).index(point)
        if q.ver == 'v2':
            self.expect(n, 'ethertype', etype, 0x0800)
            self.expect(n, 'UDP destination port', num(t['udp.dstport']), 4791)
            self.expect(n, 'IPv4 DF', num(t['ip.flags.df']), 1)
            self.expect(n, 'IPv4 DSCP', num(t['ip.dsfield.dscp']), dscp)
            self.expect(n, 'IPv4 ECN', num(t['ip.dsfield.ecn']), ecn)
            self.expect(n, 'IPv4 TTL', num(t['ip.ttl']), 64 - hop)
        elif q.ver == 'v2-ipv6':
            self.expect(n, 'ethertype', etype, 0x86DD)
            self.expect(n, 'UDP destination port', num(t['udp.dstport']), 4791)
            self.expect(n, 'IPv6 traffic class DSCP', num(t['ipv6.tclass.dscp']), dscp)
            self.expect(n, 'IPv6 traffic class ECN', num(t['ipv6.tclass.ecn']), ecn)
            self.expect(n, 'IPv6 hop limit', num(t['ipv6.hlim']), 64 - hop)
        else:
            self.expect(n, 'ethertype', etype, 0x8915)
            self.expect(n, 'GRH next header', num(t['infiniband.grh.nxthdr']), 0x1B)
            self.expect(n, 'GRH traffic class', num(t['infiniband.grh.tclass']), dscp << 2)
            self.expect(n, 'GRH hop limit (bridged, never decremented)', num(t['infiniband.grh.hoplmt']), 64)
            if t['ip.dsfield.dscp'] or t['udp.dstport']:
                self.err(n, 'RoCEv1 frame with an IP/UDP header')

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
        msg_id = q.messages[side][m][3]
        if msg_id and 'msg=' + msg_id not in note:
            self.err(n, 'note lacks msg=%s' % msg_id)

    def reply(self, n, t, r, q, req_side, psn):
        verdict = r['verdict']
        syn = num(t['infiniband.aeth.syndrome'])
        msn = num(t['infiniband.aeth.msn'])
        self.expect(n, 'ACK/NAK opcode', num(t['infiniband.bth.opcode']), 0x11)
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
            if not cands:
                self.err(n, 'RTU between hosts without a cm directive')
            return (cands[0] if cands else None), 0
        match = [q for q in cands if q.hosts[side] == src and q.qpns[side] == qpn and (q.psn is None or q.psn[side] == spsn)]
        if not match:
            self.err(n, '%s for QPN 0x%06x start PSN %s matches no cm directive' % (verdict, qpn or 0, spsn))
            return None, 0
        q = match[0]
        if verdict == 'cm-req':  # a new connection takes over its QPNs from here on
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


def expert_check(pcap, tshark, errors):
    # The RPC-over-RDMA heuristic of Wireshark 4.0 reads 16 bytes of any RC
    # SEND ONLY payload before checking its length, so a SEND ONLY shorter
    # than that is always "Malformed: RPCoRDMA". Check the rest with it off,
    # and that it alone explains the malformed frames with it on.
    out = tshark_env.run(['-r', pcap, '-n', '-q', '-z', 'expert', '--disable-heuristic', 'rpcrdma_infiniband'], tshark)
    for line in out.splitlines():
        if line.startswith('Errors') or 'Malformed' in line:
            errors.append('tshark -z expert: ' + line.strip())
    # With it on, the only malformed frames may be such SEND ONLYs (with it
    # off there are none, as checked above).
    for f in tshark_env.fields(pcap, ['frame.number', 'infiniband.bth.opcode', 'udp.length', 'infiniband.grh.paylen'],
                               ['-Y', '_ws.malformed'], tshark):
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
    rows = tshark_env.fields(a.pcap, FIELDS, tshark=a.tshark)
    truth = tshark_env.read_truth(a.truth)
    c = Checker(sc, rows, truth)
    c.run()
    expert_check(a.pcap, a.tshark, c.errors)
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
