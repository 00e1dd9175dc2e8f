# SPDX-License-Identifier: GPL-2.0-or-later
"""`roceshark monitor` under faults (issue 33): a bad command line or an
address in use exits 2 with the reason; the standard input is a source; a
signal ends it with the last window written; a full disk under --out is
said and counted (roceshark_output_errors_total) while monitoring goes on
(as root: a tmpfs the test mounts; skipped otherwise, and said)."""
import os
import signal
import socket
import subprocess
import tempfile
import time

import monitor  # first: it puts the command tests' helpers on the path
import cli  # noqa: E402
import rslib  # noqa: E402


def bad_command_lines():
    storm = rslib.capture_path("pfc_storm")
    for args, why in ((["--window", "0", storm], "--window 0"), (["--speed", "-1", storm], "--speed -1"),
                      ([], "either -i INTERFACE or capture files"), (["--bogus", storm], "unknown option --bogus"),
                      (["-i", "lo", storm], "either -i INTERFACE or capture files"),
                      (["/nonexistent.pcapng"], "/nonexistent.pcapng"),
                      (["--listen", "127.0.0.1:notaport", storm], "--listen 127.0.0.1:notaport")):
        status, _, err = monitor.monitor(*args)
        if status != 2 or why not in err:
            raise rslib.Failure(f"monitor {args}: exit {status}, stderr {err[:300]!r}; wanted 2 and {why!r}")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        status, _, err = monitor.monitor("--listen", f"127.0.0.1:{port}", storm)
        if status != 2 or f"--listen 127.0.0.1:{port}: cannot serve there" not in err:
            raise rslib.Failure(f"an address in use: exit {status}, stderr {err!r}")
    print("bad options, an unreadable file and an address in use: exit 2, with the reason")


def standard_input(tmp):
    out = os.path.join(tmp, "stdin")
    with open(rslib.capture_path("mp_drop"), "rb") as f:
        status, text, err = monitor.monitor("--window", "0.001", "--out", out, "-", stdin=f)
    if status != 0 or "verdict" not in text.splitlines()[0] or len(text.splitlines()) < 2:
        raise rslib.Failure(f"monitor -: exit {status}, stdout {text!r}, stderr {err!r}")
    if monitor.window_report(out, monitor.windows(out)[-1]["window"]) != cli.command(
            "report", rslib.capture_path("mp_drop"))[1]:
        raise rslib.Failure("monitor -: the last window is not the capture's report")
    print("the standard input: one line per window, the last window the whole capture's report")


def signal_ends(tmp):
    """A replay at its recorded pace, stopped part-way by SIGTERM: the last
    window is written, exit 0."""
    out = os.path.join(tmp, "signal")
    capture = rslib.capture_path("pfc_storm")
    # 5 ms of capture replayed 2,000 times slower: 10 s, stopped after 2.
    p = subprocess.Popen([cli.COMMAND, "monitor", "-q", "--replay", capture, "--speed", "0.0005", "--window",
                          "0.001", "--out", out], env=cli.ENV, stderr=subprocess.PIPE, text=True)
    time.sleep(2)
    p.send_signal(signal.SIGTERM)
    _, err = p.communicate(timeout=60)
    ws = monitor.windows(out) if os.path.exists(os.path.join(out, "windows.ndjson")) else []
    if p.returncode != 0 or "stopped by a signal" not in err or not ws or ws[-1]["last_frame"] >= 121:
        raise rslib.Failure(f"SIGTERM: exit {p.returncode}, stderr {err!r}, windows {ws}")
    cut = monitor.cut(capture, ws[-1]["last_frame"], os.path.join(tmp, "cut.pcapng"))
    if monitor.window_report(out, ws[-1]["window"]) != cli.command("report", cut)[1]:
        raise rslib.Failure("SIGTERM: the last window is not the report of the frames read")
    print(f"SIGTERM after 2 s of a paced replay: exit 0, the last window ({ws[-1]['last_frame']} frames) written")


def full_disk(tmp):
    if os.geteuid() != 0:
        print("SKIP (full disk): mounting a small tmpfs needs root")
        return
    mnt = os.path.join(tmp, "small")
    os.mkdir(mnt)
    if subprocess.run(["mount", "-t", "tmpfs", "-o", "size=64k", "tmpfs", mnt], capture_output=True).returncode:
        print("SKIP (full disk): cannot mount a tmpfs here")
        return
    try:
        prom = os.path.join(tmp, "prom")
        os.mkdir(prom)
        # 25 windows of about 5 KB each: more than the 64 KB the disk holds.
        status, text, err = monitor.monitor("--window", "0.0002", "--out", mnt, "--textfile", prom,
                                            rslib.capture_path("pfc_storm"))
        lines = text.splitlines()
        if status != 0 or "No space left on device" not in err or len(lines) < 3:
            raise rslib.Failure(f"full disk: exit {status}, {len(lines)} lines, stderr {err!r}")
        with open(os.path.join(prom, "roceshark.prom")) as f:
            errors = [v for n, _, v in monitor.samples(f.read()) if n == "roceshark_output_errors_total"]
        if not errors or errors[0] < 1:
            raise rslib.Failure(f"full disk: roceshark_output_errors_total is {errors}")
        print(f"a full disk under --out: said on stderr, {int(errors[0])} write errors counted, "
              f"{len(lines) - 1} windows still reported")
    finally:
        subprocess.run(["umount", mnt], check=False)


def run(argv):
    with tempfile.TemporaryDirectory() as tmp:
        bad_command_lines()
        standard_input(tmp)
        signal_ends(tmp)
        full_disk(tmp)


rslib.main(run)
