# SPDX-License-Identifier: GPL-2.0-or-later
"""Output that cannot be trusted says so (issue 32): nothing analysed is NO
DATA, never PASS; a capture cut short is marked INCOMPLETE inside the text
and the JSON; a write that fails is an error; an interface name cannot forge
a line or drive the terminal; a boolean preference takes TRUE or FALSE only,
in tshark and in the command alike; an internal cap passed is a limit
(docs/analysis.md, "Internal caps")."""
import json
import os
import re
import struct
import subprocess
import sys
import tempfile

import jsonschema

import cli
import rslib

sys.path.insert(0, os.path.join(rslib.ROOT, "bench"))
import hostile_capture  # noqa: E402

ROCE_HEALTH = os.path.join(rslib.ROOT, "scripts", "roce-health")
ROCE_PLOT = os.path.join(rslib.ROOT, "scripts", "roce-plot")


def verdict(report_json):
    return json.loads(report_json)["triage"]["health"]["verdict"]


def nothing_analysed(tmp):
    empty = os.path.join(tmp, "empty.pcapng")
    tcp_only = os.path.join(tmp, "tcp.pcapng")
    # A capture with no frame, one with TCP only, a file of 0 bytes.
    subprocess.run(["tshark", "-r", rslib.capture_path("demo"), "-Y", "frame.number == 0", "-w", empty],
                   check=True, capture_output=True)
    subprocess.run(["tshark", "-r", rslib.capture_path("mp_besteffort_strict"), "-Y", "tcp", "-w", tcp_only],
                   check=True, capture_output=True)
    zero = os.path.join(tmp, "zero.pcapng")
    open(zero, "wb").close()
    for path, what in ((empty, "no frame at all"), (tcp_only, "TCP only"), (zero, "a 0-byte file")):
        status, out, err = cli.command("report", path)
        if status != 0 or verdict(out) != "NO DATA":
            raise rslib.Failure(f"{what}: report exit {status}, verdict {verdict(out) if out else '-'}\n{err}")
        status, out, err = cli.command("health", path)
        if status != 2 or "Overall: NO DATA" not in out or "NO DATA" not in err:
            raise rslib.Failure(f"{what}: health exit {status}, stdout {out[-300:]!r}, stderr {err!r}")
        p = subprocess.run([ROCE_HEALTH, "--build", rslib.BUILD, path], capture_output=True, text=True, timeout=300)
        if p.returncode != 2 or "NO DATA" not in p.stderr:
            raise rslib.Failure(f"{what}: roce-health exit {p.returncode}\n{p.stderr}")
    # tshark: a triage filter that selects nothing is NO DATA too.
    text = rslib.tshark("-n", "-q", "-r", rslib.capture_path("demo"), "-z", "roce,triage,ip.addr==192.0.2.99")
    if "Overall: NO DATA" not in text:
        raise rslib.Failure(f"a filter that selects nothing: {text[-400:]}")
    print("nothing analysed: NO DATA in the report, exit 2 from health and roce-health")


def cut_short(tmp):
    cut = os.path.join(tmp, "cut.pcapng")
    with open(rslib.capture_path("demo"), "rb") as f, open(cut, "wb") as o:
        o.write(f.read()[:150000])
    status, out, err = cli.command("triage", cut)
    if status != 1 or not re.search(r"^Limit: +The capture was cut short \(.*cut\.pcapng", out, re.M) \
            or "Overall: INCOMPLETE" not in out:
        raise rslib.Failure(f"a cut capture's triage does not say so (exit {status}):\n{out[-800:]}")
    status, out, err = cli.command("report", cut)
    doc = json.loads(out)
    if status != 1 or [x["name"] for x in doc["limits"]] != ["cut_short"] or verdict(out) != "INCOMPLETE":
        raise rslib.Failure(f"a cut capture's report: exit {status}, limits {doc['limits']}")
    status, out, err = cli.command("health", cut)
    if status != 2 or "Overall: INCOMPLETE" not in out:
        raise rslib.Failure(f"health of a cut capture printed a verdict that is not its exit status ({status})")
    # tshark draws its statistics after the read error: they say so too, in
    # the command's words, however -r is spelt.
    for read in (["-r", cut], ["-nr", cut], [f"-r{cut}"], ["-Y", "roce", "-2", "-r", cut]):
        p = subprocess.run([rslib.RS_TSHARK, "--build", rslib.BUILD, "-q", *read, "-z", "roce,triage", "-z", "roce,report"],
                           capture_output=True, text=True, timeout=300)
        doc = next((line for line in p.stdout.splitlines() if line.startswith('{"schema"')), "")
        if "-Y" not in read and doc + "\n" != cli.command("report", cut)[1]:
            raise rslib.Failure(f"tshark {' '.join(read)}: its report of a cut capture differs from the command's:\n{doc}")
        # tshark's own exit status for a read error: 2 up to 4.4, 14 in 4.6.
        if p.returncode == 0 or "Overall: INCOMPLETE" not in p.stdout or '"name":"cut_short"' not in doc:
            raise rslib.Failure(f"tshark {' '.join(read)} on a cut capture (exit {p.returncode}) does not say so:\n"
                                f"{p.stdout[-1500:]}")
    # Whole files are not: one with blocks after its last packet (an
    # interface statistics block, as dumpcap ends a file with), and a pcap.
    isb = os.path.join(tmp, "isb.pcapng")
    with open(rslib.capture_path("demo"), "rb") as f, open(isb, "wb") as o:
        o.write(f.read() + struct.pack("<IIIII", 5, 28, 0, 0, 0) + struct.pack("<HH", 0, 0) + struct.pack("<I", 28))
    pcap = os.path.join(tmp, "demo.pcap")
    subprocess.run(["editcap", "-F", "pcap", rslib.capture_path("demo"), pcap], check=True, capture_output=True)
    for whole in (rslib.capture_path("demo"), isb, pcap):
        out = rslib.tshark("-q", "-Y", "roce", "-r", whole, "-z", "roce,report")
        if '"cut_short"' in out:
            raise rslib.Failure(f"tshark marks a whole capture as cut short: {whole}")
    cut_pcap = os.path.join(tmp, "cut.pcap")
    with open(pcap, "rb") as f, open(cut_pcap, "wb") as o:
        o.write(f.read()[:-7])
    p = subprocess.run([rslib.RS_TSHARK, "--build", rslib.BUILD, "-q", "-r", cut_pcap, "-z", "roce,report"],
                       capture_output=True, text=True, timeout=300)
    if p.returncode == 0 or '"name":"cut_short"' not in p.stdout:
        raise rslib.Failure(f"tshark on a cut pcap (exit {p.returncode}) does not say so:\n{p.stdout[-800:]}")
    html = os.path.join(tmp, "cut.html")
    report = os.path.join(tmp, "cut.json")
    with open(report, "w") as f:
        f.write(cli.command("report", cut)[1])
    subprocess.run([ROCE_PLOT, report, "-o", html], check=True, capture_output=True, timeout=120)
    with open(html) as f:
        if "Partial report" not in f.read():
            raise rslib.Failure("roce-plot draws a cut capture's report as complete")
    print("a capture cut short: INCOMPLETE in the text, the JSON, health's verdict and roce-plot's page")


