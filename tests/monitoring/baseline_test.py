# SPDX-License-Identifier: GPL-2.0-or-later
"""`roceshark monitor --baseline` (issue 33): ranges learned from clean
windows and saved; the same link losing packets leaves its range, by how
much the window report and roceshark_baseline_deviation say; a clean
capture stays inside; a bad baseline file is an error naming it."""
import json
import os
import tempfile

import monitor  # first: it puts the command tests' helpers on the path
import rslib  # noqa: E402


def run(argv):
    with tempfile.TemporaryDirectory() as tmp:
        saved = os.path.join(tmp, "baseline.json")
        status, _, err = monitor.monitor("-q", "--window", "0.000004", "--baseline", "3", "--save-baseline", saved,
                                         rslib.capture_path("clean"))
        if status != 0 or not os.path.exists(saved):
            raise rslib.Failure(f"--save-baseline: exit {status}, {err}")
        with open(saved) as f:
            learned = json.load(f)
        loss = [r for r in learned["ranges"] if r["metric"] == "loss" and r["labels"] == {"point": "tor-1"}]
        if learned["schema"] != "roceshark-baseline" or not loss or loss[0]["high"] != 0:
            raise rslib.Failure(f"the clean capture's baseline: {learned}")
        print(f"learned from 3 clean windows: {len(learned['ranges'])} ranges, loss at tor-1 {loss[0]}")

        for name, drifts in (("gbn", True), ("clean", False)):
            out, prom = os.path.join(tmp, "out-" + name), os.path.join(tmp, "prom-" + name)
            os.mkdir(prom)
            status, text, err = monitor.monitor("--window", "0.00002", "--baseline-file", saved, "--out", out,
                                                "--textfile", prom, rslib.capture_path(name))
            ws = monitor.windows(out)
            loss = [d for w in ws for d in w["drift"] if d["metric"] == "loss" and d["labels"] == {"point": "tor-1"}]
            with open(os.path.join(prom, "roceshark.prom")) as f:
                dev = [v for n, labels, v in monitor.samples(f.read()) if n == "roceshark_baseline_deviation"
                       and labels == {"metric": "loss", "point": "tor-1"}]
            if status != 0 or bool(loss) != drifts or not dev or (dev[0] > 3) != drifts:
                raise rslib.Failure(f"{name}: exit {status}, loss drifts {loss}, deviation {dev}: {err}")
            if drifts and "drift: loss at tor-1" not in text:
                raise rslib.Failure(f"{name}: no drift line for a person:\n{text}")
            print(f"{name}: {'left its range: ' + loss[0]['text'] if drifts else 'inside its ranges'}; "
                  f"roceshark_baseline_deviation{{metric=\"loss\",point=\"tor-1\"}} = {dev[0]:g}")

        bad = os.path.join(tmp, "bad.json")
        for text in ("{", '{"schema":"other","version":1,"ranges":[]}',
                     '{"schema":"roceshark-baseline","version":1,"ranges":[{"metric":"loss","labels":{},'
                     '"low":2,"high":1,"width":0}]}'):
            with open(bad, "w") as f:
                f.write(text)
            status, _, err = monitor.monitor("-q", "--baseline-file", bad, rslib.capture_path("clean"))
            if status != 2 or f"--baseline-file {bad}" not in err:
                raise rslib.Failure(f"a bad baseline {text!r}: exit {status}, {err!r}")
        print("a truncated, foreign or inverted baseline file: exit 2, naming the file")


rslib.main(run)
