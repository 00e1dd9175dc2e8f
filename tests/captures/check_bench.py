#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""A bench scenario gives at least a million RoCE frames cut at 128 bytes
(with --min-per-interface, that many on each of --interfaces interfaces),
in timestamp order, in bounded memory. The capture is deleted afterwards.
How long it took is printed, not judged: a loaded machine is no fault."""

import argparse
import os
import resource
import subprocess
import sys
import time

import tshark_env


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument('--gen', required=True)
    ap.add_argument('--scenario', required=True)
    ap.add_argument('--out', required=True)
    ap.add_argument('--capinfos', default='capinfos')
    ap.add_argument('--max-rss-mb', type=float, default=64)
    ap.add_argument('--interfaces', type=int, default=1)
    ap.add_argument('--min-per-interface', type=int, default=0)
    a = ap.parse_args()
    errors = []
    t0 = time.monotonic()
    subprocess.run([a.gen, a.scenario, '-o', a.out], check=True)
    elapsed = time.monotonic() - t0
    rss_mb = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    try:
        info = subprocess.run([a.capinfos, '-c', '-l', '-M', '-o', '-I', a.out], capture_output=True, text=True,
                              check=True, env=tshark_env.env()).stdout
    finally:
        os.remove(a.out)
    count = [int(l.split(':')[1]) for l in info.splitlines() if 'Number of packets:' in l]
    per_if = [int(l.split('=')[1]) for l in info.splitlines() if 'Number of packets =' in l]
    if len(per_if) != a.interfaces or any(c < a.min_per_interface for c in per_if):
        errors.append('frames per interface: %s, expected %d interfaces with at least %d' %
                      (per_if, a.interfaces, a.min_per_interface))
    if 'Strict time order:   True' not in info:
        errors.append('frames are not in timestamp order')
    if not count or count[0] < 1000000:
        errors.append('only %s frames' % count)
    if 'Packet size limit:   inferred: 128 bytes' not in info and 'file hdr: 128 bytes' not in info:
        errors.append('frames are not cut at 128 bytes:\n' + info)
    if rss_mb > a.max_rss_mb:
        errors.append('peak RSS %.1f MB' % rss_mb)
    for e in errors:
        print(e)
    print('%s frames in %.2f s, peak RSS %.1f MB' % (count[0] if count else '?', elapsed, rss_mb))
    return 1 if errors else 0


if __name__ == '__main__':
    sys.exit(main())
