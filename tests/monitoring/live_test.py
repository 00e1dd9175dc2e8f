# SPDX-License-Identifier: GPL-2.0-or-later
"""`roceshark monitor -i` on a live interface (issue 33): in a network
namespace of its own with a veth pair, tcpreplay sends a bundled capture
into one end and the monitor captures on the other. Its report must say
what `roceshark report` says of the file: the same QPs with the same
requests, resends, NAKs, CNPs and CE marks, and every finding of the file.
Times differ (the replay restamps every frame), so time-based figures are
not compared. Needs root
(network namespaces); skipped (77) otherwise, with the reason."""
import json
import os
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
    qps = sorted((q["requester"], q["responder"], q["dest_qp"], q["requests"], q["retransmissions"],
                  json.dumps(q["naks"], sort_keys=True), q["cnps"], q["ecn_ce"]) for q in report["qps"])
    kinds = sorted({f["kind"] for f in report["triage"]["findings"]})
    return qps, kinds, report["limits"]


def live(ns, tmp, name):
    out = os.path.join(tmp, name)
    mon = subprocess.Popen(["ip", "netns", "exec", ns, cli.COMMAND, "monitor", "-q", "-i", "vb", "--window", "0.1",
                            "--out", out], env=cli.ENV, stderr=subprocess.PIPE, text=True)
    try:
        # A first (empty) window, closed by the idle link's tick, shows
        # libpcap is capturing: only then is the first frame sent.
        deadline = time.monotonic() + 60
        while not os.path.exists(os.path.join(out, "windows.ndjson")):
            if mon.poll() is not None or time.monotonic() > deadline:
                raise rslib.Failure(f"monitor -i: no first window (exit {mon.poll()})")
            time.sleep(0.1)
        sh("ip", "netns", "exec", ns, "tcpreplay", "-q", "-K", "-i", "va", rslib.capture_path(name))
        time.sleep(1)
        mon.send_signal(signal.SIGTERM)
        _, err = mon.communicate(timeout=60)
    finally:
        if mon.poll() is None:  # a failure above: the monitor must not outlive the test
            mon.kill()
            mon.communicate()
    if mon.returncode != 0:
        raise rslib.Failure(f"monitor -i: exit {mon.returncode}: {err}")
    ws = monitor.windows(out)
    return json.loads(monitor.window_report(out, ws[-1]["window"]))


def run(argv):
    if os.environ.get("ROCESHARK_CHROOT"):
        print(f"SKIP: in the {os.environ['ROCESHARK_CHROOT']} chroot; the live capture runs in the native leg")
        sys.exit(77)
    if os.geteuid() != 0:
        print("SKIP: a network namespace and a veth pair need root")
        sys.exit(77)
    if not shutil.which("tcpreplay"):
        print("SKIP: no tcpreplay")
        sys.exit(77)
    ns = f"rs-live-{os.getpid()}"
    sh("ip", "netns", "add", ns)
    try:
        sh("ip", "-n", ns, "link", "add", "va", "mtu", "9000", "type", "veth", "peer", "name", "vb", "mtu", "9000")
        sh("ip", "-n", ns, "link", "set", "va", "up")
        sh("ip", "-n", ns, "link", "set", "vb", "up")
        with tempfile.TemporaryDirectory() as tmp:
            for name in CAPTURES:
                got = live(ns, tmp, name)
                want = json.loads(cli.command("report", rslib.capture_path(name))[1])
                # The packets' own facts must be equal. The findings of the
                # file must all be there; a replay on a loaded host stretches
                # gaps, which can add a timer's verdict (a timeout resend, and
                # the lossy class it shows), never take a NAK's away.
                g, w = summary(got), summary(want)
                if (g[0], g[2]) != (w[0], w[2]) or not set(w[1]) <= set(g[1]):
                    raise rslib.Failure(f"{name}: live {summary(got)}\n  file {summary(want)}")
                print(f"{name}: live capture on a veth = the file: {len(want['qps'])} QP rows, findings "
                      f"{summary(want)[1]}")
    finally:
        subprocess.run(["ip", "netns", "del", ns], check=False)


rslib.main(run)
