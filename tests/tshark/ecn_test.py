# SPDX-License-Identifier: GPL-2.0-or-later
"""ECN marking thresholds per hop (docs/multipoint.md#ecn-marking-thresholds),
against what the generator was told (the scenarios' ecn_red lines): the
report's estimates, the finding naming the late hop and both estimates, and
a filter applying to them as to every view."""
import json
import os
import re

import rslib

# The onsets are placed from few ramp marks here (tens, not the 200 the
# unit tests state ±5 us for): within 10 us.
ONSET_US = 10


def ecn_red(scenario):
    """point -> (kmin_us, kmax_us) from the scenario's ecn_red lines."""
    path = os.path.join(rslib.ROOT, "captures", "scenarios", scenario + ".scn")
    out = {}
    for m in re.finditer(r"^ecn_red (\S+) kmin=(\d+)us kmax=(\d+)us", open(path).read(), re.M):
        out[m.group(1)] = (int(m.group(2)), int(m.group(3)))
    return out


def report(scenario, flt=None):
    z = "roce,report" + ("," + flt if flt else "")
    return json.loads(rslib.tshark("-n", "-q", "-r", rslib.capture_path(scenario), "-z", z))


def estimates(rep):
    return {(e["from"], e["to"]): e for e in rep["ecn_thresholds"] if e["priority"] == 3}


def mismatches(rep):
    return [f for f in rep["triage"]["findings"] if f["kind"] == "ecn_threshold_mismatch"]


def run(argv):
    problems = []
    for scenario in ("mp_ecn_onsets", "mp_ecn_never"):
        red = ecn_red(scenario)
        rep = report(scenario)
        est = estimates(rep)
        leaf, spine = est[("nic-a", "leaf-1")], est[("leaf-1", "spine-1")]
        if leaf["estimate"] != "marks" or abs(leaf["onset_ns"] / 1000 - red["leaf-1"][0]) > ONSET_US:
            problems.append(f"{scenario}: leaf onset {leaf.get('onset_ns')} ns, built {red['leaf-1'][0]} us")
        spine_kmin = red["spine-1"][0]
        if scenario == "mp_ecn_never":
            if spine["estimate"] != "never marked" or spine["max_unmarked_ns"] < 140_000:
                problems.append(f"{scenario}: spine {spine}, want never marked up to 140 us or more")
        elif spine["estimate"] != "marks" or abs(spine["onset_ns"] / 1000 - spine_kmin) > ONSET_US:
            problems.append(f"{scenario}: spine onset {spine.get('onset_ns')} ns, built {spine_kmin} us")
        found = mismatches(rep)
        if [f["location"]["hop"] for f in found] != ["leaf-1 -> spine-1"]:
            problems.append(f"{scenario}: mismatch findings {[f['location'] for f in found]}, want the spine's hop")
        elif "nic-a -> leaf-1 marks from" not in found[0]["title"] or "WRED/ECN" not in found[0]["fix"]:
            problems.append(f"{scenario}: the finding does not name both estimates and the fix: {found[0]}")
        # A filter applies to the estimates as to every view: without the
        # leaf's packets there is no reference, so no finding.
        no_leaf = report(scenario, "roce.point != 1")
        if ("nic-a", "leaf-1") in estimates(no_leaf) or mismatches(no_leaf):
            problems.append(f"{scenario}: filtering out leaf-1 left {estimates(no_leaf).keys()}, {mismatches(no_leaf)}")
        one_way = estimates(report(scenario, "ip.dst == 10.0.0.2"))
        if one_way[("leaf-1", "spine-1")] != spine:
            problems.append(f"{scenario}: the a->b filter changed the spine's estimate: {one_way[('leaf-1', 'spine-1')]}")
    if problems:
        raise rslib.Failure("\n  ".join(problems))
    print("ECN onsets estimated as built, the late hop named, filters applied")


if __name__ == "__main__":
    rslib.main(run)
