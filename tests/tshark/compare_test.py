# SPDX-License-Identifier: GPL-2.0-or-later
"""scripts/roce-compare on real captures (needs report version 2): a
misconfigured scenario before against a fixed one after shows the
misconfiguration's findings fixed and the health improved; the other way
round it is a regression; a capture against its own report is unchanged.
Only structure and direction are checked, never figures."""
import json
import os
import subprocess
import tempfile

import rslib

COMPARE = os.path.join(rslib.ROOT, "scripts", "roce-compare")
METRICS = {"loss", "hop_latency", "ecn_spread", "pfc_rate", "paused", "ce", "stall", "findings"}
# (before, after, the finding kind the fix removes, metrics that must improve,
#  whether nothing at all may regress: the pairs differ in more than the fix)
PAIRS = [("qos_dscp_lossy", "qos_clean", "dscp_not_lossless", {"findings"}, False),
         ("pfc_storm", "clean", "pfc_storm", {"findings", "paused", "pfc_rate", "stall"}, True)]


def compare(before, after, *flags):
    """(exit status, stdout) of roce-compare on two files."""
    cmd = [COMPARE, before, after, "--build", rslib.BUILD, *flags]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    if p.returncode not in (0, 1):
        raise rslib.Failure(f"{' '.join(cmd)} exited {p.returncode}:\n{p.stderr}")
    return p.returncode, p.stdout


def check_pair(before, after, kind, improving, nothing_regresses):
    name = f"{before} -> {after}"
    before, after = rslib.capture_path(before), rslib.capture_path(after)
    rc, out = compare(before, after, "--json")
    if rc != 0:
        raise rslib.Failure(f"{name}: exit {rc} without --fail-on-regression")
    c = json.loads(out)
    ours = [f for f in c["findings"] if f["kind"] == kind]
    if not ours:
        raise rslib.Failure(f"{name}: no {kind} finding before: {[f['kind'] for f in c['findings']]}")
    if any(f["status"] != "fixed" for f in ours):
        raise rslib.Failure(f"{name}: {kind} not all fixed: {[(f['id'], f['status']) for f in ours]}")
    metrics = {m["name"]: m for m in c["metrics"]}
    if not METRICS <= set(metrics):
        raise rslib.Failure(f"{name}: health metrics {sorted(metrics)} lack {sorted(METRICS - set(metrics))}")
    for m in improving:
        if metrics[m]["status"] != "improved":
            raise rslib.Failure(f"{name}: metric {m} is {metrics[m]['status']}: {metrics[m]}")
    if c["conclusion"]["findings"]["fixed"] < len(ours):
        raise rslib.Failure(f"{name}: conclusion {c['conclusion']}")
    if nothing_regresses:
        bad = [m["name"] for m in c["metrics"] if m["status"] == "regressed"] + \
              [f["id"] for f in c["findings"] if f["status"] in ("new", "regressed")]
        if bad or c["verdict"]["status"] != "improved" or c["conclusion"]["overall"] != "improved":
            raise rslib.Failure(f"{name}: regressed {bad}, verdict {c['verdict']}, {c['conclusion']['text']}")
        rc, _ = compare(before, after, "--fail-on-regression")
        if rc != 0:
            raise rslib.Failure(f"{name}: nothing regressed, yet --fail-on-regression exited {rc}")
    # The text says the same.
    _, text = compare(before, after)
    fixed = [l for l in text.splitlines() if l.startswith("fixed")]
    if not all(any(f["id"] in l for l in fixed) for f in ours):
        raise rslib.Failure(f"{name}: text output does not list every {kind} as fixed:\n{text}")
    if not text.splitlines()[-1].startswith("conclusion: "):
        raise rslib.Failure(f"{name}: no conclusion line:\n{text}")
    # The other way round the fix is undone: its findings are new, a regression.
    rc, out = compare(after, before, "--json", "--fail-on-regression")
    back = json.loads(out)
    if rc != 1 or not back["conclusion"]["regressed"] or \
            {f["status"] for f in back["findings"] if f["kind"] == kind} != {"new"}:
        raise rslib.Failure(f"{name}, the other way round: exit {rc}, {back['conclusion']['text']}")


def check_same(scenario):
    """A capture against the report tshark wrote for it: nothing changes."""
    capture = rslib.capture_path(scenario)
    with tempfile.TemporaryDirectory() as tmp:
        saved = os.path.join(tmp, scenario + ".json")
        with open(saved, "w") as f:
            f.write(rslib.tshark("-n", "-q", "-r", capture, "-z", "roce,report"))
        rc, out = compare(saved, capture, "--json", "--fail-on-regression")
    c = json.loads(out)
    statuses = {f["status"] for f in c["findings"]} | {m["status"] for m in c["metrics"]}
    if rc != 0 or c["conclusion"]["overall"] != "unchanged" or not statuses <= {"same", "n/a"}:
        raise rslib.Failure(f"{scenario} against its own report: exit {rc}, {c['conclusion']['text']}")
    if not c["findings"]:
        raise rslib.Failure(f"{scenario}: no findings to match")


def run(argv):
    for pair in PAIRS:
        check_pair(*pair)
    check_same("pfc_storm")
    check_same("mp_drop")
    print(f"{len(PAIRS)} before/after pairs and 2 self-comparisons as expected")


if __name__ == "__main__":
    rslib.main(run)
