# SPDX-License-Identifier: GPL-2.0-or-later
"""Each PFC, QoS and multi-point scenario raises the finding it was built for, where it
was built for, and nothing else: no false positives on correct traffic.
The generator cannot judge these (they are the analyser's rules), so the
expectations are written here, scenario by scenario, from what each
scenario does (see its comments in captures/scenarios/)."""
import rslib

QOS = ["roce.qos.dscp_not_lossless", "roce.qos.pcp_mismatch", "roce.qos.ecn_not_capable", "roce.qos.cnp_class",
       "roce.qos.inconsistent_marking"]
PFC = ["roce.pfc.storm", "roce.pfc.chatter", "roce.pfc.wrong_class", "roce.pfc.lossy_queue", "roce.pfc.no_ecn", "roce.pfc.propagation",
       "roce.pfc.reserved_bits", "roce.pfc.nonstandard_dst", "roce.pfc.truncated"]
HOP = ["roce.hop.remarked", "roce.hop.ce_set", "roce.hop.microburst", "roce.hop.clock_skew", "roce.hop.ecn_unmarked",
       "roce.hop.vlan_changed"]
ALL = QOS + PFC + HOP + ["roce.dcbx.finding", "roce.pfc.paused", "roce.pfc.unattributed", "roce.point.merged"]
# Not in the goldens' field list: asked for here only.
EXTRA = ["roce.pfc.unattributed", "roce.pfc.chatter", "roce.hop.ecn_unmarked", "roce.hop.vlan_changed"]

