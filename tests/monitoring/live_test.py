# SPDX-License-Identifier: GPL-2.0-or-later
"""`roceshark monitor -i` on a live interface (issue 33): in a network
namespace of its own with a veth pair, tcpreplay sends a bundled capture
into one end and the monitor captures on the other, while tcpdump records
the same packets, with the same kernel stamps, to a file.

The monitor's last window must be exactly what `roceshark report` says of
tcpdump's file: the live path (libpcap, ticks, windows) adds and loses
nothing. The replay restamps every frame, and a loaded host stretches or
squeezes its gaps, so against the bundled file only the packets' own facts
are compared (the same QPs, requests, NAKs, CNPs, CE marks), and the file's
findings must all be there. A replay the kernel dropped packets of is not
the file: it is sent again (twice at most), and said so.
Needs root (network namespaces); skipped (77) otherwise, with the reason."""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

import monitor  # first: it puts the command tests' helpers on the path
import cli  # noqa: E402
import rslib  # noqa: E402

# Single-point captures (a veth is one point): loss, NAK codes, RNR, a lossy
# class, selective repeat. Not atomic_retry: tcpreplay's timing jitter can
# bring its timer resend within the mirror-copy window of the original, and
# the capture then rightly shows a copy, not a resend.
CAPTURES = ["gbn", "nak_codes", "rnr", "lossy_prio", "selective"]


def sh(*args):
    subprocess.run(args, check=True, capture_output=True)


def summary(report):
    qps = sorted((q["requester"], q["responder"], q["dest_qp"], q["requests"],
                  json.dumps(q["naks"], sort_keys=True), q["cnps"], q["ecn_ce"]) for q in report["qps"])
    kinds = sorted({f["kind"] for f in report["triage"]["findings"]})
    return qps, kinds, report["limits"]


def frames(path):
    return int(subprocess.run(["capinfos", "-Mc", path], check=True, capture_output=True,
                              text=True).stdout.split()[-1])


def live(ns, tmp, name):
    """The monitor's last window report and tcpdump's file of one replay."""
    out = os.path.join(tmp, name)
    dump = os.path.join(tmp, name + ".pcap")
    tcpdump = subprocess.Popen(["ip", "netns", "exec", ns, "tcpdump", "-i", "vb", "-n", "-U", "-B", "16384",
                                "--time-stamp-precision=nano", "-w", dump], stderr=subprocess.PIPE, text=True)
    mon = subprocess.Popen(["ip", "netns", "exec", ns, cli.COMMAND, "monitor", "-q", "-i", "vb", "--window", "0.1",
                            "--out", out], env=cli.ENV, stderr=subprocess.PIPE, text=True)
    try:
        # tcpdump says when it listens; the monitor's first (empty) window,
        # closed by the idle link's tick, shows libpcap is capturing. Only
        # then is the first frame sent.
        if "listening on" not in tcpdump.stderr.readline():
            raise rslib.Failure("tcpdump did not start")
        deadline = time.monotonic() + 60
        while not os.path.exists(os.path.join(out, "windows.ndjson")):
            if mon.poll() is not None or time.monotonic() > deadline:
                raise rslib.Failure(f"monitor -i: no first window (exit {mon.poll()})")
            time.sleep(0.1)
        sh("ip", "netns", "exec", ns, "tcpreplay", "-q", "-K", "-i", "va", rslib.capture_path(name))
        time.sleep(1)
        for p in (mon, tcpdump):
            p.send_signal(signal.SIGTERM)
        _, err = mon.communicate(timeout=60)
        _, dump_err = tcpdump.communicate(timeout=60)
    finally:
        for p in (mon, tcpdump):  # a failure above: neither may outlive the test
            if p.poll() is None:
                p.kill()
                p.communicate()
    if mon.returncode != 0:
        raise rslib.Failure(f"monitor -i: exit {mon.returncode}: {err}")
    ws = monitor.windows(out)
    kernel_drops = "0 packets dropped by kernel" not in dump_err
    return json.loads(monitor.window_report(out, ws[-1]["window"])), dump, kernel_drops


def as_file(live_report):
    """The live report with its point named as tcpdump's pcap file names it
    (a pcap file holds no interface names: the reader calls it if0)."""
    return json.loads(re.sub(r"\bvb\b", "if0", json.dumps(live_report)))


def replay(ns, tmp, name):
    file = json.loads(cli.command("report", rslib.capture_path(name))[1])
    for attempt in range(3):
        got, dump, kernel_drops = live(ns, tmp, name)
        if kernel_drops or any(l["name"] == "capture_drops" for l in got["limits"]) or frames(dump) != frames(rslib.capture_path(name)):
            print(f"{name}: the kernel dropped packets of the replay ({frames(dump)} of "
                  f"{frames(rslib.capture_path(name))} frames recorded); sent again")
            continue
        seen = json.loads(cli.command("report", dump)[1])
        got = as_file(got)
        if got != seen:
            for key in sorted(set(got) | set(seen)):
                if got.get(key) != seen.get(key):
                    print(f"  {key}:\n    live {json.dumps(got.get(key))[:2000]}\n    file {json.dumps(seen.get(key))[:2000]}")
            raise rslib.Failure(f"{name}: the monitor's last window is not the report of the packets it captured")
        return got, file
    raise rslib.Failure(f"{name}: three replays lost packets in the kernel")


def run(argv):
    if os.geteuid() != 0:
        print("SKIP: a network namespace and a veth pair need root")
        sys.exit(77)
    for tool in ("tcpreplay", "tcpdump"):
        if not shutil.which(tool):
            print(f"SKIP: no {tool}")
            sys.exit(77)
    ns = f"rs-live-{os.getpid()}"
    sh("ip", "netns", "add", ns)
    try:
        sh("ip", "-n", ns, "link", "add", "va", "mtu", "9000", "type", "veth", "peer", "name", "vb", "mtu", "9000")
        # No IPv6 on the pair: its neighbour discovery would add frames.
        for key in ("all", "default"):
            sh("ip", "netns", "exec", ns, "sysctl", "-qw", f"net.ipv6.conf.{key}.disable_ipv6=1")
        sh("ip", "-n", ns, "link", "set", "va", "up")
        sh("ip", "-n", ns, "link", "set", "vb", "up")
        with tempfile.TemporaryDirectory() as tmp:
            for name in CAPTURES:
                got, want = replay(ns, tmp, name)
                # The packets' own facts must be equal. The findings of the
                # file must all be there; a replay on a loaded host stretches
                # gaps, which can add a timer's verdict (a timeout resend, and
                # the lossy class it shows), never take a NAK's away.
                g, w = summary(got), summary(want)
                if (g[0], g[2]) != (w[0], w[2]) or not set(w[1]) <= set(g[1]):
                    raise rslib.Failure(f"{name}: live {summary(got)}\n  file {summary(want)}")
                print(f"{name}: live = the report of its own packets; against the file: {len(want['qps'])} QP rows, "
                      f"findings {summary(want)[1]}")
    finally:
        subprocess.run(["ip", "netns", "del", ns], check=False)


rslib.main(run)
