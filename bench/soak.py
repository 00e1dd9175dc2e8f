# SPDX-License-Identifier: GPL-2.0-or-later
"""`roceshark monitor` sustained: memory over a long run, and its rate.

  bench/soak.py [--seconds S] [--rate]

The soak streams RoCEv2 traffic (32 QPs, SENDs with advancing PSNs, valid
ICRCs, 4 us apart) as pcapng into `roceshark monitor -` for S seconds at
the generator's full speed, with 1-second windows and 2-second periods of
capture time, and samples the monitor's resident memory. It fails (exit 1)
when a window is lost (the windows must be numbered 1..n and count every
frame written) or when memory grows: the peak may exceed the resident size
after the second window by at most 25% + 8 MiB. The tests run it for 60 s
(tests/monitoring); the README's figures are of a 600 s run.

--rate also times `roceshark monitor --replay FILE --speed 0` (as fast as
it reads) on bench/run.py's capture and prints frames per second, one core
(-j has no say in the monitor: it reads and analyses on one thread).
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import hostile_capture as hc  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BUILD = os.environ.get("ROCESHARK_BUILD", os.path.join(ROOT, "build"))
COMMAND = os.path.join(BUILD, "roceshark")
QPS = 32


def stream(out, seconds, counter):
    """pcapng on `out` until `seconds` have passed; counter[0] counts frames."""
    out.write(hc.SHB + hc.idb("mirror0"))
    payload = bytes(64)
    psn = [0] * QPS
    end = time.monotonic() + seconds
    n = 0
    while time.monotonic() < end:
        chunk = []
        for _ in range(4096):
            qp = n % QPS
            a, b = (hc.HOST_A, hc.HOST_B) if qp % 2 else (hc.HOST_B, hc.HOST_A)
            chunk.append(hc.epb(0, n * 4000, hc.rocev2(a, b, hc.SEND_ONLY, 0x100 + qp, psn[qp], payload)))
            psn[qp] += 1
            n += 1
        out.write(b"".join(chunk))
    counter[0] = n
    out.close()


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def soak(seconds):
    with tempfile.TemporaryDirectory() as tmp:
        out = os.path.join(tmp, "windows")
        p = subprocess.Popen([COMMAND, "monitor", "-q", "--window", "1", "--period", "2", "--keep", "3", "--out",
                              out, "-"], stdin=subprocess.PIPE, stderr=subprocess.PIPE)
        counter = [0]
        writer = threading.Thread(target=stream, args=(p.stdin, seconds, counter))
        start = time.monotonic()
        writer.start()
        settled, peak = None, 0
        ndjson = os.path.join(out, "windows.ndjson")
        while p.poll() is None:
            rss = rss_kib(p.pid)
            if rss:
                peak = max(peak, rss)
                if settled is None and os.path.exists(ndjson):
                    with open(ndjson) as f:
                        if sum(1 for _ in f) >= 2:
                            settled = rss
            time.sleep(0.2)
        writer.join()
        elapsed = time.monotonic() - start
        err = p.stderr.read().decode()
        with open(ndjson) as f:
            ws = [json.loads(line) for line in f]
    frames = counter[0]
    print(f"soak: {seconds} s, {frames} frames ({frames / elapsed / 1e6:.2f} M/s, the generator's pace), "
          f"{len(ws)} windows; resident {settled} KiB after the second window, peak {peak} KiB")
    if p.returncode != 0:
        sys.exit(f"soak: the monitor exited {p.returncode}: {err}")
    if [w["window"] for w in ws] != list(range(1, len(ws) + 1)) or sum(w["frames"] for w in ws) != frames:
        sys.exit(f"soak: windows lost: {len(ws)} windows count {sum(w['frames'] for w in ws)} of {frames} frames")
    if settled is None or peak > settled * 1.25 + 8192:
        sys.exit(f"soak: memory grew: {settled} KiB after the second window, peak {peak} KiB")


def rate():
    capture = os.path.join(BUILD, "bench", "bench.pcapng")
    if not os.path.exists(capture):
        subprocess.run([sys.executable, os.path.join(ROOT, "bench", "run.py"), "--runs", "1"], check=True,
                       capture_output=True)
    frames = int(subprocess.run(["capinfos", "-c", "-M", "-T", capture], capture_output=True, text=True,
                                check=True).stdout.splitlines()[-1].split("\t")[1])
    best = None
    for _ in range(3):
        start = time.monotonic()
        subprocess.run([COMMAND, "monitor", "-q", "--speed", "0", "--replay", capture], check=True)
        t = time.monotonic() - start
        best = t if best is None else min(best, t)
    print(f"rate: roceshark monitor --replay --speed 0: {frames} frames in {best:.2f} s, "
          f"{frames / best / 1e6:.2f} M frames/s (best of 3)")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=600)
    ap.add_argument("--rate", action="store_true")
    a = ap.parse_args()
    if a.rate:
        rate()
    soak(a.seconds)


if __name__ == "__main__":
    main()
