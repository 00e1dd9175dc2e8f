# SPDX-License-Identifier: GPL-2.0-or-later
"""The command line: roce.* preferences as -o (a bad one is an error, exit
2, naming it), usage errors, and `roceshark health`, whose exit status is
scripts/roce-health's on the same capture and options."""
import os
import subprocess

import cli
import rslib

HEALTH = os.path.join(rslib.ROOT, "scripts", "roce-health")


def health(capture, *options):
    """The exit statuses of `roceshark health` and scripts/roce-health."""
    fail_on = [o for o in options if o.startswith("--fail-on")]
    prefs = [o for o in options if not o.startswith("--fail-on")]
    fail_on = ["--fail-on", fail_on[0].split("=")[1]] if fail_on else []
    status, out, err = cli.command(*prefs, *fail_on, "health", capture)
    script = subprocess.run([HEALTH, "--build", rslib.BUILD, *fail_on, capture, *prefs], capture_output=True,
                            text=True, timeout=600)
    return status, script.returncode, out


def run(argv):
    clean = rslib.capture_path("clean")
    # Bad preferences and usage: exit 2, the reason on stderr, nothing on stdout.
    for args, says in (
            (["-o", "roce.link_gbps:0", "qp", clean], "roce.link_gbps: '0'"),
            (["-oroce.clock:maybe", "qp", clean], "roce.clock"),
            (["-o", "roce.no_such:1", "qp", clean], "no preference roce.no_such"),
            (["-o", "gui.column.format:x", "qp", clean], "only roce.*"),
            (["-o", "roce.timeout_us", "qp", clean], "expected roce.NAME:VALUE"),
            (["-o"], "needs a value"),
            (["--fail-on", "maybe", "health", clean], "--fail-on maybe"),
            (["--fail-on", "warn", "qp", clean], "health only"),
            (["-x", "qp", clean], "unknown option -x"),
            (["nonsense", clean], "unknown view 'nonsense'"),
            (["qp"], "no capture file"),
            ([], "no view"),
            (["qp", "-", "-"], "standard input"),
            (["-j", "0", "qp", clean], "-j 0: a whole number from 1 to 256"),
            (["-j2.5", "qp", clean], "-j 2.5"),
            (["-j", "many", "qp", clean], "-j many"),
            (["-j"], "-j needs a value"),
            # Names are printable text: no escape sequence reaches a terminal through them.
            (["-o", "roce.path_order:nic-a,\x1b[31mleaf-1", "qp", clean], "roce.path_order: '\\x1b[31mleaf-1' holds"),
            (["-o", "roce.path_order:nic-a,leaf\n#1 ERROR", "qp", clean], "holds a control character"),
            (["-o", "roce.point_names:1=a\x07b", "qp", clean], "roce.point_names"),
            (["-o", "roce.point_link_gbps:nic\x9b:25", "qp", clean], "roce.point_link_gbps"),
    ):
        status, out, err = cli.command(*args)
        if status != 2 or says not in err or "usage:" not in err or out:
            raise rslib.Failure(f"roceshark {' '.join(args)}: exit {status}, stderr {err!r}")
    # A good preference applies (the QoS view prints the policy in force).
    status, out, _ = cli.command("-o", "roce.lossless_priorities:0,3", "qos", clean)
    if status or "Lossless priorities: 0,3" not in out:
        raise rslib.Failure(f"-o roce.lossless_priorities:0,3 was not applied:\n{out}")
    # A path_order name that no capture point has is said in the report, not ignored.
    mp = rslib.capture_path("mp_clock")
    status, out, _ = cli.command("-o", "roce.path_order:nic-a,leaf-9,nic-b", "triage", mp)
    if "roce.path_order names leaf-9, which no capture point" not in " ".join(out.split()):
        raise rslib.Failure(f"an unmatched roce.path_order name is not in the triage:\n{out}")
    status, out, _ = cli.command("-o", "roce.path_order:nic-a,leaf-9,nic-b", "report", mp)
    if '"kind": "path_order_unmatched"' not in out and '"kind":"path_order_unmatched"' not in out:
        raise rslib.Failure(f"an unmatched roce.path_order name is not in capture_quality:\n{out[-2000:]}")
    status, out, _ = cli.command("-o", "roce.path_order:nic-a,leaf-1,nic-b", "triage", mp)
    if "path_order" in out:
        raise rslib.Failure(f"every roce.path_order name is a point, yet the triage notes it:\n{out}")
    # health: PASS, FAIL, WARN with and without --fail-on warn, INCOMPLETE (a reached limit).
    seen = set()
    for scenario, *options in (("clean",), ("pfc_storm",), ("qos_ecn_off",), ("qos_ecn_off", "--fail-on=warn"),
                               ("gbn", "-o", "roce.max_flows:1"), ("mp_burst",), ("mp_burst", "--fail-on=warn")):
        capture = rslib.capture_path(scenario)
        got, want, out = health(capture, *options)
        if got != want:
            raise rslib.Failure(f"roceshark health {scenario} {options}: exit {got}, roce-health exits {want}")
        if "Health:" not in out:
            raise rslib.Failure(f"roceshark health {scenario}: no triage printed")
        seen.add(got)
    if seen != {0, 1, 2}:
        raise rslib.Failure(f"health exit statuses seen: {sorted(seen)}; the cases must cover 0, 1 and 2")


rslib.main(run)
