# SPDX-License-Identifier: GPL-2.0-or-later
"""scripts/roce-health: the triage's verdict as the exit status (0 PASS, 1
FAIL, 2 for errors, bad preferences and INCOMPLETE), --fail-on warn, and the roce.health_* thresholds
deciding the grades; the ECN onset spread on hops that mark alike and apart."""
import os
import re
import subprocess
import tempfile

import rslib

HEALTH = rslib.os.path.join(rslib.ROOT, "scripts", "roce-health")


def health(*args):
    return subprocess.run([HEALTH, "--build", rslib.BUILD, *args], capture_output=True, text=True, timeout=300)


def grade(text, metric):
    m = re.search(rf"^{metric} .*\b(PASS|WARN|FAIL|N/A)\b", text, re.M)
    if not m:
        raise rslib.Failure(f"no {metric} line in:\n{text}")
    return m.group(1)


def expect(p, status, what):
    if p.returncode != status:
        raise rslib.Failure(f"{what}: exit {p.returncode}, expected {status}\n{p.stdout[-2000:]}\n{p.stderr}")


def ecn_spread():
    """mp_ecn_onsets' spine marks 70 us after its leaf: FAIL. The same fabric
    with the spine given the leaf's thresholds: PASS. One point: N/A."""
    onsets = rslib.capture_path("mp_ecn_onsets")
    if grade(health(onsets).stdout, "ECN onset spread") != "FAIL":
        raise rslib.Failure("mp_ecn_onsets: ECN onset spread should FAIL")
    if grade(health(onsets, "-o", "roce.health_ecn_spread_us:100,200").stdout, "ECN onset spread") != "PASS":
        raise rslib.Failure("mp_ecn_onsets: roce.health_ecn_spread_us was not applied")
    if grade(health(rslib.capture_path("clean")).stdout, "ECN onset spread") != "N/A":
        raise rslib.Failure("clean (one point): ECN onset spread should be N/A")
    with open(os.path.join(rslib.CAPTURES, "scenarios", "mp_ecn_onsets.scn")) as f:
        scn = f.read()
    spine = "ecn_red spine-1 kmin=90us kmax=130us"
    if spine not in scn:
        raise rslib.Failure(f"mp_ecn_onsets.scn no longer has '{spine}'")
    with tempfile.TemporaryDirectory() as tmp:
        os.chmod(tmp, 0o755)
        alike, out = os.path.join(tmp, "alike.scn"), os.path.join(tmp, "alike.pcapng")
        with open(alike, "w") as f:
            f.write(scn.replace(spine, "ecn_red spine-1 kmin=20us kmax=60us"))
        os.chmod(alike, 0o644)
        subprocess.run([os.path.join(rslib.BUILD, "captures", "roceshark-gen"), alike, "-o", out], check=True)
        os.chmod(out, 0o644)
        text = health(out).stdout
        line = re.search(r"^ECN onset spread .*$", text, re.M)
        if grade(text, "ECN onset spread") != "PASS":
            raise rslib.Failure(f"hops with the same ECN thresholds should PASS:\n{text}")
    print(f"ECN onset spread: FAIL when the spine marks 70 us late, {line.group(0).split()[3]} us and PASS when alike")


def run(argv):
    ecn_spread()
    expect(health(rslib.capture_path("clean")), 0, "clean")
    storm = health(rslib.capture_path("pfc_storm"))
    expect(storm, 1, "pfc_storm")
    if "Overall: FAIL" not in storm.stdout or grade(storm.stdout, "Paused") != "FAIL":
        raise rslib.Failure(f"pfc_storm: the triage should grade pauses FAIL:\n{storm.stdout}")
    # WARN passes unless asked otherwise.
    ecn = rslib.capture_path("qos_ecn_off")
    warn = health(ecn)
    expect(warn, 0, "qos_ecn_off")
    if "Overall: WARN" not in warn.stdout:
        raise rslib.Failure(f"qos_ecn_off should be WARN:\n{warn.stdout}")
    expect(health("--fail-on", "warn", ecn), 1, "qos_ecn_off --fail-on warn")

    # Thresholds are preferences: the same loss passes under looser ones.
    timeout = rslib.capture_path("timeout")
    if grade(health(timeout).stdout, "Loss") != "FAIL":
        raise rslib.Failure("timeout: loss should FAIL under the default thresholds")
    loose = health(timeout, "-o", "roce.health_loss_pct:90,99")
    if grade(loose.stdout, "Loss") != "PASS" or "Warn above" not in loose.stdout or "90.00%" not in loose.stdout:
        raise rslib.Failure(f"timeout: roce.health_loss_pct was not applied:\n{loose.stdout}")

    # Errors are not verdicts.
    expect(health("/nonexistent.pcapng"), 2, "a missing capture")
    expect(health(rslib.capture_path("clean"), "-o", "roce.health_loss_pct:x"), 2, "a bad threshold")
    expect(health(), 2, "no capture")
    # One bad preference among good ones: cannot judge, although the good ones applied.
    mixed = health(timeout, "-o", "roce.health_loss_pct:90,99", "-o", "roce.storm_ms:0")
    expect(mixed, 2, "a bad roce.storm_ms next to a good threshold")
    if "roce.storm_ms" not in mixed.stderr:
        raise rslib.Failure(f"the bad preference is not named:\n{mixed.stderr}")
    # A reached flow limit: INCOMPLETE, cannot judge (never PASS), even on a capture that fails.
    for capture in ("clean", "pfc_storm"):
        limited = health(rslib.capture_path(capture), "-o", "roce.max_flows:1")
        expect(limited, 2, f"{capture} with roce.max_flows:1")
        if "Overall: INCOMPLETE" not in limited.stdout or "roce.max_flows (1) was reached" not in limited.stdout \
                or "INCOMPLETE" not in limited.stderr:
            raise rslib.Failure(f"{capture}: the limit is not said:\n{limited.stdout}\n{limited.stderr}")
    print("roce-health: 0 on PASS, 1 on FAIL (and WARN with --fail-on warn), 2 on errors and INCOMPLETE; "
          "thresholds applied")


if __name__ == "__main__":
    rslib.main(run)
