# SPDX-License-Identifier: GPL-2.0-or-later
"""The progress line: on a terminal, stderr shows packets, rate and time
while a long capture is read, and the line is erased at the end; stdout is
what it is without a terminal, and without one stderr stays empty. When the
input's size is known (a file), the line also shows the share read and the
time left; through a pipe it cannot.

Nothing is timed. The command checks the clock every 65,536 packets and
prints when a second has passed, so the capture (about 200,000 packets) is
fed through stdin in two parts with a pause of 1.5 s between them: some
65,536th packet is read after the pause, and a line is then certain. A file
cannot be held back that way: the command itself is stopped (SIGSTOP) for
1.2 s at a time and let run 20 ms between, until it ends."""
import os
import pty
import re
import signal
import subprocess
import tempfile
import threading
import time

import cli
import rslib

GEN = os.path.join(rslib.BUILD, "captures", "roceshark-gen")
SCENARIO = """seed 9
snaplen 128
host a 10.0.0.1 02:00:00:00:00:0a
host b 10.0.0.2 02:00:00:00:00:0b
path a 1us tap-1 1us b
qp q1 a:0x000100 b:0x000200 psn=0,0 mtu=1024 window=256 dscp=26 ecn=2
write q1 a 64K repeat=4000
"""
LINE = re.compile(r"\rroceshark: (\d+) packets, \d+\.\d\d M/s, \d+ s \x1b\[K")
LINE_SIZED = re.compile(r"\rroceshark: (\d+) packets, \d+\.\d\d M/s, \d+ s, (\d+)%, \d+ s left \x1b\[K")


def feed(proc, data):
    half = len(data) // 2
    proc.stdin.write(data[:half])
    proc.stdin.flush()
    time.sleep(1.5)
    proc.stdin.write(data[half:])
    proc.stdin.close()


def hold_back(proc):
    """Stops the command for 1.2 s at a time, 20 ms of running between."""
    while proc.poll() is None:
        time.sleep(0.02)
        try:
            proc.send_signal(signal.SIGSTOP)
            time.sleep(1.2)
            proc.send_signal(signal.SIGCONT)
        except ProcessLookupError:
            return


def on_terminal(capture, through_pipe=True):
    """stdout and the terminal's text when stderr is a pseudo-terminal: the
    capture through stdin, or named as a file."""
    master, slave = pty.openpty()
    proc = subprocess.Popen([cli.COMMAND, "qp", "-" if through_pipe else capture], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=slave, env=cli.ENV)
    os.close(slave)
    terminal = bytearray()
    reader = threading.Thread(target=lambda: terminal.extend(drain(master)))
    reader.start()
    out = bytearray()
    stdout = threading.Thread(target=lambda: out.extend(proc.stdout.read()))
    stdout.start()
    if through_pipe:
        with open(capture, "rb") as f:
            feed(proc, f.read())
    else:
        proc.stdin.close()
        hold_back(proc)
    stdout.join()
    out = out.decode()
    status = proc.wait(timeout=600)
    reader.join()
    os.close(master)
    if status != 0:
        raise rslib.Failure(f"roceshark qp - on a terminal: exit {status}")
    return out, terminal.decode(errors="replace")


def drain(fd):
    got = b""
    while True:
        try:
            chunk = os.read(fd, 4096)
        except OSError:  # EIO: the command closed its end
            return got
        if not chunk:
            return got
        got += chunk


def run(argv):
    with tempfile.TemporaryDirectory() as tmp:
        scn, capture = os.path.join(tmp, "long.scn"), os.path.join(tmp, "long.pcapng")
        with open(scn, "w") as f:
            f.write(SCENARIO)
        subprocess.run([GEN, scn, "-o", capture], check=True, capture_output=True)
        frames = int(subprocess.run(["capinfos", "-M", "-c", "-r", capture], capture_output=True, text=True,
                                    check=True).stdout.split()[-1])
        if frames < 3 * 65536:
            raise rslib.Failure(f"{frames} frames: too few for the progress check to run after the pause")
        out, terminal = on_terminal(capture)
        status, plain, err = cli.command("qp", capture)
        if status != 0 or err:
            raise rslib.Failure(f"roceshark qp without a terminal: exit {status}, stderr {err!r}")
        cli.same("roceshark qp with stderr on a terminal", out, plain)
        lines = LINE.findall(terminal)
        if not lines or not all(int(n) % 65536 == 0 and 0 < int(n) <= frames for n in lines):
            raise rslib.Failure(f"no progress line on the terminal: {terminal!r}")
        if LINE_SIZED.search(terminal):
            raise rslib.Failure(f"a share read through a pipe, whose size is unknown: {terminal!r}")
        if not terminal.endswith("\r\x1b[K"):
            raise rslib.Failure(f"the progress line is not erased at the end: {terminal[-80:]!r}")
        print(f"{frames} frames through stdin: {len(lines)} progress line(s) on the terminal, erased at the end; "
              "none without one")
        # A file: its size is known, so the share read and the time left.
        out, terminal = on_terminal(capture, through_pipe=False)
        cli.same("roceshark qp FILE with stderr on a terminal", out, plain)
        sized = LINE_SIZED.findall(terminal)
        shares = [int(share) for _, share in sized]
        if not sized or not all(0 <= s <= 100 for s in shares) or shares != sorted(shares):
            raise rslib.Failure(f"no progress line with the share read: {terminal!r}")
        if not terminal.endswith("\r\x1b[K"):
            raise rslib.Failure(f"the progress line is not erased at the end: {terminal[-80:]!r}")
        print(f"the file: {len(sized)} progress line(s) with the share read ({', '.join(map(str, shares))}%)")


rslib.main(run)
