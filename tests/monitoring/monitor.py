# SPDX-License-Identifier: GPL-2.0-or-later
"""What the monitor tests share: running `roceshark monitor`, reading its
windows, and the capture cut at a window's last frame."""
import json
import os
import socket
import subprocess
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "cli"))
import cli  # noqa: E402
import rslib  # noqa: E402

METRICS_TXT = os.path.join(rslib.ROOT, "monitoring", "metrics.txt")
RULES = os.path.join(rslib.ROOT, "monitoring", "roceshark-alerts.yml")


def monitor(*args, timeout=600, **kw):
    p = subprocess.run([cli.COMMAND, "monitor", *args], capture_output=True, text=True, env=cli.ENV,
                       timeout=timeout, **kw)
    return p.returncode, p.stdout, p.stderr


def windows(out_dir):
    with open(os.path.join(out_dir, "windows.ndjson")) as f:
        return [json.loads(line) for line in f]


def window_report(out_dir, index):
    with open(os.path.join(out_dir, f"window-{index:06d}.json")) as f:
        return f.read()


def cut(capture, frames, path):
    """The capture's first `frames` frames, as editcap writes them."""
    subprocess.run(["editcap", "-r", capture, path, f"1-{frames}"], check=True, capture_output=True)
    return path


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def metric_names():
    """monitoring/metrics.txt: name -> type."""
    names = {}
    with open(METRICS_TXT) as f:
        for line in f:
            if line.strip() and not line.startswith("#"):
                name, kind = line.split()[:2]
                names[name] = kind
    return names


def samples(prom_text):
    """A Prometheus text exposition's samples: (name, labels dict, value)."""
    out = []
    for line in prom_text.splitlines():
        if not line or line.startswith("#"):
            continue
        head, value = line.rsplit(" ", 1)
        name, labels = head, {}
        if "{" in head:
            name, rest = head.split("{", 1)
            for part in rest.rstrip("}").split('",'):
                if part:
                    k, v = part.split('="', 1)
                    labels[k] = v.rstrip('"')
        out.append((name, labels, float(value)))
    return out