def write_errors():
    demo = rslib.capture_path("demo")
    for view in cli.VIEWS + ["health"]:
        with open("/dev/full", "w") as full:
            p = subprocess.run([cli.COMMAND, view, demo], stdout=full, stderr=subprocess.PIPE, text=True,
                               env=cli.ENV, timeout=300)
        if p.returncode == 0 or "cannot write" not in p.stderr:
            raise rslib.Failure(f"roceshark {view} > /dev/full: exit {p.returncode}, stderr {p.stderr!r}")
    # A closed standard output.
    p = subprocess.run(f"exec 1>&-; exec {cli.COMMAND} triage {demo}", shell=True, stderr=subprocess.PIPE,
                       text=True, env=cli.ENV, timeout=300)
    if p.returncode == 0 or "cannot write" not in p.stderr:
        raise rslib.Failure(f"roceshark triage with stdout closed: exit {p.returncode}, stderr {p.stderr!r}")
    print("a full disk or a closed stdout: exit 2 with a message, for every view")


def hostile_names(tmp):
    # Interface names with a newline and terminal escapes, as a capture can carry them.
    src = rslib.capture_path("pfc_storm")
    named = os.path.join(tmp, "names.pcapng")
    with open(src, "rb") as f:
        data = bytearray(f.read())
    name = b"tor-1\n#1 ERROR fake\x1b]0;pwned\x07\x1b[2J"
    at = data.find(b"tor-1")
    if at < 0:
        raise rslib.Failure("pfc_storm has no interface named tor-1")
    # if_name option: code 2, its length in the two bytes before the name.
    length = int.from_bytes(data[at - 2:at], "little")
    pad = lambda n: n + (-n % 4)  # noqa: E731
    old_block_at = 0  # the block holding it (little-endian, as the generator writes)
    while old_block_at + int.from_bytes(data[old_block_at + 4:old_block_at + 8], "little") <= at:
        old_block_at += int.from_bytes(data[old_block_at + 4:old_block_at + 8], "little")
    old_len = int.from_bytes(data[old_block_at + 4:old_block_at + 8], "little")
    value = name + b"\0" * (pad(len(name)) - len(name))
    new = data[:at - 2] + len(name).to_bytes(2, "little") + value + data[at + pad(length):]
    new_len = old_len + len(value) - pad(length)
    new[old_block_at + 4:old_block_at + 8] = new_len.to_bytes(4, "little")
    new[old_block_at + new_len - 4:old_block_at + new_len] = new_len.to_bytes(4, "little")
    with open(named, "wb") as f:
        f.write(new)
    status, out, err = cli.command("triage", named)
    if status != 0 or "\x1b" in out or "\x07" in out or re.search(r"^#1 ERROR fake", out, re.M) \
            or "tor-1\\n#1 ERROR fake\\x1b]0;pwned\\a\\x1b[2J" not in out:
        raise rslib.Failure(f"a hostile interface name reached the text as it is (exit {status}):\n{out[:1500]!r}")
    text = rslib.tshark("-n", "-q", "-r", named, "-z", "roce,triage")
    if text != out:
        raise rslib.Failure("tshark and the command name the hostile point differently")
    report = os.path.join(tmp, "names.json")
    with open(report, "w") as f:
        f.write(cli.command("report", named)[1])
    svg_dir = os.path.join(tmp, "svg")
    subprocess.run([ROCE_PLOT, report, "-o", os.path.join(tmp, "names.html"), "--svg-dir", svg_dir], check=True,
                   capture_output=True, timeout=120)
    import xml.dom.minidom
    for svg in os.listdir(svg_dir):
        xml.dom.minidom.parse(os.path.join(svg_dir, svg))  # raises on a control character
    print("a hostile interface name: escaped in the text, the same in tshark, valid SVGs")


