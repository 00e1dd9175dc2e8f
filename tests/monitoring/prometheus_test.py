# SPDX-License-Identifier: GPL-2.0-or-later
"""A real Prometheus server (Debian's, started here on loopback) scrapes
`roceshark monitor --replay` of the bundled PFC storm, with the shipped
alert rules loaded: the storm's metrics arrive with their labels, and the
shipped RoceSharkPfcStorm alert fires (issue 33). Skipped (77) without
prometheus."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

import monitor  # first: it puts the command tests' helpers on the path
import cli  # noqa: E402
import rslib  # noqa: E402

DEADLINE_S = 90  # for each thing awaited: a slow machine waits longer, a broken one fails


def api(port, path, **params):
    url = f"http://127.0.0.1:{port}/api/v1/{path}"
    if params:
        url += "?" + urllib.parse.urlencode(params)
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.load(r)["data"]


def await_(what, probe, procs):
    start = time.monotonic()
    while time.monotonic() - start < DEADLINE_S:
        for name, p in procs.items():
            if p.poll() is not None:
                raise rslib.Failure(f"{name} ended (exit {p.returncode}) while waiting for {what}")
        try:
            got = probe()
        except OSError:
            got = None
        if got:
            return got
        time.sleep(0.5)
    raise rslib.Failure(f"no {what} within {DEADLINE_S} s")


def run(argv):
    if not shutil.which("prometheus"):
        print("SKIP: no prometheus (Debian's prometheus package)")
        sys.exit(77)
    with tempfile.TemporaryDirectory() as tmp:
        mport, pport = monitor.free_port(), monitor.free_port()
        config = os.path.join(tmp, "prometheus.yml")
        with open(config, "w") as f:
            f.write(f"""global:
  scrape_interval: 1s
  evaluation_interval: 1s
rule_files: [{json.dumps(monitor.RULES)}]
scrape_configs:
  - job_name: roceshark
    static_configs:
      - targets: ["127.0.0.1:{mport}"]
""")
        procs = {}
        try:
            procs["roceshark monitor"] = subprocess.Popen(
                [cli.COMMAND, "monitor", "-q", "--replay", rslib.capture_path("pfc_storm"), "--listen",
                 f"127.0.0.1:{mport}", "--linger", "600"], env=cli.ENV, stderr=subprocess.PIPE, text=True)
            procs["prometheus"] = subprocess.Popen(
                ["prometheus", f"--config.file={config}", f"--storage.tsdb.path={tmp}/data",
                 f"--web.listen-address=127.0.0.1:{pport}"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)

            def storms():
                got = api(pport, "query", query="roceshark_pfc_storms_total")["result"]
                return [r for r in got if r["metric"].get("point") == "tor-1" and r["metric"].get("priority") == "3"
                        and float(r["value"][1]) >= 1]

            storm = await_("roceshark_pfc_storms_total{point=\"tor-1\",priority=\"3\"} >= 1", storms, procs)[0]
            if storm["metric"].get("job") != "roceshark":
                raise rslib.Failure(f"storm series without the job label: {storm['metric']}")
            print(f"scraped: roceshark_pfc_storms_total{storm['metric']} = {storm['value'][1]}")
            fail = api(pport, "query", query='roceshark_health_status{verdict="fail"}')["result"]
            if not fail or fail[0]["value"][1] != "1":
                raise rslib.Failure(f"roceshark_health_status{{verdict=\"fail\"}} is {fail}")

            def firing():
                alerts = api(pport, "alerts")["alerts"]
                return [a for a in alerts if a["labels"].get("alertname") == "RoceSharkPfcStorm"
                        and a["state"] == "firing"]

            alert = await_("firing RoceSharkPfcStorm alert", firing, procs)[0]
            print(f"firing: RoceSharkPfcStorm {alert['labels']}: {alert['annotations'].get('summary', '')}")
        finally:
            for p in procs.values():
                p.terminate()
            for p in procs.values():
                try:
                    p.wait(timeout=30)
                except subprocess.TimeoutExpired:
                    p.kill()


rslib.main(run)
