# SPDX-License-Identifier: GPL-2.0-or-later
"""-z roce,triage on one scenario: the finding it was built for is there
(ranked first where it costs the most), correct traffic gives nothing above
a note, every finding's display filter selects its evidence frames in the
real tshark, and the text and the JSON report tell the same triage."""
import collections
import json
import re

import rslib

# scenario: (kind ranked first or None, kinds that must be present). Kinds
# not listed may appear too: a scenario built for one thing often shows
# another (a drop with no PFC anywhere reads as a lossy queue).
EXPECT = {
    "pfc_storm": ("pfc_storm", {"ecn_above_xoff"}),
    "pfc_propagation": ("pfc_storm", {"pfc_propagation"}),
    "pfc_no_ecn": ("ecn_above_xoff", set()),
    "pfc_short": ("ecn_above_xoff", set()),
    "pfc_wrong_prio": ("pfc_wrong_class", set()),
    "pfc_bad": (None, {"bad_pfc_frames"}),
    "lossy_prio": ("lossy_queue", {"dscp_not_lossless"}),
    "qos_dscp_lossy": ("dscp_not_lossless", set()),
    "qos_pcp_mismatch": ("pcp_mismatch", set()),
    "qos_ecn_off": ("ecn_not_capable", set()),
    "qos_cnp_class": ("cnp_class", set()),
    "qos_inconsistent": (None, {"inconsistent_marking", "dscp_not_lossless"}),
    "qos_remark": ("dscp_remarked", {"dscp_not_lossless"}),
    "mp_remark": ("dscp_remarked", {"dscp_not_lossless"}),
    "mp_drop": ("hop_loss", {"lossy_queue"}),
    "mp_mtu": ("mtu_mismatch", set()),
    "mp_mtu_reorder": ("mtu_mismatch", {"reordering"}),
    "lldp_mtu": ("mtu_mismatch", {"lldp_max_frame"}),
    "mtu_icmp": ("mtu_mismatch", set()),
    "mp_mtu_icmp": ("mtu_mismatch", set()),
    "mp_vlan_strip": ("vlan_changed", set()),
    "mp_vlan_change": ("vlan_changed", set()),
    "vlan_split": ("inconsistent_marking", set()),
    "mp_vlan_bridged": ("vlan_changed", {"reordering"}),
    "multipoint": ("hop_loss", set()),
    "mp_burst": ("microburst", set()),
    "mp_cnp_queued": ("cnp_queued", {"microburst"}),
    "mp_cnp_strict": ("microburst", set()),
    "mp_besteffort_strict": ("starved_by_besteffort", {"microburst"}),
    "mp_besteffort_ets": (None, set()),
    "mp_besteffort_bridged": ("starved_by_besteffort", {"microburst"}),
    "mp_ecn_onsets": ("ecn_threshold_mismatch", {"microburst"}),
    "mp_ecn_never": ("ecn_threshold_mismatch", {"microburst"}),
    "mp_ecn_reorder": ("ecn_threshold_mismatch", {"microburst", "reordering"}),
    "mp_ecn_jitter": ("ecn_threshold_mismatch", {"microburst"}),
    "mp_clock": ("clock_skew", set()),
    "mp_erspan": (None, {"merged_points", "mirror_duplicates"}),
    "mp_retrans": (None, {"timeout_retransmission"}),
    "icrc_bad": ("icrc_bad", set()),
    "timeout": (None, {"timeout_retransmission"}),
    "dcbx": ("dcbx_mismatch", set()),
    "dcbx_ets": ("ets_mismatch", set()),
    "rnr": ("rnr", set()),
    "mirror_dup": (None, {"mirror_duplicates"}),
    "ce_no_cnp": ("ce_without_cnp", set()),
    "demo": (None, {"dscp_remarked", "pfc_storm"}),
    "nak_codes": ("nak_error", set()),
    "reorder_nak": ("reorder_nak", set()),
    "reorder_nak_late": ("reorder_nak", set()),
    "reorder_nak_long": ("reorder_nak", set()),
    "gbn_nak_early": ("lossy_queue", set()),
    "gbn_nak_mirror": ("lossy_queue", {"mirror_duplicates"}),
    "selective": ("lossy_queue", set()),
    "read_retry": ("lossy_queue", set()),
    "atomic_retry": ("lossy_queue", {"timeout_retransmission"}),
    "mirror_rewrite": ("lossy_queue", {"mirror_duplicates", "merged_points"}),
    "mirror_bridged": ("lossy_queue", {"mirror_duplicates"}),
    "pfc_bridged": ("pfc_storm", set()),
    "pfc_chatter": (None, {"pfc_chatter"}),
    "pfc_chatter_bridged": (None, {"pfc_chatter"}),
    "reorder_ooo": (None, {"reordering"}),
    "mp_identical": ("hop_loss", {"lossy_queue"}),
    "mp_identical_v6": ("hop_loss", {"lossy_queue"}),
    "mp_mtu_lldp": ("mtu_mismatch", set()),
    "mp_mtu_lldp_bridged": ("mtu_mismatch", {"lldp_max_frame"}),
    "mp_tapmiss_bridged": (None, {"reordering"}),
}
# scenario: kinds that must not appear (what the scenario's fabric does not
# do, though a habit of the analysis might say it does).
ABSENT = {
    "reorder_nak_late": {"lossy_queue"},
    "reorder_nak_long": {"lossy_queue"},
    "mp_cnp_strict": {"cnp_queued"},
    "mp_besteffort_ets": {"starved_by_besteffort"},
    # Frames above the LLDP maximum lost, the shorter ones through: the size, not a lossy queue.
    "mp_mtu_lldp": {"lossy_queue", "hop_loss", "loss"},
    "mp_mtu_lldp_bridged": {"lossy_queue", "hop_loss", "loss"},
    # A resend that is the only downstream copy of its PSN matched to its upstream resend: no reordering.
    "mp_identical": {"reordering"},
    "mp_identical_v6": {"reordering"},
    # Nothing lost: a tap missed copies.
    "mp_tapmiss": {"hop_loss", "lossy_queue", "loss"},
    "mp_tapmiss_bridged": {"hop_loss", "lossy_queue", "loss"},
    "pfc_chatter": {"pfc_storm"},
    "pfc_chatter_bridged": {"pfc_storm"},
}
# scenario: {point: copies its tap missed}, the capture-quality notes; a
# capture without is expected to have none. Never a finding, never a PASS.
TAP_MISSED = {"mp_tapmiss": {"nic-a": 1, "nic-b": 2}, "mp_tapmiss_bridged": {"nic-a": 1, "nic-b": 2}}
# Correct traffic: no finding above a note, and a clean bill of health.
CLEAN = {"clean", "qos_clean", "mp_ce", "cm_reuse", "cnp", "reorder_ooo", "mp_tapmiss", "mp_tapmiss_bridged",
         "pair_ambiguous", "pair_ambiguous_bridged"}
