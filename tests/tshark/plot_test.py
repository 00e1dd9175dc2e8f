# SPDX-License-Identifier: GPL-2.0-or-later
"""scripts/roce-plot on real captures (needs report version 2): the page is
well-formed and draws what the report holds: a storm bar on pfc_storm, one
CDF line per hop with samples on mp_drop, a row per timeline QP, the ranked
findings; and it says so where there is no data (clean). Structure only,
never figures."""
import json
import os
import subprocess
import sys
import tempfile

import rslib

sys.path.insert(0, os.path.join(rslib.ROOT, "tests", "scripts"))
import synth  # noqa: E402

PLOT = os.path.join(rslib.ROOT, "scripts", "roce-plot")


def plot(scenario, tmp):
    """(report, page) of a capture."""
    capture = rslib.capture_path(scenario)
    page = os.path.join(tmp, scenario + ".html")
    cmd = [PLOT, capture, "-o", page, "--build", rslib.BUILD]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if p.returncode != 0:
        raise rslib.Failure(f"{' '.join(cmd)} exited {p.returncode}:\n{p.stderr}")
    doc = json.loads(rslib.tshark("-n", "-q", "-r", capture, "-z", "roce,report"))
    with open(page, encoding="utf-8") as f:
        text = f.read()
    synth.parse_page(text)
    return doc, text


def tips(svg):
    return [e.find(synth.SVG + "title").text for e in svg.iter() if e.find(synth.SVG + "title") is not None]


def check(scenario, tmp):
    doc, page = plot(scenario, tmp)
    triage = doc["triage"]
    findings = synth.section(page, "findings")
    if triage["findings"]:
        rows = findings.count("<tr>") - 1
        if rows != len(triage["findings"]):
            raise rslib.Failure(f"{scenario}: {rows} finding rows, the report has {len(triage['findings'])}")
    elif "No findings" not in findings:
        raise rslib.Failure(f"{scenario}: no findings, and the page does not say so")
    hops = [h for h in doc["hops"] if h["latency_ns"]["count"] > 0]
    cdf = synth.svgs(synth.section(page, "hop-latency"))
    lines = [p for s in cdf for p in s.iter(synth.SVG + "path") if p.get("fill") == "none"]
    if len(lines) != len(hops):
        raise rslib.Failure(f"{scenario}: {len(lines)} CDF lines for {len(hops)} hops with samples")
    episodes = [e for p in doc["pfc"]["pauses"] for e in p["episodes"]]
    pauses = synth.svgs(synth.section(page, "pfc-pauses"))
    bars = [t for s in pauses for t in tips(s) if t.startswith(("storm at", "pause at"))]
    if len(bars) != len(episodes):
        raise rslib.Failure(f"{scenario}: {len(bars)} pause bars for {len(episodes)} episodes")
    if sum(t.startswith("storm at") for t in bars) != sum(e["storm"] for e in episodes):
        raise rslib.Failure(f"{scenario}: storms drawn differ from the report's")
    qps = triage["timeline"]["qps"]
    timeline = synth.svgs(synth.section(page, "qp-timeline"))
    rows = [t for s in timeline for t in synth.texts(s) if t.startswith("#")]
    if len(rows) != min(len(qps), 200):
        raise rslib.Failure(f"{scenario}: {len(rows)} timeline rows for {len(qps)} QPs")
    return doc, page, bars, lines


def run(argv):
    with tempfile.TemporaryDirectory() as tmp:
        _, _, bars, _ = check("pfc_storm", tmp)
        if not any(t.startswith("storm at") for t in bars):
            raise rslib.Failure("pfc_storm: no storm drawn")
        _, _, _, lines = check("mp_drop", tmp)
        if not lines:
            raise rslib.Failure("mp_drop: no hop latency drawn")
        _, page, _, _ = check("clean", tmp)
        if "No PFC pause frames" not in synth.section(page, "pfc-pauses"):
            raise rslib.Failure("clean: the pause section does not say it has no data")
        # --svg-dir: each chart as a file of its own, the same drawing as on the page.
        out = os.path.join(tmp, "svg")
        os.mkdir(out)
        subprocess.run([PLOT, rslib.capture_path("pfc_propagation"), "-o", os.path.join(tmp, "p.html"), "--svg-dir",
                        out, "--build", rslib.BUILD], check=True, capture_output=True, timeout=600)
        written = sorted(os.listdir(out))
        if written != ["hop-latency.svg", "pfc-pauses.svg", "qp-timeline.svg"]:
            raise rslib.Failure(f"--svg-dir wrote {written}")
        with open(os.path.join(tmp, "p.html"), encoding="utf-8") as f:
            drawn = synth.svgs(synth.section(f.read(), "pfc-pauses"))
        alone = synth.ET.parse(os.path.join(out, "pfc-pauses.svg")).getroot()
        if tips(alone) != tips(drawn[0]):
            raise rslib.Failure("pfc-pauses.svg differs from the page's chart")
    print("pages of pfc_storm, mp_drop and clean draw what their reports hold")


if __name__ == "__main__":
    rslib.main(run)
