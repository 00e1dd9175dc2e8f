# SPDX-License-Identifier: GPL-2.0-or-later
"""Small synthetic -z roce,report documents of version 2, made in the tests
(no tshark); running the repository's scripts on them; reading the pages
scripts/roce-plot writes. The tshark tests of the scripts use it too."""
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPTS = os.path.join(ROOT, "scripts")
SVG = "{http://www.w3.org/2000/svg}"
T0 = 1_700_000_000_000_000_000  # capture start, ns since 1970
METRICS = [("loss", "%", 0.01, 0.1), ("hop_latency", "us", 50, 500), ("pfc_rate", "/s", 100, 1000),
           ("paused", "%", 1, 10), ("ce", "%", 5, 20), ("stall", "%", 1, 10), ("findings", "count", 1, 3)]


class Failure(Exception):
    pass


def metric(name, value):
    unit, warn, fail = next((u, w, f) for n, u, w, f in METRICS if n == name)
    verdict = "N/A" if value is None else "FAIL" if value >= fail else "WARN" if value >= warn else "PASS"
    return {"name": name, "unit": unit, "value": value, "warn": warn, "fail": fail, "verdict": verdict,
            "detail": f"{name} measured"}


def finding(kind, where, rank=1, severity="warning", share=0.1, stall_ns=1000, frames=(1, 2, 3), title=None):
    return {"rank": rank, "id": f"{kind}|{where}", "kind": kind, "severity": severity,
            "title": title or f"{kind} at {where}",
            "location": {"point": where, "priority": 3},
            "impact": {"stall_ns": stall_ns, "recovery_ns": 0, "pause_ns": 0, "timeout_ns": 0, "qps": 1,
                       "share": share},
            "evidence": {"frames": list(frames), "count": len(frames),
                         "filter": f"roce.point == \"{where}\" && frame.number <= 3"},
            "fix": f"fix {kind} at {where}"}


def report(metrics=None, findings=(), verdict=None, hops=(), pauses=(), timeline_qps=(), bins=10, bin_ns=100_000,
           version=2):
    """A v2 report: `metrics` maps metric names to values (others are 0)."""
    values = {n: 0 for n, _, _, _ in METRICS}
    values.update(metrics or {})
    ms = [metric(n, v) for n, v in values.items()]
    order = {"PASS": 0, "N/A": 0, "WARN": 1, "FAIL": 2}
    worst = max((m["verdict"] for m in ms), key=order.get)
    span = bins * bin_ns
    return {
        "schema": "roceshark-report", "version": version, "filter": "",
        "capture": {"first_ns": T0, "last_ns": T0 + span, "span_ns": span},
        "points": [{"id": 0, "name": "nic-a"}], "qps": [], "hops": list(hops), "paths": [], "clocks": [],
        "pfc": {"pauses": list(pauses), "propagation": [], "lossy_queue_findings": 0, "bad_frames": 0},
        "qos": {"policy": {}, "marking": [], "violations": [], "dcbx": []},
        "triage": {
            "span_ns": span, "qps": max(1, len(timeline_qps)), "stalled_ns": 0, "stalled_share": 0.0,
            "findings": [dict(f) for f in findings],
            "health": {"verdict": verdict or ("PASS" if worst == "N/A" else worst), "metrics": ms},
            "timeline": {"start_ns": T0, "bin_ns": bin_ns, "bins": bins, "qps": list(timeline_qps), "qps_dropped": 0},
            "summary": "Synthetic report for the tests.",
        },
    }


def hop(frm, to, cdf):
    count = 100 if cdf else 0
    h = {"from": frm, "to": to, "matched": count, "lost": 0,
         "latency_ns": {"count": count}, "queue_ns": {"count": 0}, "microbursts": 0, "remarked": 0, "ce_set": 0,
         "ttl_changed": 0, "negative_latencies": 0}
    if cdf:
        at = lambda q: next(v for v, f in cdf if f >= q)  # noqa: E731
        h["latency_ns"].update({"min": cdf[0][0], "p50": at(0.5), "p99": at(0.99), "max": cdf[-1][0],
                                "cdf": [list(p) for p in cdf]})
    return h


def pause(point, mac, priority, episodes, dropped=0):
    return {"point": point, "pausing_mac": mac, "priority": priority, "frames": sum(e["frames"] for e in episodes),
            "xoff": 1, "xon": 0, "paused_ns": sum(e["paused_ns"] for e in episodes),
            "longest_ns": max((e["end_ns"] - e["start_ns"] for e in episodes), default=0), "no_ecn_pauses": 0,
            "propagated": 0, "wrong_class": False, "storms": [], "stalled_qps": [],
            "episodes": episodes, "episodes_dropped": dropped}


def episode(start_us, end_us, frames=3, first_frame=10, storm=False):
    s, e = T0 + int(start_us * 1000), T0 + int(end_us * 1000)
    return {"start_ns": s, "end_ns": e, "paused_ns": e - s, "frames": frames, "first_frame": first_frame,
            "storm": storm}


def timeline_qp(stream, retx, stalled, paused=None, point="nic-a"):
    return {"stream": stream, "point": point, "requester": "10.0.0.1", "responder": "10.0.0.2",
            "dest_qp": 0x102 + stream, "retransmissions": list(retx), "stalled_ns": list(stalled),
            "paused_ns": list(paused or [0] * len(stalled))}


def write(tmp, name, doc):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        json.dump(doc, f)
    return path


def run(script, *args, env=None, scripts=SCRIPTS):
    p = subprocess.run([os.path.join(scripts, script), *args], capture_output=True, text=True,
                       env=dict(os.environ, **(env or {})), timeout=120)
    return p.returncode, p.stdout, p.stderr


def expect(cond, what):
    if not cond:
        raise Failure(what)


# Reading a page of scripts/roce-plot.

def parse_page(page):
    """The whole page as XML (it is XHTML after its doctype line)."""
    try:
        return ET.fromstring(page.split("\n", 1)[1])
    except ET.ParseError as e:
        raise Failure(f"the page is not well-formed: {e}")


def svgs(page):
    """Every <svg> block, parsed on its own."""
    out = []
    for block in re.findall(r"<svg\b.*?</svg>", page, flags=re.S):
        try:
            out.append(ET.fromstring(block))
        except ET.ParseError as e:
            raise Failure(f"an <svg> block is not well-formed XML: {e}\n{block[:300]}")
    return out


def section(page, ident):
    """The markup from a section's heading to the next heading."""
    m = re.search(rf'<h2 id="{ident}">.*?(?=<h2 |</body>)', page, flags=re.S)
    expect(m, f"no section {ident}")
    return m.group(0)


def texts(svg):
    """The visible text of every <text> (its tooltip <title> left out)."""
    out = []
    for t in svg.iter(SVG + "text"):
        tip = t.find(SVG + "title")
        out.append((t.text or "") + ((tip.tail or "") if tip is not None else ""))
    return out


def main(tests):
    """Run each test function; print the failures and exit 1 on any."""
    failed = 0
    for t in tests:
        try:
            t()
            print(f"ok   {t.__name__}")
        except Failure as e:
            failed += 1
            print(f"FAIL {t.__name__}: {e}")
    print(f"{len(tests) - failed} passed, {failed} failed")
    sys.exit(1 if failed else 0)

