# SPDX-License-Identifier: GPL-2.0-or-later
"""Shared by scripts/roce-compare and scripts/roce-plot: read one
`-z roce,report` document (docs/report-schema.json, version 2 or later),
either from a JSON file or by running tshark with the plugin on a capture.

A capture is run as `scripts/rs-tshark [--build DIR] -n -q -r FILE
[tshark options] -z roce,report` from the repository this file is in;
rs-tshark picks the build tree from --build, else ROCESHARK_BUILD, else
build/ (docs/compare-and-plot.md)."""
import json
import math
import os
import subprocess
import sys

SCHEMA = "roceshark-report"
MIN_VERSION = 2
HERE = os.path.dirname(os.path.realpath(__file__))
RS_TSHARK = os.path.join(HERE, "rs-tshark")

# pcapng section header; pcap in both byte orders, microsecond and
# nanosecond; gzip (tshark reads compressed captures).
CAPTURE_MAGIC = (b"\x0a\x0d\x0d\x0a", b"\xd4\xc3\xb2\xa1", b"\xa1\xb2\xc3\xd4", b"\x4d\x3c\xb2\xa1",
                 b"\xa1\xb2\x3c\x4d", b"\x1f\x8b")
CAPTURE_SUFFIXES = (".pcapng", ".pcap", ".cap", ".pcapng.gz", ".pcap.gz")


class InputError(Exception):
    """A bad input, command line or tshark run: exit status 2."""


def split_tshark_args(argv):
    """(own arguments, tshark arguments): everything after the first `--`
    goes to tshark."""
    if "--" in argv:
        i = argv.index("--")
        return argv[:i], argv[i + 1:]
    return argv, []


def is_capture(path):
    if path.lower().endswith(CAPTURE_SUFFIXES):
        return True
    try:
        with open(path, "rb") as f:
            head = f.read(4)
    except OSError as e:
        raise InputError(f"{path}: {e.strerror}")
    return any(head.startswith(m) for m in CAPTURE_MAGIC)


def run_tshark(capture, tshark_args=(), build=None):
    """The report tshark prints for a capture, as text."""
    cmd = [RS_TSHARK] + (["--build", build] if build else []) + \
          ["-n", "-q", "-r", capture, *tshark_args, "-z", "roce,report"]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True)
    except OSError as e:
        raise InputError(f"cannot run {RS_TSHARK}: {e.strerror}")
    if p.returncode != 0:
        detail = p.stderr.strip() or "(no message)"
        raise InputError(f"{capture}: tshark failed (exit {p.returncode}): {detail}")
    return p.stdout


def parse(text, source):
    """A report document, checked to be a roceshark report of version 2 or later."""
    try:
        doc = json.loads(text)
    except ValueError as e:
        raise InputError(f"{source}: not a JSON report ({e})")
    if not isinstance(doc, dict) or doc.get("schema") != SCHEMA:
        got = doc.get("schema") if isinstance(doc, dict) else type(doc).__name__
        raise InputError(f"{source}: not a roceshark report (schema {got!r}, expected {SCHEMA!r})")
    version = doc.get("version")
    if not isinstance(version, int) or isinstance(version, bool) or version < MIN_VERSION:
        raise InputError(f"{source}: report version {version!r} has no triage section; "
                         f"version {MIN_VERSION} or later is needed (a newer roceshark plugin)")
    for key, kind in (("triage", dict), ("capture", dict), ("hops", list), ("pfc", dict)):
        if key in doc and not isinstance(doc[key], kind):
            raise InputError(f"{source}: malformed report: {key!r} is not a JSON {kind.__name__}")
    return doc


def load(path, tshark_args=(), build=None):
    """The report of `path`: a report JSON file, or a capture run through tshark."""
    if not os.path.exists(path):
        raise InputError(f"{path}: no such file")
    if not os.path.isfile(path):
        raise InputError(f"{path}: not a regular file")
    if is_capture(path):
        return parse(run_tshark(path, tshark_args, build), path)
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except (OSError, UnicodeDecodeError) as e:
        raise InputError(f"{path}: cannot read: {e}")
    return parse(text, path)


def section(doc, *keys, default=None):
    """doc[k1][k2]..., or `default` when a level is missing or not an object."""
    cur = doc
    for k in keys:
        if not isinstance(cur, dict) or k not in cur:
            return default
        cur = cur[k]
    return cur


def items(value):
    """The dict elements of a list (anything else gives none)."""
    return [x for x in value if isinstance(x, dict)] if isinstance(value, list) else []


def number(value, default=0):
    """A JSON number as a Python number; null, booleans and strings give `default`."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or \
            (isinstance(value, float) and not math.isfinite(value)):
        return default
    return value


def fmt_num(v):
    """A value for a table: integers whole, others to four significant digits."""
    if v is None:
        return "n/a"
    if float(v).is_integer() and abs(v) < 1e15:
        return str(int(v))
    return f"{v:.1f}" if abs(v) >= 1000 else f"{v:.4g}"


def fmt_ns(ns, micro="µs"):
    """A duration in the unit that suits it: ns, µs, ms or s."""
    ns = number(ns)
    for scale, unit in ((1e9, "s"), (1e6, "ms"), (1e3, micro)):
        if abs(ns) >= scale:
            return f"{fmt_num(round(ns / scale, 3 if abs(ns) < 10 * scale else 2))} {unit}"
    return f"{fmt_num(ns)} ns"


def fmt_share(share):
    """A fraction 0..1 as a percentage."""
    if share is None:
        return "n/a"
    pct = number(share) * 100
    if pct == 0:
        return "0%"
    if abs(pct) < 0.01:
        return "<0.01%"
    return f"{pct:.3g}%"


_CONTROL = {c: f"\\x{c:02x}" for c in [*range(0x20), 0x7F, *range(0x80, 0xA0)]}
_CONTROL.update({ord("\n"): "\\n", ord("\r"): "\\r", ord("\t"): "\\t"})


def printable(text):
    """Text from a report, safe for a terminal and for XML: control characters
    (which an older report may carry from an interface name) as escapes."""
    return str(text).translate(_CONTROL)


def main(fn, prog):
    """Run a tool body; an InputError prints `prog: message` and exits 2."""
    try:
        sys.exit(fn(sys.argv[1:]) or 0)
    except InputError as e:
        print(f"{prog}: {e}", file=sys.stderr)
        sys.exit(2)
    except BrokenPipeError:
        sys.exit(0)
