# SPDX-License-Identifier: GPL-2.0-or-later
"""Golden test: fields, -z roce,qp, -z roce,pfc, -z roce,qos, -z roce,hops, -z expert, -z roce,triage and -z roce,report,
and `roceshark events`, of one scenario against the baselines in tests/golden/. A variant runs the
same with extra tshark options (e.g. a custom QoS policy) and has baselines
of its own: golden.py SCENARIO [--variant NAME -- OPTIONS...]. `--update` (one scenario) or `--update-all`
rewrites the baselines; review the diff like code."""
import difflib
import glob
import json
import os
import re

import rslib


# Scenarios also checked under other options: (scenario, variant, options).
# tests/tshark/CMakeLists.txt registers the same list.
VARIANTS = [
    ("qos_dscp_lossy", "custom", ["-o", "roce.dscp_priority_map:0:3", "-o", "roce.lossless_priorities:3"]),
    ("qos_pcp_mismatch", "trust_pcp", ["-o", "roce.trust:pcp"]),
    ("qos_inconsistent", "learned", ["-o", "roce.policy_mode:learned"]),
    ("qos_dscp_lossy", "learned", ["-o", "roce.policy_mode:learned"]),
    ("pfc_speeds", "speeds", ["-o", "roce.point_link_gbps:p25:25,p400:400"]),
    ("mp_erspan", "erspan", ["-o", "roce.point_key:erspan", "-o", "roce.point_names:100=leaf-1,200=nic-b"]),
    ("mp_clock", "estimate", ["-o", "roce.clock:estimate"]),
    ("mp_clock", "path_order", ["-o", "roce.path_order:nic-a,leaf-1,nic-b"]),
    # Bytes at the scenario's 10 Gb/s; a tolerance above the 70 us between the onsets: no mismatch.
    ("mp_ecn_onsets", "tolerant", ["-o", "roce.link_gbps:10", "-o", "roce.ecn_onset_tolerance_us:100"]),
    # The chatter's 8% share counts as held once the storm's share is 5%.
    ("pfc_chatter", "share5", ["-o", "roce.storm_share_pct:5"]),
]


def readable(doc):
    """Indented JSON, with arrays of plain numbers (timelines, CDF points) on one line."""
    text = json.dumps(doc, indent=1)
    return re.sub(r"\[\s*([-0-9.e, \n]*?)\s*\]", lambda m: "[" + " ".join(m.group(1).split()) + "]", text) + "\n"


def events(capture, options):
    """`roceshark events` (the command's alone: no tshark view has it)."""
    status, out, err = rslib.roceshark(*options, "events", "--format", "tsv", capture)
    if status != 0:
        raise rslib.Failure(f"roceshark events {capture}: exit {status}\n{err}")
    return out


def outputs(capture, options):
    stats = lambda z: rslib.tshark("-n", "-q", *options, "-r", capture, "-z", z)
    return {
        "fields.tsv": rslib.fields(capture, *options),
        "qp.txt": stats("roce,qp"),
        "pfc.txt": stats("roce,pfc"),
        "qos.txt": stats("roce,qos"),
        "hops.txt": stats("roce,hops"),
        "expert.txt": stats("expert"),
        "triage.txt": stats("roce,triage"),
        # One line as printed; kept indented so that its diffs can be read.
        "report.json": readable(json.loads(stats("roce,report"))),
        "events.tsv": events(capture, options),
    }


def run(argv):
    if argv == ["--update-all"]:
        for cap in sorted(glob.glob(os.path.join(rslib.CAPTURES, "*.pcapng"))):
            run([os.path.basename(cap)[:-len(".pcapng")], "--update"])
        for scenario, variant, options in VARIANTS:
            run([scenario, "--update", "--variant", variant, "--", *options])
        return
    options = argv[argv.index("--") + 1:] if "--" in argv else []
    argv = argv[:argv.index("--")] if "--" in argv else argv
    scenario = argv[0]
    update = "--update" in argv
    name = scenario + ("." + argv[argv.index("--variant") + 1] if "--variant" in argv else "")
    capture = rslib.capture_path(scenario)
    problems = []
    for suffix, got in outputs(capture, options).items():
        path = os.path.join(rslib.GOLDEN, f"{name}.{suffix}")
        if update:
            with open(path, "w") as f:
                f.write(got)
            continue
        if not os.path.exists(path):
            problems.append(f"missing baseline {path} (run with --update and review it)")
            continue
        with open(path) as f:
            want = f.read()
        if suffix == "expert.txt":  # Wireshark's own expert infos vary by version
            want, got = rslib.canon_expert(want), rslib.canon_expert(got)
        if got != want:
            diff = difflib.unified_diff(want.splitlines(), got.splitlines(), path, "tshark", lineterm="", n=2)
            problems.append("\n".join(list(diff)[:80]))
    if problems:
        raise rslib.Failure("\n".join(problems))


if __name__ == "__main__":
    rslib.main(run)
