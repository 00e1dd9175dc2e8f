# SPDX-License-Identifier: GPL-2.0-or-later
"""scripts/roce-compare on synthetic version-2 reports made here (no
tshark): matching findings by id, the direction of every change, exit
statuses, rejected inputs, and captures run through a stand-in rs-tshark."""
import json
import os
import shutil
import tempfile

import synth
from synth import expect, finding, report

TMP = tempfile.mkdtemp(prefix="roce-compare-test-")


def compare(before, after, *flags, env=None, scripts=synth.SCRIPTS):
    """(exit status, comparison as JSON or None, stderr) of two documents."""
    b = before if isinstance(before, str) else synth.write(TMP, "before.json", before)
    a = after if isinstance(after, str) else synth.write(TMP, "after.json", after)
    rc, out, err = synth.run("roce-compare", b, a, "--json", *flags, env=env, scripts=scripts)
    return rc, (json.loads(out) if rc in (0, 1) else None), err


def by(rows, key):
    return {r[key]: r for r in rows}


def test_fixed_finding_and_improved_metrics():
    before = report({"loss": 5, "stall": 2.5, "findings": 2}, verdict="FAIL", findings=[
        finding("dscp_remarked", "nic-a->leaf-1", rank=1, severity="error", share=0.4),
        finding("pfc_storm", "leaf-1", rank=2, share=0.2)])
    after = report({"loss": 1, "stall": 2.5, "findings": 1}, verdict="WARN", findings=[
        finding("pfc_storm", "leaf-1", rank=1, share=0.05)])
    rc, c, err = compare(before, after)
    expect(rc == 0, f"exit {rc}: {err}")
    f = by(c["findings"], "id")
    expect(f["dscp_remarked|nic-a->leaf-1"]["status"] == "fixed", f"remark: {f['dscp_remarked|nic-a->leaf-1']}")
    expect(f["dscp_remarked|nic-a->leaf-1"]["after"] is None, "a fixed finding has no after side")
    expect(f["pfc_storm|leaf-1"]["status"] == "improved", f"storm: {f['pfc_storm|leaf-1']['status']}")
    expect(f["pfc_storm|leaf-1"]["before"]["rank"] == 2 and f["pfc_storm|leaf-1"]["after"]["rank"] == 1, "ranks")
    m = by(c["metrics"], "name")
    expect(m["loss"]["status"] == "improved" and m["loss"]["change"] == -4, f"loss: {m['loss']}")
    expect(m["stall"]["status"] == "same", f"stall: {m['stall']}")
    expect(m["findings"]["status"] == "improved", f"findings metric: {m['findings']}")
    expect(c["verdict"] == {"before": "FAIL", "after": "WARN", "status": "improved"}, f"verdict: {c['verdict']}")
    expect(c["conclusion"]["overall"] == "improved" and not c["conclusion"]["regressed"], f"{c['conclusion']}")
    expect(c["conclusion"]["findings"]["fixed"] == 1, f"{c['conclusion']}")
    rc, _, err = compare(before, after, "--fail-on-regression")
    expect(rc == 0, f"nothing regressed, yet --fail-on-regression exited {rc}: {err}")


def test_new_finding_and_regressed_metric():
    before = report({"loss": 1})
    after = report({"loss": 5, "findings": 1}, findings=[finding("rnr", "nic-b", severity="note", share=0.01)])
    rc, c, _ = compare(before, after)
    expect(rc == 0, f"exit {rc} without --fail-on-regression")
    expect(by(c["findings"], "id")["rnr|nic-b"]["status"] == "new", f"{c['findings']}")
    expect(by(c["metrics"], "name")["loss"]["status"] == "regressed", "loss 1 -> 5 is a regression")
    expect(c["conclusion"]["overall"] == "regressed" and c["conclusion"]["regressed"], f"{c['conclusion']}")
    rc, _, _ = compare(before, after, "--fail-on-regression")
    expect(rc == 1, f"--fail-on-regression exited {rc}, not 1")
    # A new finding alone is a regression.
    rc, _, _ = compare(report(), report(findings=[finding("rnr", "nic-b", share=0)]), "--fail-on-regression")
    expect(rc == 1, f"a new finding: --fail-on-regression exited {rc}")


