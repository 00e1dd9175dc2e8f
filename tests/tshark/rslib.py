# SPDX-License-Identifier: GPL-2.0-or-later
"""Shared by the tshark tests: run tshark with the plugin, read fields."""
import csv
import io
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUILD = os.environ.get("ROCESHARK_BUILD", os.path.join(ROOT, "build"))
RS_TSHARK = os.path.join(ROOT, "scripts", "rs-tshark")


def _ws_version():
    """The Wireshark minor version the build is for ("4.4"), as CMake wrote it."""
    with open(os.path.join(BUILD, "wireshark-version")) as f:
        return f.read().strip()


WS_VERSION = _ws_version()
PLUGIN_SUBDIR = os.path.join(WS_VERSION, "epan")  # under a plugin directory
PLUGIN_SO = os.path.join(BUILD, "plugins", PLUGIN_SUBDIR, "roceshark.so")
CAPTURES = os.path.join(ROOT, "captures")
GOLDEN = os.path.join(ROOT, "tests", "golden")

# The fields every golden and truth test reads: one list, one order.
FIELDS = [
    "frame.number", "frame.interface_name", "infiniband.bth.opcode", "infiniband.bth.destqp",
    "infiniband.bth.psn", "roce.qp.stream", "roce.role", "roce.seq", "roce.seq.expected_psn",
    "roce.seq.gap", "roce.seq.retransmission", "roce.seq.original_frame", "roce.seq.nak_frame", "roce.seq.qp_reuse",
    "roce.seq.duplicate", "roce.seq.reorder_depth", "roce.seq.ambiguous", "roce.seq.reorder_nak", "roce.ack.kind", "roce.ack.nak", "roce.ack.duplicate",
    "roce.ack.request_frame", "roce.ack.rtt_ns", "roce.ack.covered", "roce.cnp", "roce.fecn",
    "roce.becn", "roce.icrc_status",
    "roce.priority", "roce.pfc.paused", "roce.pfc.pause_frame", "roce.pfc.stall_ns", "roce.pfc.lossy_queue",
    "roce.pfc.priority", "roce.pfc.pause_ns", "roce.pfc.xon", "roce.pfc.storm", "roce.pfc.no_ecn",
    "roce.pfc.wrong_class", "roce.pfc.propagation", "roce.pfc.reserved_bits", "roce.pfc.nonstandard_dst",
    "roce.pfc.truncated",
    "roce.qos.priority", "roce.qos.dscp_not_lossless", "roce.qos.pcp_mismatch", "roce.qos.ecn_not_capable",
    "roce.qos.cnp_class", "roce.qos.inconsistent_marking", "roce.dcbx.finding",
    "roce.hop.prev_point_name", "roce.hop.prev_frame", "roce.hop.latency_ns", "roce.hop.queue_ns",
    "roce.hop.remarked", "roce.hop.ce_set", "roce.hop.ttl_delta", "roce.hop.microburst", "roce.hop.clock_skew",
    "roce.hop.lost_after", "roce.point.merged",
]
# Known only once a later copy is missing: tshark's second pass (-2) and the
# GUI show it, a single pass cannot (docs/multipoint.md).
LATER_PASS_FIELDS = {"roce.hop.lost_after"}

# Messages that mean the plugin or Wireshark misbehaved, whatever the exit code.
BAD_STDERR = ("Dissector bug", "CRITICAL", "assertion", "Segmentation", "Aborted")


class Failure(Exception):
    pass


def tshark(*args, env=None, check_stderr=True):
    cmd = [RS_TSHARK, "--build", BUILD, *args]
    full_env = dict(os.environ, **(env or {}))
    p = subprocess.run(cmd, capture_output=True, text=True, env=full_env, timeout=300)
    if p.returncode != 0:
        raise Failure(f"{' '.join(cmd)} exited {p.returncode}\n{p.stderr}")
    if check_stderr and any(m in p.stderr for m in BAD_STDERR):
        raise Failure(f"{' '.join(cmd)} complained:\n{p.stderr}")
    return p.stdout


ROCESHARK = os.path.join(BUILD, "roceshark")
ROCESHARK_ENV = dict(os.environ, TZ="UTC", LANG="C", LC_ALL="C")


def roceshark(*args, stdin=None):
    """The command's exit status, output and error output."""
    p = subprocess.run([ROCESHARK, *args], capture_output=True, text=True, env=ROCESHARK_ENV, timeout=600, stdin=stdin)
    return p.returncode, p.stdout, p.stderr


# Where Wireshark's own output changed between versions, the form the
# goldens hold (4.0's). Each rule names the versions and the change.
_BOOL_4_2 = {"True": "1", "False": "0"}


def canon_fields(tsv_text):
    """`-T fields` output in one form for every Wireshark version.

    4.2+: a boolean field prints as True/False, 4.0 printed 1/0."""
    def cell(c):
        return ",".join(_BOOL_4_2.get(v, v) for v in c.split(","))
    return "".join("\t".join(cell(c) for c in line.split("\t")) + "\n" for line in tsv_text.splitlines())


def canon_expert(text):
    """`-z expert` reduced to roceshark's own rows (protocol RoCE), with each
    section's count recomputed from them and empty sections left out.

    Wireshark's own expert infos come and go between versions (4.6 no longer
    notes the Ethertype trailer of short frames); they are not ours to test."""
    out, section, rows = [], None, []

    def flush():
        if section and rows:
            total = sum(int(r.split()[0]) for r in rows)
            out.extend(["", f"{section} ({total})", "=============", header, *rows])

    header = ""
    for line in text.splitlines():
        m = re.match(r"^(\w+) \((\d+)\)$", line)
        if m:
            flush()
            section, rows = m.group(1), []
        elif line.lstrip().startswith("Frequency"):
            header = line
        elif section and re.match(r"^\s*\d+\s.*\sRoCE  ", line):
            rows.append(line)
    flush()
    return "\n".join(out) + "\n"


def fields(capture, *extra):
    args = ["-n", "-r", capture, "-T", "fields", "-E", "header=y", "-E", "separator=/t", "-E", "occurrence=a"]
    for f in FIELDS:
        args += ["-e", f]
    return canon_fields(tshark(*args, *extra))


def rows(tsv_text):
    return list(csv.DictReader(io.StringIO(tsv_text), delimiter="\t"))


def capture_path(scenario):
    return os.path.join(CAPTURES, scenario + ".pcapng")


def simple_table(text, title):
    """Rows of a tshark -z <stat_tap_table> printout (the GUI tables), as
    dicts by column header."""
    lines = text.splitlines()
    start = lines.index(title + ":")
    header = [c.strip() for c in lines[start + 2].split(" |")][:-1]
    rows = []
    for line in lines[start + 4:]:
        if line.startswith("====="):
            break
        rows.append(dict(zip(header, [c.strip() for c in line.split(" |")][:-1])))
    return rows


def main(fn):
    """Run a test body; print the failure and exit 1 on Failure."""
    try:
        fn(sys.argv[1:])
    except Failure as e:
        print(f"FAIL: {e}")
        sys.exit(1)
    print("OK")
