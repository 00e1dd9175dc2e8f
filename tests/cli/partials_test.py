# SPDX-License-Identifier: GPL-2.0-or-later
"""Partial reports merge into the report of the whole (issue 30's shard
equality, issue 34's merge equality): every bundled capture split by host
pair into N = 1, 2, 3 and 8 shards, each shard decoded by `roceshark
partial`, and `roceshark merge` of the shards, given in a shuffled order,
prints what `roceshark VIEW` prints of the capture, byte for byte, with the
same exit status: every view at N = 3, the JSON report (which holds every
figure the text views draw) at the others. The multi-point captures are
also given as one file per capture point (the generator's --only-point),
each file a partial of its own (--file I), some of those split by host
pair again. Every capture is also cut in three pieces (editcap -c, as a
ring buffer cuts a capture): `-a` reads the pieces as the whole, and so
does the merge of a partial per piece. The captures with preferences of
their own are merged under them (the partials carry their -o). Two
captures stamped as broken clocks stamp them (retime.py: a step back,
stamps passing 2^64, all equal, reversed, random) merge exactly too.

  partials_test.py PART/PARTS   the bundled captures whose index is PART mod PARTS
"""
import glob
import json
import os
import random
import subprocess
import sys
import tempfile

import cli  # noqa: E402
import retime  # noqa: E402
import rslib  # noqa: E402

GEN = os.path.join(rslib.BUILD, "captures", "roceshark-gen")
VIEWS = cli.VIEWS + ["health"]
SHARDS = [1, 2, 3, 8]
# The scenarios' own preferences, as the golden variants give them.
OPTIONS = {
    "pfc_speeds": ["-o", "roce.point_link_gbps:p25:25,p400:400"],
    "mp_erspan": ["-o", "roce.point_key:erspan", "-o", "roce.point_names:100=leaf-1,200=nic-b"],
    "mp_clock": ["-o", "roce.clock:estimate", "-o", "roce.path_order:nic-a,leaf-1,nic-b"],
}


def run(*args):
    return cli.command(*args)


def check(label, whole, merged):
    """`merged` (status, stdout, stderr) must be `whole`'s status and stdout."""
    if merged[0] != whole[0] or merged[1] != whole[1]:
        cli.same(f"{label} (exit {merged[0]}, whole {whole[0]}; {merged[2].strip()})", merged[1], whole[1])
        raise rslib.Failure(f"{label}: exit {merged[0]}, the whole's {whole[0]}")