# scenario: {field: None (present somewhere) or a point name (present there only)}.
# Every field of ALL not listed must be absent.
EXPECT = {
    "clean": {},
    "qos_clean": {},
    "qos_dscp_lossy": {"roce.qos.dscp_not_lossless": None},
    "qos_pcp_mismatch": {"roce.qos.pcp_mismatch": None},
    "qos_ecn_off": {"roce.qos.ecn_not_capable": None},
    "qos_cnp_class": {"roce.qos.cnp_class": None},
    "qos_inconsistent": {"roce.qos.inconsistent_marking": None, "roce.qos.dscp_not_lossless": None},
    "qos_remark": {"roce.qos.dscp_not_lossless": "leaf-1", "roce.qos.pcp_mismatch": "leaf-1",
                   "roce.hop.remarked": "leaf-1"},
    "dcbx": {"roce.dcbx.finding": None},
    "pfc_storm": {"roce.pfc.storm": None, "roce.pfc.paused": None, "roce.pfc.no_ecn": None},
    "pfc_short": {"roce.pfc.paused": None, "roce.pfc.no_ecn": None},
    # The pausing port's MAC is on none of the frames it holds (L2-bridged; routed
    # to the router MAC, not the port MAC): held all the same, and nothing unattributed.
    "pfc_bridged": {"roce.pfc.storm": "tor-1", "roce.pfc.paused": "tor-1", "roce.pfc.no_ecn": "tor-1"},
    "pfc_port_mac": {"roce.pfc.paused": "tor-1", "roce.pfc.no_ecn": "tor-1"},
    # Short pauses every few tens of us, one long episode paused a few per
    # cent of it: chatter, never a storm (routed NIC; bridged, port MAC).
    "pfc_chatter": {"roce.pfc.chatter": "tor-1", "roce.pfc.paused": "tor-1", "roce.pfc.no_ecn": "tor-1"},
    "pfc_chatter_bridged": {"roce.pfc.chatter": "tor-1", "roce.pfc.paused": "tor-1", "roce.pfc.no_ecn": "tor-1"},
    "pfc_wrong_prio": {"roce.pfc.wrong_class": None, "roce.pfc.no_ecn": None},
    "lossy_prio": {"roce.pfc.lossy_queue": None, "roce.qos.dscp_not_lossless": None},
    "pfc_no_ecn": {"roce.pfc.no_ecn": "tor-1", "roce.pfc.paused": None},
    "pfc_bad": {"roce.pfc.reserved_bits": None, "roce.pfc.nonstandard_dst": None, "roce.pfc.truncated": None,
                "roce.pfc.paused": None, "roce.pfc.no_ecn": None},
    "pfc_propagation": {"roce.pfc.storm": None, "roce.pfc.propagation": "nic-a", "roce.pfc.paused": None,
                        "roce.pfc.no_ecn": None, "roce.hop.microburst": "leaf-1"},  # held behind the pauses
    # Multi-point: where on the path each change happens. A drop with no PFC
    # frame anywhere in the capture reads as a lossy queue, as it should.
    "mp_drop": {"roce.pfc.lossy_queue": None},
    "mp_remark": {"roce.hop.remarked": "leaf-1", "roce.qos.dscp_not_lossless": None},
    # The loss signs are on a priority without PFC (the per-frame flag says
    # so); the triage names the MTU instead (triage.py).
    "mp_mtu": {"roce.pfc.lossy_queue": None},
    # A PCP that goes with its tag is a VLAN change, not a remark.
    "mp_vlan_strip": {"roce.hop.vlan_changed": "leaf-1"},
    "mp_vlan_change": {"roce.hop.vlan_changed": "leaf-1"},
    # One point: the VLAN change shows as one QP in two VLANs there.
    "vlan_split": {"roce.qos.inconsistent_marking": "leaf-1"},
    "mp_ce": {"roce.hop.ce_set": "leaf-1"},
    "mp_burst": {"roce.hop.microburst": "leaf-1"},
    # The spine marks from 90 us (onsets) or never (never), the leaf from 20 us.
    "mp_ecn_onsets": {"roce.hop.ce_set": None, "roce.hop.microburst": None, "roce.hop.ecn_unmarked": "spine-1"},
    "mp_ecn_never": {"roce.hop.ce_set": "leaf-1", "roce.hop.microburst": None, "roce.hop.ecn_unmarked": "spine-1"},
    "mp_retrans": {"roce.pfc.lossy_queue": None},
    "mp_clock": {"roce.hop.clock_skew": None},  # synced (the default): the 37 us offset is proven
    # Keyed by interface (the default), col-1 holds two mirror sessions.
    "mp_erspan": {"roce.pfc.lossy_queue": None, "roce.point.merged": "col-1"},
    "mp_truncated": {"roce.pfc.lossy_queue": None},
    # The NP being off is no finding of its own: -z roce,qp shows CE without CNPs.
    "ce_no_cnp": {"roce.hop.ce_set": "leaf-1"},
    # Three misconfigurations at once, each where it happens (see demo.scn).
    "demo": {"roce.pfc.storm": "leaf-1", "roce.pfc.no_ecn": "leaf-1", "roce.pfc.paused": "leaf-1",
             "roce.hop.microburst": "leaf-1",  # rpc held behind the storm
             "roce.hop.remarked": "leaf-1", "roce.qos.dscp_not_lossless": "leaf-1",
             "roce.pfc.lossy_queue": "leaf-1",  # the drop in priority 0; priority 3 had PFC by then
             "roce.qos.cnp_class": "leaf-1"},
}


def run(argv):
    scenario = argv[0]
    want = EXPECT[scenario]
    extra = [arg for f in EXTRA for arg in ("-e", f)]
    rows = rslib.rows(rslib.fields(rslib.capture_path(scenario), *extra))
    problems = []
    for field in ALL:
        at = {r["frame.interface_name"] for r in rows if r[field] not in ("", "0")}
        if field not in want:
            if at:
                frames = [r["frame.number"] for r in rows if r[field] not in ("", "0")][:5]
                problems.append(f"{field} should not appear, but does at {sorted(at)} (frames {frames}...)")
        elif not at:
            problems.append(f"{field} should appear, but does not")
        elif want[field] is not None and at != {want[field]}:
            problems.append(f"{field} should appear at {want[field]} only, but does at {sorted(at)}")
    if problems:
        raise rslib.Failure(f"{scenario}:\n  " + "\n  ".join(problems))
    print(f"{scenario}: " + (", ".join(sorted(want)) or "no findings") + " as built")


if __name__ == "__main__":
    rslib.main(run)
