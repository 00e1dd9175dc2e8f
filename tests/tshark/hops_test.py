# SPDX-License-Identifier: GPL-2.0-or-later
"""-z roce,hops,FILTER counts only the packets the filter passes: on
mp_drop, a filter on one direction keeps exactly that direction's hop rows
of the unfiltered table, with the same figures."""
import rslib


def hop_rows(text):
    lines = text.split("Per hop", 1)[1].split("\n\n", 1)[0].splitlines()[2:]
    return {tuple(line.split()[:2]): line.split()[2:] for line in lines if line.strip()}


def run(argv):
    capture = rslib.capture_path("mp_drop")
    every = hop_rows(rslib.tshark("-n", "-q", "-r", capture, "-z", "roce,hops"))
    a_to_b = hop_rows(rslib.tshark("-n", "-q", "-r", capture, "-z", "roce,hops,ip.dst==10.0.0.2"))
    want = {("nic-a", "leaf-1"), ("leaf-1", "nic-b")}  # the path from a to b
    if set(a_to_b) != want:
        raise rslib.Failure(f"filtered hops {sorted(a_to_b)}, want {sorted(want)}")
    for hop in want:
        if a_to_b[hop] != every[hop]:
            raise rslib.Failure(f"hop {hop}: filtered {a_to_b[hop]}, unfiltered {every[hop]}")
    if a_to_b[("leaf-1", "nic-b")][1] != "1":
        raise rslib.Failure(f"leaf-1 -> nic-b should have lost 1: {a_to_b[('leaf-1', 'nic-b')]}")


if __name__ == "__main__":
    rslib.main(run)
