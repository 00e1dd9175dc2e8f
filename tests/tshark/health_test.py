# SPDX-License-Identifier: GPL-2.0-or-later
"""scripts/roce-health: the triage's verdict as the exit status (0 PASS, 1
FAIL, 2 for errors, bad preferences and INCOMPLETE), --fail-on warn, and the roce.health_* thresholds
deciding the grades."""
import re
import subprocess

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


def run(argv):
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