# ... and of those, the ones with no congestion either: a clean bill of
# health (the others are CE-marked on purpose, which the ECN-CE metric grades).
HEALTHY = {"clean", "cm_reuse", "reorder_ooo", "pair_ambiguous", "pair_ambiguous_bridged"}

# Findings whose evidence is every frame the filter selects; for the others
# (the first frame of each burst, of each lost packet, ...) the evidence
# frames are among those it selects.
EXACT = {"pfc_storm", "pfc_propagation", "ecn_above_xoff", "pfc_wrong_class", "lossy_queue", "dscp_not_lossless",
         "dscp_remarked", "pcp_mismatch", "inconsistent_marking", "ecn_not_capable", "cnp_class", "icrc_bad",
         "loss", "timeout_retransmission", "ce_without_cnp", "bad_pfc_frames", "merged_points", "rnr",
         "mirror_duplicates", "nak_error", "reorder_nak", "reordering", "vlan_changed", "mtu_mismatch", "cnp_queued",
         "starved_by_besteffort", "pfc_chatter"}


def selected(capture, flt):
    out = rslib.tshark("-n", "-2", "-r", capture, "-Y", flt, "-T", "fields", "-e", "frame.number")
    return [int(x) for x in out.split()]


def ce_marked(capture):
    """CE-marked requests per request flow, each at the point that saw most, summed: from tshark's own fields."""
    out = rslib.tshark("-n", "-r", capture, "-Y",
                       'roce.role == "request" && !roce.seq.duplicate && !roce.truncated_bth && '
                       "(ip.dsfield.ecn == 3 || ipv6.tclass.ecn == 3)",
                       "-T", "fields", "-E", "separator=/t", "-e", "roce.point", "-e", "roce.qp.stream",
                       "-e", "ip.src", "-e", "ipv6.src", "-e", "infiniband.bth.destqp")
    per = collections.defaultdict(collections.Counter)
    for line in out.splitlines():
        point, *flow = line.split("\t")
        per[tuple(flow)][point] += 1
    return sum(max(points.values()) for points in per.values())