def boolean_preferences():
    icrc = rslib.capture_path("icrc_bad")
    for value in ("1", "yes", "on", "abc"):
        p = subprocess.run([rslib.RS_TSHARK, "--build", rslib.BUILD, "-n", "-q", "-r", icrc,
                            "-o", f"roce.check_icrc:{value}", "-z", "roce,triage"],
                           capture_output=True, text=True, timeout=300)
        if f"roce.check_icrc: '{value}' is not TRUE or FALSE" not in p.stderr or "icrc_bad" not in p.stdout:
            raise rslib.Failure(f"tshark -o roce.check_icrc:{value}: stderr {p.stderr!r}; the check must stay on:\n"
                                f"{p.stdout[:600]}")
        status, out, err = cli.command("-o", f"roce.check_icrc:{value}", "triage", icrc)
        if status != 2 or "is not TRUE or FALSE" not in err:
            raise rslib.Failure(f"roceshark -o roce.check_icrc:{value}: exit {status}, stderr {err!r}")
    for value in ("FALSE", "false", "False"):
        text = rslib.tshark("-n", "-q", "-r", icrc, "-o", f"roce.check_icrc:{value}", "-z", "roce,triage")
        if "icrc_bad" in text or cli.command("-o", f"roce.check_icrc:{value}", "triage", icrc)[1] != text:
            raise rslib.Failure(f"roce.check_icrc:{value} did not turn the check off in both")
    print("boolean preferences: TRUE/FALSE in any case; anything else an error in tshark and the command")


def internal_caps(tmp):
    # 65 ports pausing priority 3 at one point at once: one past the cap of
    # 64 live pause windows per (point, priority). The analysis drops the
    # oldest window; the report says so, as a limit, in tshark and the command.
    path = os.path.join(tmp, "pause65.pcapng")
    with open(path, "wb") as f:
        f.write(hostile_capture.SHB + hostile_capture.idb("leaf-1"))
        for i in range(65):
            f.write(hostile_capture.epb(0, (i + 1) * 1000, hostile_capture.pfc(bytes([2, 0x53, 0, 0, 0, i]), 3)))
    os.chmod(path, 0o644)
    status, out, err = cli.command("triage", path)
    if "Overall: INCOMPLETE" not in out or not re.search(r"^Limit: +The internal cap of 64 live pause windows", out, re.M):
        raise rslib.Failure(f"65 ports pausing at once: no cap in the triage (exit {status}):\n{out[-1200:]}")
    if rslib.tshark("-n", "-q", "-r", path, "-z", "roce,triage") != out:
        raise rslib.Failure("tshark and the command disagree on a passed cap")
    status, out, err = cli.command("report", path)
    doc = json.loads(out)
    with open(os.path.join(rslib.ROOT, "docs", "report-schema.json")) as f:
        jsonschema.Draft202012Validator(json.load(f)).validate(doc)
    if [(x["name"], x["value"], x["passed"]) for x in doc["limits"]] != [("cap_pause_windows", 64, 1)]:
        raise rslib.Failure(f"65 ports pausing at once: limits {doc['limits']}")
    report, html = os.path.join(tmp, "pause65.json"), os.path.join(tmp, "pause65.html")
    with open(report, "w") as f:
        f.write(out)
    subprocess.run([ROCE_PLOT, report, "-o", html], check=True, capture_output=True, timeout=120)
    with open(html) as f:
        if "Partial report</b>: The internal cap of 64 live pause windows" not in f.read():
            raise rslib.Failure("roce-plot draws a report with a passed cap as complete")
    # 64 at once stay within it.
    with open(path, "wb") as f:
        f.write(hostile_capture.SHB + hostile_capture.idb("leaf-1"))
        for i in range(64):
            f.write(hostile_capture.epb(0, (i + 1) * 1000, hostile_capture.pfc(bytes([2, 0x53, 0, 0, 0, i]), 3)))
    if json.loads(cli.command("report", path)[1])["limits"]:
        raise rslib.Failure("64 ports pausing at once passed a cap")
    print("an internal cap passed: a limit in the triage and the JSON, INCOMPLETE, the same in tshark")


def run(argv):
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)  # tshark runs as nobody
        nothing_analysed(tmp)
        cut_short(tmp)
        write_errors()
        hostile_names(tmp)
        boolean_preferences()
        internal_caps(tmp)


rslib.main(run)
