# SPDX-License-Identifier: GPL-2.0-or-later
"""Golden test: fields, -z roce,qp and -z expert of one scenario against
the baselines in tests/golden/. `--update` (one scenario) or `--update-all`
rewrites the baselines; review the diff like code."""
import difflib
import glob
import os

import rslib


def outputs(capture):
    return {
        "fields.tsv": rslib.fields(capture),
        "qp.txt": rslib.tshark("-n", "-q", "-r", capture, "-z", "roce,qp"),
        "expert.txt": rslib.tshark("-n", "-q", "-r", capture, "-z", "expert"),
    }


def run(argv):
    if argv == ["--update-all"]:
        for cap in sorted(glob.glob(os.path.join(rslib.CAPTURES, "*.pcapng"))):
            run([os.path.basename(cap)[:-len(".pcapng")], "--update"])
        return
    scenario = argv[0]
    update = "--update" in argv
    capture = rslib.capture_path(scenario)
    problems = []
    for suffix, got in outputs(capture).items():
        path = os.path.join(rslib.GOLDEN, f"{scenario}.{suffix}")
        if update:
            with open(path, "w") as f:
                f.write(got)
            continue
        if not os.path.exists(path):
            problems.append(f"missing baseline {path} (run with --update and review it)")
            continue
        with open(path) as f:
            want = f.read()
        if got != want:
            diff = difflib.unified_diff(want.splitlines(), got.splitlines(), path, "tshark", lineterm="", n=2)
            problems.append("\n".join(list(diff)[:80]))
    if problems:
        raise rslib.Failure("\n".join(problems))


if __name__ == "__main__":
    rslib.main(run)