def run(argv):
    scenario = argv[0]
    capture = rslib.capture_path(scenario)
    doc = json.loads(rslib.tshark("-n", "-q", "-r", capture, "-z", "roce,report"))
    triage = doc["triage"]
    findings = triage["findings"]
    kinds = [f["kind"] for f in findings]
    problems = []

    if scenario in CLEAN:
        loud = [f["title"] for f in findings if f["severity"] != "note"]
        if loud:
            problems.append(f"correct traffic, yet: {loud}")
    if scenario in HEALTHY and triage["health"]["verdict"] != "PASS":
        problems.append(f"healthy traffic graded {triage['health']['verdict']}: {triage['health']['metrics']}")
    if scenario in EXPECT:
        first, present = EXPECT[scenario]
        if first and (not kinds or kinds[0] != first):
            problems.append(f"{first} should rank first, the ranking is {kinds}")
        missing = (present | ({first} if first else set())) - set(kinds)
        if missing:
            problems.append(f"missing {sorted(missing)} (found {kinds})")
    if unwanted := ABSENT.get(scenario, set()) & set(kinds):
        problems.append(f"{sorted(unwanted)} should not be found (found {kinds})")

    # Ranked: warnings and errors by stall time, then notes.
    keys = [(f["severity"] != "note", f["impact"]["stall_ns"]) for f in findings]
    if keys != sorted(keys, reverse=True):
        problems.append(f"not ranked by severity class and stall: {keys}")
    if [f["rank"] for f in findings] != list(range(1, len(findings) + 1)):
        problems.append("ranks are not 1..n")
    if len({f["id"] for f in findings}) != len(findings):
        problems.append(f"ids repeat: {[f['id'] for f in findings]}")

    for f in findings:
        ev = f["evidence"]
        got = selected(capture, ev["filter"])
        if not ev["frames"]:
            problems.append(f"{f['id']}: no evidence frames")
        elif not set(ev["frames"]) <= set(got):
            problems.append(f"{f['id']}: filter {ev['filter']!r} misses evidence {ev['frames']} (selects {got[:10]})")
        elif f["kind"] in EXACT and (got[:len(ev['frames'])] != ev["frames"] or len(got) != ev["count"]):
            problems.append(f"{f['id']}: filter {ev['filter']!r} selects {len(got)} frames {got[:5]}, "
                            f"the evidence is {ev['count']} frames {ev['frames']}")
        i = f["impact"]
        if i["stall_ns"] and not i["qps"]:
            problems.append(f"{f['id']}: a stall on no QP")
        if not 0 <= i["share"] <= 1:
            problems.append(f"{f['id']}: share {i['share']}")

    ce = next(m for m in triage["health"]["metrics"] if m["name"] == "ce")
    want = ce_marked(capture)
    if not ce["detail"].startswith(f"{want} requests marked CE"):
        problems.append(f"ECN-CE metric says {ce['detail']!r}; tshark's fields count {want} CE-marked requests")

    text = rslib.tshark("-n", "-q", "-r", capture, "-z", "roce,triage")
    titles = re.findall(r"^#\d+ [A-Z]+ \w+: (.*)$", text, re.M)
    if titles != [f["title"] for f in findings]:
        problems.append(f"the text lists {titles}, the report {[f['title'] for f in findings]}")
    overall = re.search(r"^Overall: (\w+)$", text, re.M)
    if not overall or overall.group(1) != triage["health"]["verdict"]:
        problems.append(f"the text's verdict differs from the report's {triage['health']['verdict']}")
    missed = {q["point"]: q["count"] for q in doc["capture_quality"] if q["kind"] == "tap_missed_copies"}
    if missed != TAP_MISSED.get(scenario, {}):
        problems.append(f"tap-missed copies {missed}, expected {TAP_MISSED.get(scenario, {})}")
    if missed and triage["health"]["verdict"] == "PASS":
        problems.append("a tap missed copies, yet the health is PASS")
    lines = re.findall(r"^(?:Capture|Setting): (.*)$", text, re.M)  # wrapped: their starts
    if [l[:40] for l in lines] != [q["text"][:40] for q in doc["capture_quality"]]:
        problems.append(f"the text's Capture:/Setting: lines {lines} are not the report's {doc['capture_quality']}")
    if problems:
        raise rslib.Failure(f"{scenario}:\n  " + "\n  ".join(problems))
    print(f"{scenario}: {len(findings)} findings {kinds[:4]}, health {triage['health']['verdict']}")


if __name__ == "__main__":
    rslib.main(run)
