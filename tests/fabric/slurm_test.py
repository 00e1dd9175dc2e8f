# SPDX-License-Identifier: GPL-2.0-or-later
"""scripts/roceshark-slurm on a real one-node Slurm cluster of the test's
own (slurm_cluster.py; docs/fabric.md).

One file per capture point of mp_drop (made with the generator), split
into 4 shards each by its own array task: the 12 partials merged must give
exactly what `roceshark triage` and `roceshark report` give on the three
files. A file cut short must come through as the command says it (exit 1,
written). And when one task fails (a --roceshark wrapper fails file 1's
split), --wait must exit 2 naming that task and its file, the other files'
shards are written, and no result may be left.
Needs root, slurm-wlm and munge; skipped (77) otherwise, with the reason."""
import os
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "cli"))
import cli  # noqa: E402
import rslib  # noqa: E402
import slurm_cluster  # noqa: E402

GEN = os.path.join(rslib.BUILD, "captures", "roceshark-gen")
SLURM = os.path.join(rslib.ROOT, "scripts", "roceshark-slurm")
POINTS = ["nic-a", "leaf-1", "nic-b"]
SHARDS = 4
RESULTS = ("triage.txt", "report.json")


def submit(cluster, out, files, *extra):
    start = time.monotonic()
    p = subprocess.run([SLURM, "-n", str(SHARDS), "-o", out, "--wait", "--roceshark", cli.COMMAND, *extra, *files],
                       env=dict(cluster.env, **{k: cli.ENV[k] for k in ("TZ", "LANG", "LC_ALL")}),
                       capture_output=True, text=True, timeout=500)
    print(f"{os.path.basename(out)}: roceshark-slurm --wait exit {p.returncode} in {time.monotonic() - start:.1f} s")
    return p


def results_equal(cluster, out, files, want_status, prefs=()):
    p = submit(cluster, out, files, *[a for pref in prefs for a in ("--pref", pref)])
    if p.returncode != want_status:
        raise rslib.Failure(f"roceshark-slurm exit {p.returncode}, want {want_status}:\n{p.stdout}{p.stderr}")
    for name, view in zip(RESULTS, ("triage", "report")):
        status, want, err = cli.command(view, *[a for pref in prefs for a in ("-o", pref)], *files)
        if status != want_status:
            raise rslib.Failure(f"roceshark {view}: exit {status}, want {want_status}: {err}")
        with open(os.path.join(out, name)) as f:
            got = f.read()
        if got != want:
            lines = [i for i, (a, b) in enumerate(zip(got.splitlines(), want.splitlines())) if a != b]
            at = lines[0] if lines else min(len(got.splitlines()), len(want.splitlines()))
            raise rslib.Failure(f"{out}/{name} is not `roceshark {view}` of the files, first at line {at + 1}:\n"
                                f"  slurm:   {(got.splitlines() + ['(end)'])[at]!r}\n"
                                f"  command: {(want.splitlines() + ['(end)'])[at]!r}")


def one_task_fails(cluster, tmp, files):
    """Task 1 (file 1's split) fails; the other two succeed."""
    wrapper = os.path.join(tmp, "fail-one-task")
    with open(wrapper, "w") as f:
        f.write(f"""#!/bin/sh
if [ "$1 $2 $3 $4 $5" = "split -n {SHARDS} --file 1" ]; then
  echo "injected failure: this file only" >&2
  exit 2
fi
exec {cli.COMMAND} "$@"
""")
    os.chmod(wrapper, 0o755)
    out = os.path.join(tmp, "one-fails")
    p = submit(cluster, out, files, "--roceshark", wrapper)
    named = [line for line in p.stderr.splitlines() if " failed, exit " in line or "did not finish" in line]
    if p.returncode != 2 or len(named) != 1 or f"task 1 (file 1 {files[1]})" not in named[0]:
        raise rslib.Failure(f"one failed task: exit {p.returncode}, want 2 naming task 1 (file 1) alone:\n{p.stderr}")
    if "injected failure" not in p.stderr:
        raise rslib.Failure(f"the failed task's log is not shown:\n{p.stderr}")
    left = sorted(n for n in os.listdir(out) if n not in ("partials", "logs"))
    if left:
        raise rslib.Failure(f"a task failed, and {out} holds {left}")
    partials = sorted(os.listdir(os.path.join(out, "partials")))
    want = sorted(f"file-{f}.shard-{k}-of-{SHARDS}.rsp" for f in (0, 2) for k in range(SHARDS))
    if partials != want:
        raise rslib.Failure(f"partials written: {partials}; want those of files 0 and 2: {want}")


def run(argv):
    why = slurm_cluster.missing()
    if why:
        print(f"SKIP: {why}")
        sys.exit(77)
    scn = os.path.join(rslib.CAPTURES, "scenarios", "mp_drop.scn")
    with tempfile.TemporaryDirectory() as tmp:
        files = []
        for point in POINTS:
            files.append(os.path.join(tmp, point + ".pcapng"))
            subprocess.run([GEN, scn, "-o", files[-1], "--only-point", point], check=True)
        # nic-b's file cut inside its last record: its tasks exit 1, and so must the merge.
        cut = os.path.join(tmp, "cut", "nic-b.pcapng")
        os.mkdir(os.path.dirname(cut))
        with open(files[-1], "rb") as f, open(cut, "wb") as g:
            g.write(f.read()[:-10])
        start = time.monotonic()
        with slurm_cluster.SlurmCluster() as cluster:
            print(f"cluster up in {time.monotonic() - start:.1f} s")
            results_equal(cluster, os.path.join(tmp, "whole"), files, 0)
            # ... under a preference of the analysis, which the partials carry to the merge.
            results_equal(cluster, os.path.join(tmp, "cut-short"), files[:-1] + [cut], 1, ["roce.lossless_priorities:3,5"])
            one_task_fails(cluster, tmp, files)
        print(f"{len(files)} files x {SHARDS} shards: the merged triage and report are the command's; "
              f"a cut file exits 1, a failed task is named; {time.monotonic() - start:.1f} s in all")


if __name__ == "__main__":
    rslib.main(run)
