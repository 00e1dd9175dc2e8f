# SPDX-License-Identifier: GPL-2.0-or-later
"""One-pass and two-pass (-2) tshark give identical verdicts and statistics."""
import rslib


def run(argv):
    capture = rslib.capture_path(argv[0])
    one = rslib.fields(capture)
    two = rslib.fields(capture, "-2")
    if one != two:
        a, b = one.splitlines(), two.splitlines()
        first = next(i for i in range(min(len(a), len(b)) + 1) if i >= len(a) or i >= len(b) or a[i] != b[i])
        raise rslib.Failure(f"fields differ at line {first}:\n  1-pass: {a[first:first+1]}\n  2-pass: {b[first:first+1]}")
    if len(rslib.rows(one)) == 0:
        raise rslib.Failure("no frames read")
    q1 = rslib.tshark("-n", "-q", "-r", capture, "-z", "roce,qp")
    q2 = rslib.tshark("-n", "-q", "-2", "-r", capture, "-z", "roce,qp")
    if q1 != q2:
        raise rslib.Failure(f"-z roce,qp differs between one and two passes:\n{q1}\n---\n{q2}")


if __name__ == "__main__":
    rslib.main(run)