def test_impact_direction():
    def status(b, a):
        _, c, _ = compare(report(findings=[b]), report(findings=[a]))
        return c["findings"][0]["status"]
    base = dict(kind="microburst", where="leaf-1")
    expect(status(finding(**base, share=0.1), finding(**base, share=0.3)) == "regressed", "share up")
    expect(status(finding(**base, share=0.1), finding(**base, share=0.1)) == "same", "share equal")
    expect(status(finding(**base, share=0.1, stall_ns=900), finding(**base, share=0.1, stall_ns=100)) == "improved",
           "equal share, less time lost")
    expect(status(finding(**base, severity="warning", share=0.1),
                  finding(**base, severity="error", share=0.01)) == "regressed", "severity up")
    expect(status(finding(**base, share=0.1), finding(**base, share=0.1, frames=(7, 8))) == "improved",
           "fewer evidence frames")


def test_metric_null_and_mixed():
    before = report({"hop_latency": None, "loss": 1, "ce": 2})
    after = report({"hop_latency": 40, "loss": 0.5, "ce": 3})
    _, c, _ = compare(before, after)
    m = by(c["metrics"], "name")
    expect(m["hop_latency"]["status"] == "n/a" and m["hop_latency"]["change"] is None, f"{m['hop_latency']}")
    expect(m["loss"]["status"] == "improved" and m["ce"]["status"] == "regressed", "loss and ce")
    expect(c["conclusion"]["overall"] == "mixed", f"{c['conclusion']}")


def test_same_report_is_unchanged():
    doc = report({"loss": 0.5}, findings=[finding("loss", "nic-a"), finding("hop_loss", "nic-a->leaf-1", rank=2)])
    rc, c, _ = compare(doc, doc, "--fail-on-regression")
    expect(rc == 0, f"exit {rc}")
    expect({f["status"] for f in c["findings"]} == {"same"}, f"{c['findings']}")
    expect({m["status"] for m in c["metrics"]} == {"same"}, f"{c['metrics']}")
    expect(c["conclusion"]["overall"] == "unchanged", f"{c['conclusion']}")


def test_repeated_id_pairs_in_rank_order():
    f1 = finding("loss", "nic-a", rank=1, share=0.3)
    f2 = finding("loss", "nic-a", rank=2, share=0.1)
    _, c, _ = compare(report(findings=[f1, f2]), report(findings=[dict(f1, share=0.3)]))
    expect(sorted(f["status"] for f in c["findings"]) == ["fixed", "same"], f"{c['findings']}")


def test_incomplete_verdict_is_shown_not_ranked():
    before = report({"loss": 5}, verdict="FAIL")
    after = report({"loss": 1}, verdict="INCOMPLETE")
    rc, c, err = compare(before, after)
    expect(rc == 0, f"exit {rc}: {err}")
    expect(c["verdict"] == {"before": "FAIL", "after": "INCOMPLETE", "status": "n/a"}, f"verdict: {c['verdict']}")


def test_text_output():
    before = report({"loss": 5}, verdict="FAIL", findings=[finding("dscp_remarked", "nic-a->leaf-1", title="DSCP <x>")])
    after = report({"loss": 1}, verdict="PASS")
    b, a = synth.write(TMP, "b.json", before), synth.write(TMP, "a.json", after)
    rc, out, err = synth.run("roce-compare", b, a)
    expect(rc == 0, f"exit {rc}: {err}")
    lines = out.splitlines()
    loss = next((l for l in lines if l.startswith("loss")), "")
    expect(loss.split() == ["loss", "(%)", "5", "1", "-4", "improved"], f"loss line: {loss!r}")
    fixed = next((l for l in lines if l.startswith("fixed")), "")
    expect("dscp_remarked|nic-a->leaf-1" in fixed and "DSCP <x>" in fixed, f"finding line: {fixed!r}")
    verdict = next((l for l in lines if l.startswith("verdict")), "")
    expect(verdict.split() == ["verdict", "FAIL", "PASS", "improved"], f"verdict line: {verdict!r}")
    expect(lines[-1].startswith("conclusion: improved"), f"last line: {lines[-1]!r}")


