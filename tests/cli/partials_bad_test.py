# SPDX-License-Identifier: GPL-2.0-or-later
"""Bad partial reports (issue 30): a missing, duplicated or mismatched
shard, a truncated or corrupt partial, something else given as one, and a
partial made by hand that is well framed but holds values the decoder never
gives: each is a clear error naming the file, exit 2 and nothing on the
standard output, never a smaller report. Partials are read here with the
layout docs/partial-format.md gives, so the document is checked too. A
capture cut short is no error of the merge: its partial says so, and the
merged report is the whole's, cut short alike."""
import json
import os
import shutil
import struct
import tempfile
import zlib

import cli  # noqa: E402
import rslib  # noqa: E402

MAGIC, END = b"RSPART1\n", b"RSPEND1\n"
FOOTER = struct.Struct("<QII8s")  # trailer offset, trailer length, crc, END


def varint(data, at):
    """A LEB128 number at `at`: (value, the offset after it)."""
    v = shift = 0
    while True:
        b = data[at]
        v |= (b & 0x7F) << shift
        at += 1
        shift += 7
        if not b & 0x80:
            return v, at


def record_head(data, at):
    """kind, (number step, interface, wire length, time step) and the payload's (start, length)."""
    kind, fields, pos = data[at], [], at + 1
    for _ in range(5):
        v, pos = varint(data, pos)
        fields.append(v)
    return kind, fields[:4], pos, fields[4]


def parse(data):
    """(manifest, trailer, head bytes) of a partial, per docs/partial-format.md."""
    assert data[:8] == MAGIC
    (mlen,) = struct.unpack_from("<I", data, 8)
    head = data[:12 + mlen]
    at, tlen, crc, end = FOOTER.unpack_from(data, len(data) - FOOTER.size)
    assert end == END and zlib.crc32(head + data[at:at + tlen]) == crc
    return json.loads(data[12:12 + mlen]), json.loads(data[at:at + tlen]), head


def records(data, section):
    """(offset, kind, payload start, payload length) of one file's records."""
    at, stop = section["offset"], section["offset"] + section["length"]
    while data[at] != 0:
        kind, _, start, n = record_head(data, at)
        yield at, kind, start, n
        at = start + n
    assert at + 1 == stop and zlib.crc32(data[section["offset"]:stop]) == section["crc"]


def pcp_offset(data, start):
    """Where a RoCE record's PCP lies: its fields up to it, per record_codec.cpp."""
    at = start
    def byte():
        nonlocal at
        at += 1
        return data[at - 1]
    def num():
        nonlocal at
        _, at = varint(data, at)
    def address():
        nonlocal at
        at += 1 + byte()
    byte(), num(), num(), num(), byte(), address(), address()  # truncated, frame, ts, point, encap, src, dst
    byte(), num(), num(), byte(), byte(), byte()  # opcode, dest_qp, psn, ack_req, fecn, becn
    if byte():  # has_aeth
        byte(), num()
    if byte():  # has_reth
        num()
    if byte():  # has_atomic_eth
        num(), num(), num(), num()
    num(), num(), num(), byte(), byte()  # payload_len, frame_len, ip_len, ecn, dscp
    return at


def reseal(data, section, new_records):
    """The partial with one file's records replaced, every checksum made good."""
    manifest, trailer, head = parse(data)
    start = section["offset"]
    body = data[start:start + section["length"]]
    body = new_records(body)
    rest_start = start + section["length"]
    out = bytearray(data[:start] + body + data[rest_start:trailer_offset(data)])
    for s in trailer["files"]:
        if s["file"] == section["file"]:
            s["length"], s["crc"] = len(body), zlib.crc32(body)
    t = json.dumps(trailer, separators=(",", ":")).encode()
    at = len(out)
    out += t
    out += FOOTER.pack(at, len(t), zlib.crc32(head + t), END)
    return bytes(out)


