# SPDX-License-Identifier: GPL-2.0-or-later
"""A second, deliberately small reader of the scenario language, for the
capture tests. It knows only what the tests check (hosts, switches, paths,
QPs, messages, forced replies, capture settings, marking, PFC and LLDP
frames, clocks, queue bursts, best-effort flows, ERSPAN sessions and
collectors, expectations)
and shares no code with the generator, so a parser bug there cannot hide
here."""

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


def rate_gbps(text):
    """A flow's rate: '20gbps', '500mbps'."""
    m = re.fullmatch(r'(\d+(?:\.\d+)?)(gbps|mbps)', text)
    if not m:
        raise ValueError('bad rate ' + text)
    return float(m.group(1)) / (1000 if m.group(2) == 'mbps' else 1)


def signed_duration(text):
    return -duration(text[1:]) if text.startswith('-') else duration(text)


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
        self.cnp_dscp = None      # else the scenario's
        self.cnp_pcp = None
        self.np_off = set()       # hosts whose notification point is off (`np=off:`): they send no CNPs
        self.markings = [[], []]  # per side: (at_ns, {'dscp'|'ecn'|'pcp': value}), in time order
        self.cm = False
        self.messages = [[], []]  # per side: (type, length, imm, id), repeats expanded
        # per side: message index -> (swap or add data, compare data, the original data its
        # ATOMIC ACK carries), the ATOMICs executed in PSN order on one target that starts at 0
        self.atomics = [{}, {}]
        self.target = [0, 0]
        self.fatal = False        # a forced error NAK puts it in the error state
        self.read_faults = False  # read responses are lost or reordered: READs may be re-issued


