# SPDX-License-Identifier: GPL-2.0-or-later
"""One-pass and two-pass (-2) tshark give identical verdicts and statistics,
except the fields that only a later pass can know (rslib.LATER_PASS_FIELDS)."""
import rslib


def causal(tsv):
    rows = rslib.rows(tsv)
    return [{k: v for k, v in r.items() if k not in rslib.LATER_PASS_FIELDS} for r in rows]


# A sequence NAK a late original took back, or a resend it forced that
# passed before the late original (docs/analysis.md): one pass leaves it as
# decided when it passed; a later pass knows better.
TAKEN_BACK = ("roce.seq.reorder_nak", "roce.pfc.lossy_queue")


def taken_back(a, b):
    forced = a.get("roce.ack.nak") == "PSN sequence error" or a.get("roce.seq.retransmission") == "1"
    return forced and a.get("roce.seq.reorder_nak") == "" and b.get("roce.seq.reorder_nak") == "1"


# A selective QP's first resend, before the QP showed its mode: go-back-N
# to one pass, selective to a later pass that knows the whole capture.
def mode_shown_later(a, b):
    return a.get("roce.seq") == "go-back-N resend" and b.get("roce.seq") == "selective resend"


def run(argv):
    capture = rslib.capture_path(argv[0])
    one = causal(rslib.fields(capture))
    two = causal(rslib.fields(capture, "-2"))
    if len(one) == 0:
        raise rslib.Failure("no frames read")
    for a, b in zip(one, two):
        if taken_back(a, b):
            for k in TAKEN_BACK:
                a.pop(k, None), b.pop(k, None)
        if mode_shown_later(a, b):
            a.pop("roce.seq"), b.pop("roce.seq")
    if one != two:
        first = next(i for i in range(max(len(one), len(two))) if i >= len(one) or i >= len(two) or one[i] != two[i])
        a = one[first] if first < len(one) else None
        b = two[first] if first < len(two) else None
        diff = {k: (a.get(k), b.get(k)) for k in (a or b) if a is None or b is None or a.get(k) != b.get(k)}
        raise rslib.Failure(f"fields differ at row {first}: {diff}")
    # Every view in one run per pass (tshark prints each -z in turn).
    views = [a for z in ("roce,qp", "roce,hops", "roce,pfc", "roce,qos", "roce,triage", "roce,report")
             for a in ("-z", z)]
    q1 = rslib.tshark("-n", "-q", "-r", capture, *views)
    q2 = rslib.tshark("-n", "-q", "-2", "-r", capture, *views)
    if q1 != q2:
        a, b = q1.splitlines(), q2.splitlines()
        first = next(i for i in range(max(len(a), len(b))) if i >= len(a) or i >= len(b) or a[i] != b[i])
        raise rslib.Failure(f"the views differ between one and two passes from line {first + 1}:\n"
                            f"{chr(10).join(a[max(0, first - 3):first + 5])}\n---\n{chr(10).join(b[max(0, first - 3):first + 5])}")
    if not q1.strip():
        raise rslib.Failure("the views printed nothing")


if __name__ == "__main__":
    rslib.main(run)
