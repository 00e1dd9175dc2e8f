# SPDX-License-Identifier: GPL-2.0-or-later
"""The RoCE conversation and endpoint tables (-z conv,roce, -z endpoints,roce;
the GUI's Statistics > Conversations and Endpoints tabs) against counting
the frames independently:

1. every stream (roce.qp.stream) is one conversation, its frames and bytes
   each way those tshark -T fields counts per stream with the addresses
   Wireshark's own dissectors give (the last ip/ipv6 occurrence, the GRH's
   GIDs for RoCEv1), its start the stream's first frame; one pass and two
   passes print the same table;
2. the conversation's filter, as Wireshark writes it from the fields the
   table names (epan-ext/report/conversation_filter.h, docs/gui.md),
   selects exactly the stream's frames: both ways, A to B, B to A;
3. the endpoints are the streams' hosts, each with the frames it sent and
   received; their Tx sum is their Rx sum is every stream frame, and an
   endpoint filter (roce.ip.addr==A) selects the stream frames to or from A;
4. a display-filtered table counts only the frames the filter keeps;
5. a capture with no RoCE (pfc_storm's PFC frames alone) gives both tables
   with no row, and no complaint.
"""
import os
import re
import shutil
import subprocess
import tempfile

import rslib

# Plain and QP reuse (three streams on one QP pair), multi-point, IPv6 and
# RoCEv1, ERSPAN-mirrored, one way only, responses paired with no QP, PFC.
# With how many streams' filters each is checked (a tshark run per filter):
# one of each address family and encapsulation is enough.
CAPTURES = {"clean": 1, "cm_reuse": 0, "multipoint": 0, "ipv6_v1": 1, "qos_clean": 0, "mp_erspan": 1,
            "one_direction": 0, "pair_ambiguous": 0, "demo": 0}
FILTERED = ("mp_drop", 'frame.interface_name == "leaf-1"')

ROW = re.compile(r"^(\S+)\s+<->\s+(\S+)\s+(\d+)\s+(\d+ \S+)\s+(\d+)\s+(\d+ \S+)\s+(\d+)\s+(\d+ \S+)\s+([\d.]+)\s+([\d.]+)\s*$")
PREFIXES = ["bytes", "kB", "MB", "GB", "TB"]


def size_ok(text, n):
    """Wireshark prints a byte count as "N bytes", or in kB, MB, ... cut to an integer."""
    value, unit = text.split()
    k = PREFIXES.index(unit)
    return int(value) == n // 1000 ** k


def section(text, title):
    """The lines of one table of a -z printout, after its header."""
    lines = text.splitlines()
    start = lines.index(title)
    body = []
    for line in lines[start + 1:]:
        if line.startswith("====="):
            break
        body.append(line)
    return body


def conversations(text):
    rows = []
    for line in section(text, "RoCE Conversations"):
        m = ROW.match(line)
        if m:
            g = m.groups()
            rows.append({"a": g[0].rsplit(":", 1)[0] if g[0].count(":") == 1 else g[0],
                         "b": g[1].rsplit(":", 1)[0] if g[1].count(":") == 1 else g[1],
                         "to_a": int(g[2]), "to_a_bytes": g[3], "from_a": int(g[4]), "from_a_bytes": g[5],
                         "frames": int(g[6]), "bytes": g[7], "start": float(g[8])})
    return rows


def endpoints(text):
    """Per host: packets, bytes, Tx packets, Tx bytes, Rx packets, Rx bytes, each as printed (bytes as a
    plain number up to 4.4, "N bytes" or "N kB" from 4.6)."""
    rows = {}
    for line in section(text, "RoCE Endpoints")[2:]:
        tokens = line.split()
        cells = []
        for t in tokens[1:]:
            if t in PREFIXES and cells:
                cells[-1] += " " + t
            else:
                cells.append(t)
        if len(cells) == 6:
            rows[tokens[0]] = cells
    return rows