class Scenario:
    def __init__(self, path):
        self.hosts = {}
        self.switches = {}  # name -> MAC, the implicit ones too
        self.port_macs = {}  # switch name -> the MAC its ports send PFC and LLDP from (port_mac=)
        self.bridged = False  # `bridged`: RoCEv2 keeps the hosts' MACs and TTL end to end
        self.implicit = {}  # frozenset of two adjacent points -> the switch between them
        self.paths = []   # [host0, [points...], host1, [latency ns per segment], [[switches] per segment]]
        self.jitter = 0
        self.points = []  # points and collectors, in order of first appearance
        self.collectors = set()
        self.clock = {}      # point or collector -> offset in ns
        self.erspan = {}     # point -> its session (dict)
        self.queues = []     # queue bursts (dicts)
        self.besteffort = []  # best-effort TCP flows (dicts)
        self.qps = []
        self.snaplen = 65535
        self.point_snaplen = {}
        self.mirror = {}
        self.mirror_rewrite = set()  # points whose SPAN copy is the switch's other side (`rewrite=on`)
        self.reorder_by = set()      # `reorder ... by=T`: the extra time of the longer ways
        self.only_dir = {}
        self.tap_misses = []  # `tapmiss`: (qp name, requester host, first offset, last offset, point)
        self.cnp_dscp = 48
        self.cnp_ecn = 0
        self.cnp_pcp = 6
        self.link_gbps = 100.0
        self.epoch_ns = 1700000000 * 10 ** 9
        self.speed = {}      # point -> Gb/s
        # (point, {'dscp'|'pcp'|'vlan': (from or None, to), or 'vlan': 'strip'}, (src, dst) or None, from ns)
        self.rewrites = []
        self.pfcs = []       # dicts, one per pfc/xon directive
        self.lldps = []
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
            self.hosts[pos[0]] = {'ip4': pos[1], 'mac': pos[2], 'ip6': opts.get('ip6'),
                                  'ipid': opts.get('ipid', 'inc'), 'resend_ipid': opts.get('resend_ipid', 'new')}
        elif d == 'switch':
            self.switches[pos[0]] = pos[1].lower()
            if 'port_mac' in opts:
                self.port_macs[pos[0]] = opts['port_mac'].lower()
        elif d == 'bridged':
            self.bridged = True
        elif d == 'path':
            self._path(pos)
        elif d == 'snaplen':
            if 'point' in opts:
                self.point_snaplen[opts['point']] = int(pos[0])
            else:
                self.snaplen = int(pos[0])
        elif d == 'mirror':
            self.mirror[pos[0]] = duration(opts['dup'])
            if opts.get('rewrite') == 'on':
                self.mirror_rewrite.add(pos[0])
        elif d in ('drop', 'reorder'):
            if opts.get('kind') == 'readresp':
                self.qp(pos[0]).read_faults = True  # a READ may be re-issued for its missing responses
            if d == 'reorder':
                self.reorder_by.add(duration(opts['by']))
        elif d == 'tapmiss':
            first, _, last = opts['psn'].partition('-')
            self.tap_misses.append((pos[0], pos[1], int(first), int(last or first), opts['at']))
        elif d == 'capture':
            self.only_dir[pos[0]] = tuple(opts['dir'].split('->'))
        elif d == 'cnp_dscp':
            self.cnp_dscp = int(pos[0], 0)
        elif d == 'cnp_ecn':
            self.cnp_ecn = int(pos[0], 0)
        elif d == 'cnp_pcp':
            self.cnp_pcp = int(pos[0], 0)
        elif d == 'jitter':
            self.jitter = duration(pos[0])
        elif d == 'epoch':
            self.epoch_ns = int(pos[0]) * 10 ** 9
        elif d == 'link_gbps':
            self.link_gbps = float(pos[0])
        elif d == 'speed':
            self.speed[pos[0]] = float(pos[1])
        elif d == 'clock':
            self.clock[pos[0]] = signed_duration(pos[1])
        elif d == 'collector':
            self.collectors.add(pos[0])
            self.points.append(pos[0])
        elif d == 'erspan':
            self.erspan[pos[0]] = {
                'session': int(opts['session'], 0), 'type': int(opts['type']), 'src': opts['src'], 'dst': opts['dst'],
                'collector': opts.get('collector'), 'latency': duration(opts['latency']) if 'latency' in opts else 0,
            }
        elif d == 'queue':
            self.queues.append({
                'point': pos[0], 'delay': duration(pos[1]), 'at': duration(opts['at']), 'for': duration(opts['for']),
                'dir': tuple(opts['dir'].split('->')) if 'dir' in opts else None,
                'cnp_strict': opts.get('cnp') == 'strict',  # CNPs skip it
            })
        elif d == 'besteffort':
            sched = opts['sched']
            self.besteffort.append({
                'point': pos[0], 'gbps': rate_gbps(pos[1]), 'at': duration(opts['at']), 'for': duration(opts['for']),
                'dir': tuple(opts['dir'].split('->')), 'sched': 'strict' if sched == 'strict' else 'ets',
                'pct': int(sched[4:]) if sched.startswith('ets:') else None,
                'size': int(opts['size'], 0) if 'size' in opts else None,
                'dscp': int(opts.get('dscp', '0'), 0), 'pcp': int(opts.get('pcp', '0'), 0),
                'sport': 40000 + len(self.besteffort),  # the n-th flow's TCP source port
            })
        elif d == 'marking':
            q = self.qp(pos[0])
            change = {k: int(opts[k], 0) for k in ('dscp', 'ecn', 'pcp') if k in opts}
            q.markings[q.hosts.index(pos[1])].append((duration(opts['at']), change))
            q.markings[q.hosts.index(pos[1])].sort(key=lambda m: m[0])
        elif d == 'rewrite':
            what = {}
            for k in ('dscp', 'pcp', 'vlan'):
                if k in opts and opts[k] == 'strip':
                    what[k] = 'strip'
                elif k in opts:
                    old, _, new = opts[k].rpartition(':')
                    what[k] = (int(old, 0) if old else None, int(new, 0))
            direction = tuple(opts['dir'].split('->')) if 'dir' in opts else None
            self.rewrites.append((pos[0], what, direction, duration(opts['at']) if 'at' in opts else 0))
        elif d in ('pfc', 'xon'):
            self.pfcs.append(self._pfc(d, pos, opts))
        elif d == 'lldp':
            self.lldps.append(self._lldp(pos, opts))
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
            if 'cnp_dscp' in opts:
                q.cnp_dscp = int(opts['cnp_dscp'], 0)
            if 'cnp_pcp' in opts:
                q.cnp_pcp = int(opts['cnp_pcp'], 0)
            if 'np' in opts:
                q.np_off = set(opts['np'].removeprefix('off:').split(','))
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
        elif d == 'atomic':
            q = self.qp(pos[0])
            side = q.hosts.index(pos[1])
            for _ in range(int(opts.get('repeat', 1))):
                orig = q.target[side]
                if pos[2] == 'fetchadd':
                    args = (int(opts.get('add', '1'), 0), 0)
                    q.target[side] = (orig + args[0]) % (1 << 64)
                else:
                    args = (int(opts.get('swap', '0'), 0), int(opts.get('compare', '0'), 0))
                    q.target[side] = args[0] if orig == args[1] else orig
                q.atomics[side][len(q.messages[side])] = args + (orig,)
                q.messages[side].append((pos[2], 8, False, opts.get('id')))
        elif d == 'rnr':
            self.rnr_timers.add(int(opts.get('timer', 14)))
        elif d == 'nak':
            self.ids[pos[0]].fatal = True
        elif d == 'expect':
            self.expect.update(opts)

    def _path(self, pos):
        """Segments between the points, each with its latency and switches;
        two adjacent points with no switch named between them get one, named
        P+Q and with the MAC 02:53:57:00:00:NN in order of creation."""
        pts, lat, sws = [], [0], [[]]
        for i in range(1, len(pos) - 1, 2):
            lat[-1] += duration(pos[i])
            node = pos[i + 1]
            if i + 2 == len(pos):
                break
            if node in self.switches:
                sws[-1].append(node)
                continue
            pts.append(node)
            lat.append(0)
            sws.append([])
            if node not in self.points:
                self.points.append(node)
        for k in range(1, len(pts)):
            if not sws[k]:
                key = frozenset((pts[k - 1], pts[k]))
                if key not in self.implicit:
                    n = len(self.implicit) + 1
                    name = pts[k - 1] + '+' + pts[k]
                    self.implicit[key] = name
                    self.switches[name] = '02:53:57:00:%02x:%02x' % (n >> 8, n & 0xFF)
                sws[k].append(self.implicit[key])
        self.paths.append([pos[0], pts, pos[-1], lat, sws])

    def mac_of(self, node):
        return self.hosts[node]['mac'].lower() if node in self.hosts else self.switches[node]

    def link_ends(self, src, dst, point):
        """The nodes at either end of the link `point` taps, in the direction
        src -> dst travels: (upstream, downstream)."""
        for h0, pts, h1, _, sws in self.paths:
            if {h0, h1} != {src, dst}:
                continue
            i = pts.index(point)
            before = next((sws[k][-1] for k in range(i, -1, -1) if sws[k]), h0)
            after = next((sws[k][0] for k in range(i + 1, len(sws)) if sws[k]), h1)
            return (before, after) if h0 == src else (after, before)
        raise KeyError((src, dst))

    def nodes(self, src, dst):
        """Hosts and switches from src to dst, in order."""
        for h0, _, h1, _, sws in self.paths:
            if {h0, h1} == {src, dst}:
                seq = [h0] + [w for seg in sws for w in seg] + [h1]
                return seq if h0 == src else list(reversed(seq))
        raise KeyError((src, dst))

    def switches_before(self, src, dst, point):
        """Routed hops a packet from src to dst crosses before `point`."""
        if self.bridged:
            return 0
        for h0, pts, h1, _, sws in self.paths:
            if (h0, h1) == (src, dst):
                return sum(len(x) for x in sws[:pts.index(point) + 1])
            if (h1, h0) == (src, dst):
                return sum(len(x) for x in sws[pts.index(point) + 1:])
        raise KeyError((src, dst))

    # -- link-local frames ---------------------------------------------------

    def _port(self, opts):
        """(name, mac) of from=NODE: a host's NIC or a switch's port."""
        name = opts['from']
        return name, self.port_macs.get(name, self.mac_of(name))

    @staticmethod
    def _times(opts):
        at = duration(opts['at'])
        if 'until' in opts:
            every = duration(opts['every'])
            return [at + k * every for k in range((duration(opts['until']) - at) // every + 1)]
        every = duration(opts['every']) if 'every' in opts else 0
        return [at + k * every for k in range(int(opts.get('repeat', 1)))]

    def _pfc(self, d, pos, opts):
        prios = [int(p) for p in opts['prio'].split(',')]
        quanta = [0] * 8
        if d == 'pfc':
            qs = [int(q, 0) for q in opts['quanta'].split(',')]
            for i, p in enumerate(prios):
                quanta[p] = qs[0] if len(qs) == 1 else qs[i]
        name, mac = self._port(opts)
        return {
            'point': pos[0], 'name': name, 'mac': mac,
            'enable': sum(1 << p for p in prios), 'quanta': quanta,
            'reserved': int(opts.get('reserved', '0'), 0),
            'truncate': int(opts['truncate']) if 'truncate' in opts else None,
            'dst': opts.get('dst', '01:80:c2:00:00:01').lower(),
            'storm': 'storm' in pos[1:], 'times': self._times(opts),
        }

    @staticmethod
    def _ets(opts):
        """(TC by priority, % by class, strict classes), or None without ets=."""
        if 'ets' not in opts:
            return None
        tc, bw = [0] * 8, [0] * 8
        for e in opts['ets'].split(','):
            p, c = e.split(':')
            tc[int(p)] = int(c)
        for e in opts.get('etsbw', '').split(',') if opts.get('etsbw') else []:
            c, pct = e.split(':')
            bw[int(c)] = int(pct)
        strict = [int(c) for c in opts['strict'].split(',')] if 'strict' in opts else []
        return tc, bw, strict

    def _lldp(self, pos, opts):
        name, mac = self._port(opts)
        pfc = None
        if 'pfc' in opts:
            pfc = 0 if opts['pfc'] == 'none' else sum(1 << int(p) for p in opts['pfc'].split(','))
        app = [tuple(int(x) for x in e.split(':')) for e in opts['app'].split(',')] if 'app' in opts else []
        return {
            'point': pos[0], 'name': name, 'mac': mac, 'port': opts.get('port', name),
            'pfc': pfc, 'app': app,  # app: (dscp, prio)
            'maxframe': int(opts['maxframe']) if 'maxframe' in opts else None,
            'ets': self._ets(opts),
            'willing': int(opts.get('willing', 0)), 'mbc': int(opts.get('mbc', 0)), 'cap': int(opts.get('cap', 8)),
            'ttl': int(opts.get('ttl', 120)), 'times': self._times(opts),
        }

    def gbps_of(self, point):
        return self.speed.get(point, self.link_gbps)

    def next_node(self, src, dst, point):
        """The end of the tapped link a packet from src to dst goes to at `point`."""
        return self.link_ends(src, dst, point)[1]

    def route(self, src, dst):
        """Points a packet from host src to host dst passes, in order."""
        for h0, pts, h1, _, _ in self.paths:
            if (h0, h1) == (src, dst):
                return pts
            if (h1, h0) == (src, dst):
                return list(reversed(pts))
        raise KeyError((src, dst))

    def latency_to(self, src, dst, point):
        """Sum of the segment latencies from host src to `point`, towards dst."""
        for h0, pts, h1, lat, _ in self.paths:
            if (h0, h1) == (src, dst):
                return sum(lat[:pts.index(point) + 1])
            if (h1, h0) == (src, dst):
                return sum(list(reversed(lat))[:list(reversed(pts)).index(point) + 1])
        raise KeyError((src, dst))

    def tap_missed(self, src, qpn, psn):
        """The points whose tap a `tapmiss` directive makes miss some transmission of
        the request of `src` to QPN `qpn` at `psn` (which ones: the generator counts)."""
        out = set()
        for name, host, first, last, point in self.tap_misses:
            q = self.qp(name)
            side = q.hosts.index(host)
            if host == src and q.qpns[1 - side] == qpn and q.psn is not None and \
                    first <= (psn - q.psn[side]) % (1 << 24) <= last:
                out.add(point)
        return out

    def records(self, point, src, dst):
        d = self.only_dir.get(point)
        return d is None or d == (src, dst)

    def snaplen_of(self, point):
        """The snaplen of the interface that records `point`."""
        return self.point_snaplen.get(self.interface_of(point), self.snaplen)

    def interface_of(self, point):
        """The pcapng interface a point's frames are on: its own, or its collector's."""
        e = self.erspan.get(point)
        return e['collector'] if e and e['collector'] else point

    def interfaces(self):
        return [p for p in self.points if self.interface_of(p) == p]

    def shift_of(self, point):
        """File timestamp minus the true time: the interface's clock, plus the way to a collector."""
        e = self.erspan.get(point)
        return self.clock.get(self.interface_of(point), 0) + (e['latency'] if e else 0)

    def erspan_overhead(self, point):
        """Bytes of outer headers before the mirrored frame."""
        e = self.erspan.get(point)
        return 0 if e is None else 14 + 20 + 8 + (12 if e['type'] == 3 else 8)

    def queues_at(self, point, src, dst, kind=None):
        return [q for q in self.queues if q['point'] == point and q['dir'] in (None, (src, dst))
                and not (q['cnp_strict'] and kind == 'cnp')]

    def find_qp(self, src, dst, dest_qpn):
        """QPs whose end at host dst has QPN dest_qpn and whose other end is src."""
        out = []
        for q in self.qps:
            for s in (0, 1):
                if q.hosts[s] == dst and q.qpns[s] == dest_qpn and q.hosts[1 - s] == src:
                    out.append((q, 1 - s))  # (qp, side of the sender)
        return out


    # -- best-effort flows ---------------------------------------------------

    def upstream(self, flow):
        """The point before the flow's point on its way: where its packets are recorded first."""
        route = self.route(*flow['dir'])
        return route[route.index(flow['point']) - 1]

    def flow_traffic(self, flow):
        """(VLAN id or None, IPv6?) of a flow: the first tagged QP's VLAN between its hosts; IPv6 when
        every QP between them is RoCEv2 over IPv6."""
        qps = [q for q in self.qps if set(q.hosts) == set(flow['dir'])]
        vlan = next((q.vlan for q in qps if q.vlan is not None), None)
        return vlan, bool(qps) and all(q.ver == 'v2-ipv6' for q in qps)

    def flow_size(self, flow):
        """Its whole frames: size=, else a 1500-byte IP packet."""
        return flow['size'] or (1518 if self.flow_traffic(flow)[0] is not None else 1514)

    def flows_at(self, point, src, dst):
        return [f for f in self.besteffort if f['point'] == point and f['dir'] == (src, dst)]


def backlog(q, t):
    """What a queue burst makes a frame reaching the queue at t wait at
    least: growing linearly to the delay over for=, then draining at one ns
    per ns."""
    at, length, delay = q['at'], q['for'], q['delay']
    if t < at or t >= at + length + delay:
        return 0
    if t < at + length:
        return delay * (t - at) // length
    return delay - (t - at - length)


def quanta_ns(quanta, gbps):
    """How long a PFC pause lasts: quanta x 512 bit times, in ns rounded up."""
    mbps = round(gbps * 1000)
    ps = -(-quanta * 512 * 1000000 // mbps)
    return -(-ps // 1000)


# Opcode facts, written out from IBA vol. 1 table 38.
FIRST = {0x00, 0x06, 0x0D}
MIDDLE = {0x01, 0x07, 0x0E}
LAST = {0x02, 0x03, 0x08, 0x09, 0x0F}
ONLY = {0x04, 0x05, 0x0A, 0x0B, 0x0C, 0x10, 0x13, 0x14}
RETH = {0x06, 0x0A, 0x0B, 0x0C}
ATOMIC = {0x13: 'cmpswap', 0x14: 'fetchadd'}  # with an AtomicETH (28 bytes)
ATOMIC_ACK = 0x12                             # AETH, then the AtomicAckETH (8 bytes)
IMM = {0x03, 0x05, 0x09, 0x0B}
AETH = {0x0D, 0x0F, 0x10, 0x11, 0x12}
READ_RESPONSES = {0x0D, 0x0E, 0x0F, 0x10}


def request_opcodes(kind, length, imm, mtu):
    """The request packets of a message: [(opcode, payload bytes)]."""
    if kind == 'read':
        return [(0x0C, 0)]
    if kind in ATOMIC.values():
        return [(0x13 if kind == 'cmpswap' else 0x14, 0)]
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
