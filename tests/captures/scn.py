# SPDX-License-Identifier: GPL-2.0-or-later
"""A second, deliberately small reader of the scenario language, for the
capture tests. It knows only what the tests check (hosts, paths, QPs,
messages, forced replies, capture settings, expectations) and shares no
code with the generator, so a parser bug there cannot hide here."""

import re

PSN_MASK = 0xFFFFFF

_UNITS = {'ns': 1, 'us': 1000, 'ms': 1000000, 's': 1000000000}


def duration(text):
    m = re.fullmatch(r'(\d+(?:\.\d+)?)(ns|us|ms|s)', text)
    if not m:
        raise ValueError('bad duration ' + text)
    whole, _, frac = m.group(1).partition('.')
    scale = _UNITS[m.group(2)]
    return int(whole) * scale + (int(frac) * scale // 10 ** len(frac) if frac else 0)


def size(text):
    scale = 1
    if text[-1] in 'KM':
        scale = 1024 if text[-1] == 'K' else 1024 * 1024
        text = text[:-1]
    return int(text, 0) * scale


def packet_count(length, mtu):
    return max(1, -(-length // mtu))


class Qp:
    def __init__(self, name, ends):
        self.name = name
        self.hosts = [e[0] for e in ends]
        self.qpns = [e[1] for e in ends]
        self.psn = [0, 0]
        self.mtu = 1024
        self.ver = 'v2'
        self.vlan = None
        self.pcp = 0
        self.dscp = 26
        self.ecn = 2
        self.pkey = 0xFFFF
        self.ackreq_every = 0
        self.cm = False
        self.messages = [[], []]  # per side: (type, length, imm, id), repeats expanded
        self.fatal = False        # a forced error NAK puts it in the error state


class Scenario:
    def __init__(self, path):
        self.hosts = {}
        self.paths = []   # [host0, [points...], host1]
        self.points = []  # in order of first appearance = interface order
        self.qps = []
        self.snaplen = 65535
        self.point_snaplen = {}
        self.mirror = {}
        self.only_dir = {}
        self.cnp_dscp = 48
        self.cnp_ecn = 0
        self.rnr_timers = set()
        self.expect = {}
        self.ids = {}
        for raw in open(path):
            words = raw.split('#', 1)[0].split()
            if words:
                self._line(words)
        if self.cnp_ecn is None:
            self.cnp_ecn = 0

    def qp(self, name):
        return next(q for q in self.qps if q.name == name)

    def _line(self, w):
        opts = dict(x.split('=', 1) for x in w[1:] if '=' in x)
        pos = [x for x in w[1:] if '=' not in x]
        d = w[0]
        if d == 'host':
            self.hosts[pos[0]] = {'ip4': pos[1], 'mac': pos[2], 'ip6': opts.get('ip6')}
        elif d == 'path':
            pts = pos[2:-1:2]
            self.paths.append([pos[0], pts, pos[-1]])
            for p in pts:
                if p not in self.points:
                    self.points.append(p)
        elif d == 'snaplen':
            if 'point' in opts:
                self.point_snaplen[opts['point']] = int(pos[0])
            else:
                self.snaplen = int(pos[0])
        elif d == 'mirror':
            self.mirror[pos[0]] = duration(opts['dup'])
        elif d == 'capture':
            self.only_dir[pos[0]] = tuple(opts['dir'].split('->'))
        elif d == 'cnp_dscp':
            self.cnp_dscp = int(pos[0], 0)
        elif d == 'cnp_ecn':
            self.cnp_ecn = int(pos[0], 0)
        elif d == 'qp':
            ends = [(e.split(':')[0], int(e.split(':')[1], 0)) for e in pos[1:3]]
            q = Qp(pos[0], ends)
            if 'psn' in opts:
                q.psn = [int(x, 0) for x in opts['psn'].split(',')]
            else:
                q.psn = None  # chosen by the generator from the seed
            q.mtu = int(opts.get('mtu', 1024))
            q.ver = opts.get('ver', 'v2')
            q.vlan = int(opts['vlan'], 0) if 'vlan' in opts else None
            q.pcp = int(opts.get('pcp', 0))
            q.dscp = int(opts.get('dscp', 26))
            q.ecn = 0 if q.ver == 'v1' else int(opts.get('ecn', 2))
            q.pkey = int(opts.get('pkey', '0xffff'), 0)
            q.ackreq_every = int(opts.get('ackreq_every', 0))
            self.qps.append(q)
        elif d == 'cm':
            self.qp(pos[0]).cm = True
        elif d in ('send', 'write', 'read'):
            q = self.qp(pos[0])
            side = q.hosts.index(pos[1])
            msg = (d, size(pos[2]), len(pos) > 3 and pos[3] == 'imm', opts.get('id'))
            q.messages[side].extend([msg] * int(opts.get('repeat', 1)))
            if 'id' in opts:
                self.ids[opts['id']] = q
        elif d == 'rnr':
            self.rnr_timers.add(int(opts.get('timer', 14)))
        elif d == 'nak':
            self.ids[pos[0]].fatal = True
        elif d == 'expect':
            self.expect.update(opts)

    def route(self, src, dst):
        """Points a packet from host src to host dst passes, in order."""
        for h0, pts, h1 in self.paths:
            if (h0, h1) == (src, dst):
                return pts
            if (h1, h0) == (src, dst):
                return list(reversed(pts))
        raise KeyError((src, dst))

    def records(self, point, src, dst):
        d = self.only_dir.get(point)
        return d is None or d == (src, dst)

    def snaplen_of(self, point):
        return self.point_snaplen.get(point, self.snaplen)

    def find_qp(self, src, dst, dest_qpn):
        """QPs whose end at host dst has QPN dest_qpn and whose other end is src."""
        out = []
        for q in self.qps:
            for s in (0, 1):
                if q.hosts[s] == dst and q.qpns[s] == dest_qpn and q.hosts[1 - s] == src:
                    out.append((q, 1 - s))  # (qp, side of the sender)
        return out


# Opcode facts, written out from IBA vol. 1 table 38.
FIRST = {0x00, 0x06, 0x0D}
MIDDLE = {0x01, 0x07, 0x0E}
LAST = {0x02, 0x03, 0x08, 0x09, 0x0F}
ONLY = {0x04, 0x05, 0x0A, 0x0B, 0x0C, 0x10}
RETH = {0x06, 0x0A, 0x0B, 0x0C}
IMM = {0x03, 0x05, 0x09, 0x0B}
AETH = {0x0D, 0x0F, 0x10, 0x11}
READ_RESPONSES = {0x0D, 0x0E, 0x0F, 0x10}


def request_opcodes(kind, length, imm, mtu):
    """The request packets of a message: [(opcode, payload bytes)]."""
    if kind == 'read':
        return [(0x0C, 0)]
    n = packet_count(length, mtu)
    base = 0x00 if kind == 'send' else 0x06
    out = []
    for i in range(n):
        pay = min(mtu, length - i * mtu)
        if n == 1:
            op = base + 4 + (1 if imm else 0)
        elif i == 0:
            op = base
        elif i == n - 1:
            op = base + 2 + (1 if imm else 0)
        else:
            op = base + 1
        out.append((op, pay))
    return out


def expected_requests(q, side):
    """{psn offset: (opcode, payload, message index)} and the message end offsets."""
    psn = 0
    reqs = {}
    ends = []
    for m, (kind, length, imm, _) in enumerate(q.messages[side]):
        pkts = request_opcodes(kind, length, imm, q.mtu)
        span = packet_count(length, q.mtu)
        for i, (op, pay) in enumerate(pkts):
            reqs[psn + i] = (op, pay, m)
        psn += span
        ends.append(psn - 1)
    return reqs, ends