def endpoint_ok(cells, counted):
    """A printed endpoint row against the counted [packets, bytes, tx, tx bytes, rx, rx bytes]."""
    for i, (text, n) in enumerate(zip(cells, counted)):
        if " " in text:
            if i % 2 == 0 or not size_ok(text, n):
                return False
        elif int(text) != n:
            return False
    return True


def stream_frames(capture, flt=None):
    """Per RoCE stream frame: (number, stream, length, relative time, source, destination), from Wireshark's
    own address fields."""
    fields = ["frame.number", "roce.qp.stream", "frame.len", "frame.time_relative", "ip.src", "ip.dst",
              "ipv6.src", "ipv6.dst", "infiniband.grh.sgid", "infiniband.grh.dgid"]
    args = ["-n", "-2", "-r", capture, "-Y", f"roce.qp.stream{' && (' + flt + ')' if flt else ''}", "-T", "fields",
            "-E", "separator=/t", "-E", "occurrence=l"]
    for f in fields:
        args += ["-e", f]
    out = []
    for line in rslib.tshark(*args).splitlines():
        c = line.split("\t")
        src, dst = (c[8], c[9]) if c[8] else (c[6], c[7]) if c[6] else (c[4], c[5])
        out.append((int(c[0]), int(c[1]), int(c[2]), float(c[3]), src, dst))
    return out


def selected(capture, flt):
    out = rslib.tshark("-n", "-2", "-r", capture, "-Y", flt, "-T", "fields", "-e", "frame.number")
    return {int(x) for x in out.split()}


def field(stream, v4, side):
    """What the table answers Wireshark for a filter's address (conversation_filter.cpp)."""
    name = {"src": "src", "dst": "dst", "any": "addr"}[side]
    return f"roce.qp.stream == {stream} && roce.{'ip' if v4 else 'ipv6'}.{name}"