def pieces(tmp, capture, name):
    """The capture cut in three pieces, in order."""
    frames = int(subprocess.run(["capinfos", "-Mc", capture], check=True, capture_output=True,
                                text=True).stdout.split()[-1])
    base = os.path.join(tmp, name + "-piece.pcapng")
    subprocess.run(["editcap", "-c", str(frames // 3 + 1), capture, base], check=True, capture_output=True)
    return sorted(glob.glob(os.path.join(tmp, name + "-piece_*.pcapng")))


def concatenated(tmp, name, capture, opts, whole_report):
    files = pieces(tmp, capture, name)
    check(f"{name}: report -a of {len(files)} pieces", whole_report, run("report", "-a", *opts, *files))
    parts = partials(tmp, name + "-a", files, ["-a", *opts], 2, per_file=True)
    check(f"{name}: report merged from {len(parts)} partials of {len(files)} pieces", whole_report,
          run("merge", "report", *parts))
    for f in files + parts:
        os.remove(f)


def partials(tmp, tag, files, opts, shards, per_file=False):
    """Partial reports of `files`: host-pair shards of all of them, written
    by `split` in one read (at 3 shards also by `partial --shard K/3`, which
    must write the same bytes), or by `partial` of each file apart."""
    if not per_file:
        directory = os.path.join(tmp, f"{tag}-split")
        status, _, err = run("split", "-n", str(shards), "-w", directory, *opts, *files)
        if status != 0:
            raise rslib.Failure(f"{tag}: split -n {shards} exited {status}: {err}")
        out = [os.path.join(directory, f"shard-{k}-of-{shards}.rsp") for k in range(shards)]
        if sorted(os.listdir(directory)) != sorted(os.path.basename(p) for p in out):
            raise rslib.Failure(f"{tag}: split -n {shards} wrote {sorted(os.listdir(directory))}")
        for k in range(shards if shards == 3 else 0):
            alone = os.path.join(tmp, f"{tag}-{k}.rsp")
            status, _, err = run("partial", "-w", alone, "--shard", f"{k}/{shards}", *opts, *files)
            with open(alone, "rb") as a, open(out[k], "rb") as b:
                if status != 0 or a.read() != b.read():
                    raise rslib.Failure(f"{tag}: partial --shard {k}/{shards} (exit {status}: {err}) "
                                        f"is not split's shard {k}")
            os.remove(alone)
        random.Random(tag).shuffle(out)
        return out
    out = []
    for f in range(len(files)):
        for k in range(shards):
            path = os.path.join(tmp, f"{tag}-{f}-{k}.rsp")
            status, _, err = run("partial", "-w", path, "--shard", f"{k}/{shards}", "--file", str(f), *opts, *files)
            if status != 0:
                raise rslib.Failure(f"{tag}: partial {f} {k}/{shards} exited {status}: {err}")
            out.append(path)
    random.Random(tag).shuffle(out)  # the merge order must not matter
    return out


def compare(tmp, tag, files, opts, views_at):
    whole = {v: run(v, *opts, *files) for v in VIEWS}
    if len(files) == 1:
        concatenated(tmp, tag, files[0], opts, whole["report"])
    for shards, per_file in views_at:
        parts = partials(tmp, f"{tag}-{shards}-{int(per_file)}", files, opts, shards, per_file)
        for v in (VIEWS if shards == 3 else ["report"]):
            check(f"{tag}: {v} merged from {len(parts)} partials ({shards} shards"
                  f"{', a file each' if per_file else ''})", whole[v], run("merge", v, *parts))
        for p in parts:
            os.remove(p)
    return json.loads(whole["report"][1])


def points_of(report):
    return [p["name"] for p in report["points"]]


def run_part(argv):
    part, parts = (int(x) for x in argv[0].split("/"))
    captures = sorted(glob.glob(os.path.join(rslib.CAPTURES, "*.pcapng")))[part::parts]
    done = 0
    with tempfile.TemporaryDirectory() as tmp:
        for capture in captures:
            name = os.path.basename(capture)[:-len(".pcapng")]
            opts = OPTIONS.get(name, [])
            report = compare(tmp, name, [capture], opts, [(n, False) for n in SHARDS])
            done += 1
            # A multi-point capture as a file per point, when its scenario
            # names its points as the capture does.
            scn = os.path.join(rslib.CAPTURES, "scenarios", name + ".scn")
            points = points_of(report)
            if len(points) < 2 or not os.path.exists(scn) or "roce.point_key:erspan" in opts:
                continue
            files = []
            for p in points:
                out = os.path.join(tmp, f"{name}.{p}.pcapng")
                if subprocess.run([GEN, scn, "-o", out, "--only-point", p], capture_output=True).returncode != 0:
                    raise rslib.Failure(f"{name}: the generator cannot write point {p} alone")
                files.append(out)
            compare(tmp, name + "-points", files, opts, [(1, True), (3, True), (2, False)])
            print(f"{name}: {len(points)} points as {len(files)} files: merged = whole")
            for f in files:
                os.remove(f)
    if part == 0:
        with tempfile.TemporaryDirectory() as tmp:
            for path, _ in retime.copies([rslib.capture_path(n) for n in ("demo", "mp_drop")], tmp):
                compare(tmp, os.path.basename(path)[:-len(".pcapng")], [path], [], [(3, False)])
            print("demo and mp_drop: every badly stamped copy merges to the whole")
    print(f"{done} captures: every merge equal to the whole")


if __name__ == "__main__":
    rslib.main(run_part)