def trailer_offset(data):
    return FOOTER.unpack_from(data, len(data) - FOOTER.size)[0]


def expect_error(what, args, *words):
    status, out, err = cli.command("merge", "report", *args)
    if status != 2 or out or not all(w in err for w in words):
        raise rslib.Failure(f"{what}: exit {status}, {len(out)} bytes out, stderr {err!r}; want 2, none, {words}")
    print(f"{what}: {err.strip()}")


def partial(*args):
    status, _, err = cli.command("partial", *args)
    if status != 0:
        raise rslib.Failure(f"partial {args}: exit {status}: {err}")


def run(argv):
    cap = rslib.capture_path("multipoint")
    other = rslib.capture_path("gbn")
    with tempfile.TemporaryDirectory() as tmp:
        p = [os.path.join(tmp, f"s{k}.rsp") for k in range(3)]
        for k in range(3):
            partial("-w", p[k], "--shard", f"{k}/3", cap)
        # The three merge (the equality itself is partials_test.py's).
        if cli.command("merge", "report", *p)[0] != 0:
            raise rslib.Failure("the three shards do not merge")

        expect_error("a shard missing", [p[0], p[2]], "shard 1/3", "missing", cap)
        dup = os.path.join(tmp, "again.rsp")
        shutil.copy(p[1], dup)
        expect_error("a shard twice", [p[0], p[1], dup, p[2]], "twice", "again.rsp", "s1.rsp")
        q = os.path.join(tmp, "other.rsp")
        partial("-w", q, "--shard", "1/3", other)
        expect_error("a shard of other inputs", [p[0], q, p[2]], "other.rsp", "input files")
        partial("-w", q, "--shard", "1/3", "-o", "roce.clock:estimate", cap)
        expect_error("a shard of other preferences", [p[0], q, p[2]], "other.rsp", "-o preferences")
        partial("-w", q, "--shard", "1/4", cap)
        expect_error("a shard of another count", [p[0], q, p[2]], "other.rsp", "shard counts")
        expect_error("a capture given as a partial", [cap], cap, "not a roceshark partial report")
        empty = os.path.join(tmp, "empty.rsp")
        open(empty, "wb").close()
        expect_error("an empty file", [empty], "empty.rsp", "not a roceshark partial report")
        expect_error("no such file", [os.path.join(tmp, "nothing.rsp")], "nothing.rsp", "No such file")

        data = open(p[2], "rb").read()
        bad = os.path.join(tmp, "bad.rsp")
        for cut in (9, 12, len(data) // 2, len(data) - 1):
            open(bad, "wb").write(data[:cut])
            expect_error(f"cut at byte {cut} of {len(data)}", [p[0], p[1], bad], "bad.rsp", "ends early")
        manifest, trailer, _ = parse(data)
        section = trailer["files"][0]
        for where, what in ((20, "manifest"), (section["offset"] + 30, "records")):
            flipped = bytearray(data)
            flipped[where] ^= 0x40
            open(bad, "wb").write(flipped)
            expect_error(f"a bit flipped in the {what}", [p[0], p[1], bad], "bad.rsp", "checksum")

        # Well framed, checksums good, but a value the decoder never gives:
        # a RoCE record's PCP (byte offsets per record_codec.cpp's field list).
        first_roce, start, n = next((at, start, n) for at, kind, start, n in records(data, section) if kind == 1)

        def pcp_100(body):
            b = bytearray(body)
            off = pcp_offset(data, start) - section["offset"]
            if b[off] not in (0xFF,) + tuple(range(8)):
                raise rslib.Failure(f"byte {off} is not a PCP ({b[off]}): the field list and this test disagree")
            b[off] = 100
            return bytes(b)
        open(bad, "wb").write(reseal(data, section, pcp_100))
        expect_error("a PCP of 100", [p[0], p[1], bad], "bad.rsp", "out of range")

        def short_record(body):
            # The payload one byte shorter, its length said so: the field
            # list runs out of bytes. (A length of one LEB128 byte: < 128.)
            b = bytearray(body)
            length_at = start - 1 - section["offset"]
            if b[length_at] != n or n >= 128:
                raise rslib.Failure("the record's length is not the byte before its payload")
            b[length_at] = n - 1
            del b[start - section["offset"] + n - 1]
            return bytes(b)
        open(bad, "wb").write(reseal(data, section, short_record))
        expect_error("a record one byte short", [p[0], p[1], bad], "bad.rsp", "ends early")

        # A capture cut short: the partial keeps what was read and says so
        # (exit 1); the merge is the whole's, cut short alike.
        cut = os.path.join(tmp, "cut.pcapng")
        raw = open(cap, "rb").read()
        open(cut, "wb").write(raw[:len(raw) * 2 // 3])
        parts = [os.path.join(tmp, f"cut{k}.rsp") for k in range(2)]
        for k in range(2):
            status, _, err = cli.command("partial", "-w", parts[k], "--shard", f"{k}/2", cut)
            if status != 1 or "records before it are kept" not in err:
                raise rslib.Failure(f"partial of a cut capture: exit {status}, {err!r}")
        whole = cli.command("report", cut)
        merged = cli.command("merge", "report", *parts)
        if whole[0] != 1 or merged[:2] != whole[:2]:
            raise rslib.Failure(f"cut capture: merged exit {merged[0]}, whole {whole[0]}; same output: {merged[1] == whole[1]}")
        if "cut_short" not in merged[1] and "INCOMPLETE" not in merged[1]:
            raise rslib.Failure("the merged report of a cut capture does not say it was cut short")
        print("a capture cut short: partials exit 1, the merge is the whole's (exit 1, INCOMPLETE)")

        # The partial's own errors leave no file behind.
        out = os.path.join(tmp, "none", "x.rsp")
        status, _, err = cli.command("partial", "-w", out, cap)
        if status != 2 or os.path.exists(out) or "x.rsp" not in err:
            raise rslib.Failure(f"an unwritable -w: exit {status}, {err!r}")
        out = os.path.join(tmp, "y.rsp")
        status, _, err = cli.command("partial", "-w", out, cap, os.path.join(tmp, "missing.pcapng"))
        if status != 2 or os.path.exists(out) or os.path.exists(out + ".part") or "missing.pcapng" not in err:
            raise rslib.Failure(f"a missing input: exit {status}, {err!r}")
        for args, word in ((["--file", "2", cap], "--file 2"), (["--shard", "3/3", cap], "--shard"),
                           (["-", ], "'-'"), ([cap], "-w")):
            status, _, err = cli.command("partial", *(["-w", out] if word != "-w" else []), *args)
            if status != 2 or word not in err:
                raise rslib.Failure(f"partial {args}: exit {status}, {err!r}")
        print("partial's own errors: exit 2, named, no file left")
        d = os.path.join(tmp, "shards")
        for args, word in ((["-w", d, cap], "-n"), (["-n", "0", "-w", d, cap], "-n 0"),
                           (["-n", "257", "-w", d, cap], "-n 257"), (["-n", "2", "--shard", "1/2", "-w", d, cap], "--shard"),
                           (["-n", "2", cap], "-w DIR"), (["-n", "2", "-w", cap + "/x", cap], cap)):
            status, _, err = cli.command("split", *args)
            if status != 2 or word not in err or os.path.exists(d):
                raise rslib.Failure(f"split {args}: exit {status}, {err!r}")
        status, _, err = cli.command("split", "-n", "2", "-w", d, cap, os.path.join(tmp, "missing.pcapng"))
        left = os.listdir(d) if os.path.exists(d) else []
        if status != 2 or left or "missing.pcapng" not in err:
            raise rslib.Failure(f"split of a missing input: exit {status}, left {left}, {err!r}")
        print("split's own errors: exit 2, named, no shard left")


rslib.main(run)