def check(name, flt=None, filter_checks=1):
    capture = rslib.capture_path(name)
    where = f"{name}{', ' + flt if flt else ''}"

    def fail(msg):
        raise rslib.Failure(f"{where}: {msg}")

    z = f",{flt}" if flt else ""
    one = rslib.tshark("-n", "-q", "-r", capture, "-z", f"conv,roce{z}", "-z", f"endpoints,roce{z}")
    two = rslib.tshark("-n", "-q", "-2", "-r", capture, "-z", f"conv,roce{z}", "-z", f"endpoints,roce{z}")
    if one != two:
        fail(f"one pass and two passes differ:\n{one}\n---\n{two}")
    frames = stream_frames(capture, flt)
    if not frames:
        fail("no stream frames: the case tests nothing")

    # 1. Each stream: A is its first frame's source.
    streams = {}
    for num, s, length, t, src, dst in frames:
        st = streams.setdefault(s, {"a": src, "b": dst, "from_a": [], "to_a": [], "start": t})
        if {src, dst} != {st["a"], st["b"]}:
            fail(f"stream {s} has frame {num} {src} -> {dst}, not between {st['a']} and {st['b']}")
        st["from_a" if src == st["a"] else "to_a"].append((num, length))
    rows = conversations(one)
    if len(rows) != len(streams):
        fail(f"{len(rows)} conversations, {len(streams)} streams:\n{one}")
    unmatched = list(rows)
    for s, st in sorted(streams.items()):
        from_a, to_a = st["from_a"], st["to_a"]
        want = {"a": st["a"], "b": st["b"], "to_a": len(to_a), "from_a": len(from_a),
                "frames": len(to_a) + len(from_a)}
        match = [r for r in unmatched if all(r[k] == v for k, v in want.items())
                 and size_ok(r["to_a_bytes"], sum(n for _, n in to_a))
                 and size_ok(r["from_a_bytes"], sum(n for _, n in from_a))
                 and size_ok(r["bytes"], sum(n for _, n in to_a + from_a))
                 and abs(r["start"] - st["start"]) < 1e-6]
        if not match:
            fail(f"stream {s} ({want}, bytes {sum(n for _, n in from_a)}/{sum(n for _, n in to_a)}) "
                 f"is no conversation of\n{one}")
        unmatched.remove(match[0])

    # 2. The filters Wireshark writes from the table's fields.
    for s, st in sorted(streams.items())[:filter_checks]:
        v4 = "." in st["a"]
        a, b = st["a"], st["b"]
        everything = {n for n, *_ in st["from_a"] + st["to_a"]}
        cases = {
            "A<->B": (f"{field(s, v4, 'any')}=={a} && {field(s, v4, 'any')}=={b}", everything),
            "A->B": (f"{field(s, v4, 'src')}=={a} && {field(s, v4, 'dst')}=={b}", {n for n, _ in st["from_a"]}),
            "A<-B": (f"{field(s, v4, 'dst')}=={a} && {field(s, v4, 'src')}=={b}", {n for n, _ in st["to_a"]}),
            "A<->any": (f"{field(s, v4, 'any')}=={a}", everything),
        }
        for what, (text, want) in cases.items():
            got = selected(capture, f"({text}){' && (' + flt + ')' if flt else ''}")
            if got != want:
                fail(f"stream {s} {what}: {text} selects {sorted(got ^ want)} wrongly")

    # 3. Endpoints: the hosts, what each sent and received.
    hosts = {}
    for _, _, length, _, src, dst in frames:
        for h, tx in ((src, True), (dst, False)):
            e = hosts.setdefault(h, [0, 0, 0, 0, 0, 0])
            e[0] += 1
            e[1] += length
            e[2 if tx else 4] += 1
            e[3 if tx else 5] += length
    got = endpoints(one)
    if got.keys() != hosts.keys() or not all(endpoint_ok(got[h], hosts[h]) for h in hosts):
        fail(f"endpoints {got}, counted {hosts}")
    tx, rx = (sum(int(e[i]) for e in got.values()) for i in (2, 4))
    if tx != rx or tx != len(frames) or tx != sum(r["frames"] for r in rows):
        fail(f"endpoint Tx {tx}, Rx {rx}, stream frames {len(frames)}, "
             f"conversation frames {sum(r['frames'] for r in rows)}")
    for h in list(got)[:min(filter_checks, 2)]:
        want = {n for n, _, _, _, src, dst in frames if h in (src, dst)}
        text = f"roce.{'ip' if '.' in h else 'ipv6'}.addr=={h}"
        if selected(capture, f"({text}){' && (' + flt + ')' if flt else ''}") != want:
            fail(f"endpoint filter {text} selects other frames than the host's stream frames")
    return len(rows)


def check_no_roce():
    tmp = tempfile.mkdtemp()
    try:
        path = os.path.join(tmp, "pfc_only.pcapng")
        subprocess.run(["tshark", "-r", rslib.capture_path("pfc_storm"), "-Y", "!infiniband", "-w", path],
                       check=True, capture_output=True)
        os.chmod(tmp, 0o755)
        os.chmod(path, 0o644)
        if not int(subprocess.run(["capinfos", "-Mc", path], capture_output=True, text=True).stdout.split()[-1]):
            raise rslib.Failure("the PFC-only capture is empty: the case tests nothing")
        out = rslib.tshark("-n", "-q", "-r", path, "-z", "conv,roce", "-z", "endpoints,roce")
        if conversations(out) or endpoints(out) or "RoCE Conversations" not in out or "RoCE Endpoints" not in out:
            raise rslib.Failure(f"no RoCE, yet:\n{out}")
        for line in section(out, "RoCE Conversations")[3:] + section(out, "RoCE Endpoints")[2:]:
            if line.strip():
                raise rslib.Failure(f"no RoCE, yet a row: {line}")
    finally:
        shutil.rmtree(tmp)


def run(argv):
    names = argv or list(CAPTURES)
    total = 0
    for name in names:
        total += check(name, filter_checks=CAPTURES.get(name, 1))
    if not argv:
        total += check(*FILTERED)
        check_no_roce()
    print(f"{total} conversations in {len(names)} captures match the streams' frames")


if __name__ == "__main__":
    rslib.main(run)
