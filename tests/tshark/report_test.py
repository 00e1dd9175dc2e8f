# SPDX-License-Identifier: GPL-2.0-or-later
"""-z roce,report is one JSON document, valid against docs/report-schema.json,
that says what the per-frame fields say: every packet's fate (gap, out of
order, each kind of resend, mirror copy, ambiguous, reordering NAK, lost
READ responses, lost between points) is counted the same in both views."""
import json
import os

import jsonschema

import rslib

SCHEMA = os.path.join(rslib.ROOT, "docs", "report-schema.json")
SCENARIOS = ["clean", "gbn", "demo", "pfc_propagation", "pfc_storm", "dcbx", "qos_remark", "multipoint", "nak_codes",
             "mirror_dup", "one_direction", "mp_drop", "mp_clock", "mp_erspan", "mp_remark", "mp_burst",
             "reorder_ooo", "reorder_nak", "gbn_nak_early", "selective", "read_retry", "mirror_rewrite", "mirror_bridged",
             "pfc_bridged", "pfc_port_mac", "pfc_chatter", "pfc_chatter_bridged", "selective_bridged", "reorder_skipped", "mp_mtu", "mp_vlan_strip", "mp_vlan_change", "vlan_split",
             "lldp_mtu", "dcbx_ets"]


def run(argv):
    with open(SCHEMA) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    validator = jsonschema.Draft202012Validator(schema)
    # A reached flow limit: named in limits (valid against the schema) and the verdict INCOMPLETE.
    limited = json.loads(rslib.tshark("-n", "-q", "-o", "roce.max_flows:1", "-r", rslib.capture_path("demo"),
                                      "-z", "roce,report"))
    errors = list(validator.iter_errors(limited))
    if errors:
        raise rslib.Failure(f"max_flows:1: {[e.message for e in errors[:5]]}")
    if [(l["name"], l["value"]) for l in limited["limits"]] != [("max_flows", 1)] \
            or limited["limits"][0]["packets_beyond"] <= 0 or limited["triage"]["health"]["verdict"] != "INCOMPLETE":
        raise rslib.Failure(f"max_flows:1: limits {limited['limits']}, verdict {limited['triage']['health']['verdict']}")
    for scenario in SCENARIOS:
        capture = rslib.capture_path(scenario)
        text = rslib.tshark("-n", "-q", "-r", capture, "-z", "roce,report")
        doc = json.loads(text)
        errors = sorted(validator.iter_errors(doc), key=lambda e: list(e.path))
        if not errors and doc["limits"]:
            raise rslib.Failure(f"{scenario}: a limit was reached: {doc['limits']}")
        if errors:
            raise rslib.Failure(f"{scenario}: " + "; ".join(f"{list(e.path)}: {e.message}" for e in errors[:5]))
        rows = rslib.rows(rslib.fields(capture, "-e", "roce.ack.ambiguous"))
        # roce.hop.lost_after and roce.hop.too_big are known on a later pass
        later = rslib.rows(rslib.fields(capture, "-2", "-e", "roce.hop.vlan_changed", "-e", "roce.hop.too_big"))
        # Counts that the per-frame fields also give.
        checks = {
            "gaps": (sum(q["gaps"] for q in doc["qps"]), sum(r["roce.seq"] == "gap" for r in rows)),
            "retransmissions": (sum(q["retransmissions"] for q in doc["qps"]),
                                sum(r["roce.seq.retransmission"] == "1" for r in rows)),
            "cnps": (sum(q["cnps"] for q in doc["qps"]), sum(r["roce.cnp"] == "1" for r in rows)),
            "out of order": (sum(q["out_of_order"] for q in doc["qps"]), sum(r["roce.seq"] == "out-of-order" for r in rows)),
            # By the mode known at the end: what a later pass labels.
            "selective resends": (sum(q["selective_resends"] for q in doc["qps"]),
                                  sum(r["roce.seq"] == "selective resend" for r in later)),
            "read retries": (sum(q["read_retries"] for q in doc["qps"]), sum(r["roce.seq"] == "READ retry" for r in rows)),
            "duplicates": (sum(q["duplicates"] for q in doc["qps"]), sum(r["roce.seq.duplicate"] == "1" for r in rows)),
            # Resends nothing tells from copies or late originals, and responses no QP pairing is told for.
            "ambiguous": (sum(q["ambiguous"] for q in doc["qps"]),
                          sum(r["roce.seq.ambiguous"] == "1" or r["roce.ack.ambiguous"] == "1" for r in rows)),
            "reorder naks": (sum(q["reorder_naks"] for q in doc["qps"]),
                             sum(r["roce.seq.reorder_nak"] == "1" and r["roce.role"] == "response" for r in rows)),
            "response gaps": (sum(q["missing_responses"] for q in doc["qps"]),
                              sum(int(r["roce.seq.gap"] or 0) for r in rows if r["roce.role"] == "response")),
            "hop losses": (sum(h["lost"] for h in doc["hops"]), sum(r["roce.hop.lost_after"] == "1" for r in later)),
            "vlan changes": (sum(h.get("vlan_changed", 0) for h in doc["hops"]),
                             sum(r["roce.hop.vlan_changed"] == "1" for r in later)),
            "lost longer than passed": (sum(h.get("size_split", {}).get("lost_longer", 0) for h in doc["hops"]),
                                        sum(r["roce.hop.too_big"] == "1" for r in later)),
            "qos violations": (sum(v["packets"] for v in doc["qos"]["violations"]),
                               sum(sum(r[f] == "1" for f in ("roce.qos.dscp_not_lossless", "roce.qos.pcp_mismatch",
                                                            "roce.qos.ecn_not_capable", "roce.qos.cnp_class",
                                                            "roce.qos.inconsistent_marking")) for r in rows)),
            "pfc frames": (sum(p["frames"] for p in doc["pfc"]["pauses"]),
                           sum(len([x for x in r["roce.pfc.priority"].split(",") if x]) for r in rows)),
        }
        for name, (report, fields) in checks.items():
            if report != fields:
                raise rslib.Failure(f"{scenario}: {name}: the report says {report}, the fields {fields}")
        if {p["name"] for p in doc["points"]} != {r["frame.interface_name"] for r in rows}:
            raise rslib.Failure(f"{scenario}: points differ from the capture's interfaces")
    empty = json.loads(rslib.tshark("-n", "-q", "-r", os.path.join(rslib.CAPTURES, "clean.pcapng"),
                                    "-Y", "frame.number==0", "-z", "roce,report,frame.number==0"))
    validator.validate(empty)
    print(f"{len(SCENARIOS)} reports valid against {os.path.basename(SCHEMA)} and consistent with the fields")


if __name__ == "__main__":
    rslib.main(run)