def test_rejected_inputs():
    v1 = report()
    v1["version"] = 1
    del v1["triage"]
    rc, _, err = compare(v1, report())
    expect(rc == 2 and "version" in err and "before.json" in err, f"version 1: exit {rc}, {err!r}")
    other = dict(report(), schema="something-else")
    rc, _, err = compare(report(), other)
    expect(rc == 2 and "roceshark report" in err, f"wrong schema: exit {rc}, {err!r}")
    junk = os.path.join(TMP, "junk.json")
    with open(junk, "w") as f:
        f.write("{ not json")
    rc, _, err = compare(junk, report())
    expect(rc == 2 and "not a JSON report" in err, f"not JSON: exit {rc}, {err!r}")
    rc, _, err = compare(os.path.join(TMP, "missing.json"), report())
    expect(rc == 2 and "no such file" in err, f"missing file: exit {rc}, {err!r}")
    rc, _, err = synth.run("roce-compare", synth.write(TMP, "x.json", report()))
    expect(rc == 2 and "usage" in err, f"one argument: exit {rc}, {err!r}")
    rc, _, err = synth.run("roce-compare", "--no-such-flag", "a", "b")
    expect(rc == 2 and "usage" in err, f"unknown flag: exit {rc}, {err!r}")


def test_capture_without_plugin_is_a_clear_error():
    capture = os.path.join(synth.ROOT, "captures", "clean.pcapng")
    rc, _, err = compare(capture, report(), env={"ROCESHARK_BUILD": os.path.join(TMP, "no-build")})
    expect(rc == 2 and "tshark failed" in err and "no plugin" in err, f"exit {rc}, {err!r}")


def test_capture_through_rs_tshark():
    """A copy of the scripts with a stand-in rs-tshark: the arguments it is
    given, and its output taken as the report."""
    scripts = os.path.join(TMP, "scripts")
    os.makedirs(scripts, exist_ok=True)
    for name in ("roce-compare", "roce_report.py"):
        shutil.copy2(os.path.join(synth.SCRIPTS, name), scripts)
    doc = synth.write(TMP, "canned.json", report({"loss": 2}, findings=[finding("loss", "nic-a")]))
    args_log = os.path.join(TMP, "args.log")
    fake = os.path.join(scripts, "rs-tshark")
    with open(fake, "w") as f:
        f.write(f"#!/bin/sh\nprintf '%s\\n' \"$*\" >> '{args_log}'\n"
                f"case \"$*\" in *fail*) echo 'tshark: it broke' >&2; exit 2;; esac\ncat '{doc}'\n")
    os.chmod(fake, 0o755)
    capture = os.path.join(TMP, "x.pcapng")
    with open(capture, "wb") as f:
        f.write(b"\x0a\x0d\x0d\x0a")
    magic_only = os.path.join(TMP, "noext")
    shutil.copy(capture, magic_only)
    rc, c, err = compare(capture, magic_only, "--build", "/some/build", "--", "-o", "roce.clock:estimate",
                         scripts=scripts)
    expect(rc == 0, f"exit {rc}: {err}")
    expect(c["findings"][0]["status"] == "same", f"{c['findings']}")
    with open(args_log) as f:
        calls = f.read().splitlines()
    want = f"--build /some/build -n -q -r {capture} -o roce.clock:estimate -z roce,report"
    expect(calls[0] == want and len(calls) == 2, f"rs-tshark called as {calls}, not {want!r} twice")
    rc, _, err = compare(capture, report(), "--", "-o", "fail", scripts=scripts)
    expect(rc == 2 and "it broke" in err, f"tshark failing: exit {rc}, {err!r}")


if __name__ == "__main__":
    try:
        synth.main([test_fixed_finding_and_improved_metrics, test_new_finding_and_regressed_metric,
                    test_impact_direction, test_metric_null_and_mixed, test_same_report_is_unchanged,
                    test_repeated_id_pairs_in_rank_order, test_incomplete_verdict_is_shown_not_ranked, test_text_output, test_rejected_inputs,
                    test_capture_without_plugin_is_a_clear_error, test_capture_through_rs_tshark])
    finally:
        shutil.rmtree(TMP, True)
