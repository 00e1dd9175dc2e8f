#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0-or-later
"""Per-point files merge into one multi-interface capture.

Builds one file per interface (a capture point, or a collector of ERSPAN
copies) with `roceshark-gen --only-point`, merges
them with `mergecap -I none` (keep every IDB), and checks that the merged
file has one interface per point, as many frames as the all-points file,
and that each per-point truth file says for each frame what the all-points
truth file says for it (the verdicts only depend on what passed that point).
"""

import argparse
import os
import subprocess
import sys

import tshark_env

COLUMNS = ['point', 'ts_ns', 'dir', 'kind', 'qpn', 'psn', 'opcode', 'verdict', 'cause', 'note', 'paused',
           'true_ts_ns', 'packet_id', 'lost_after', 'queue_ns', 'interface', 'span_id']


def pause_times(rows):
    """Per row, the timestamp of the PFC frame its pause_frame names (frame
    numbers differ between files, the PFC frame they name must not)."""
    ts = {r['frame']: r['ts_ns'] for r in rows}
    return [ts.get(r.get('pause_frame', '-'), '-') for r in rows]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument('--gen', required=True)
    ap.add_argument('--scenario', required=True)
    ap.add_argument('--outdir', required=True)
    ap.add_argument('--points', required=True, help='comma-separated interface names (points or collectors)')
    ap.add_argument('--mergecap', default='mergecap')
    ap.add_argument('--capinfos', default='capinfos')
    a = ap.parse_args()
    os.makedirs(a.outdir, exist_ok=True)
    errors = []
    base = os.path.join(a.outdir, 'all')
    subprocess.run([a.gen, a.scenario, '-o', base + '.pcapng', '--truth', base + '.truth.tsv'], check=True)
    full = tshark_env.read_truth(base + '.truth.tsv')
    parts = []
    for p in a.points.split(','):
        out = os.path.join(a.outdir, p)
        subprocess.run([a.gen, a.scenario, '-o', out + '.pcapng', '--truth', out + '.truth.tsv', '--only-point', p],
                       check=True)
        parts.append(out + '.pcapng')
        mine = tshark_env.read_truth(out + '.truth.tsv')
        want = [r for r in full if r['interface'] == p]
        if not want:
            errors.append('point %s records nothing' % p)
        if [[r[c] for c in COLUMNS] for r in mine] != [[r[c] for c in COLUMNS] for r in want]:
            errors.append('--only-point %s disagrees with the all-points truth file' % p)
        full_ts = dict(zip((r['frame'] for r in full), pause_times(full)))
        if pause_times(mine) != [full_ts[r['frame']] for r in want]:
            errors.append('--only-point %s: pause_frame names other PFC frames than the all-points file' % p)
        names = {f['frame.interface_name'] for f in tshark_env.fields(out + '.pcapng', ['frame.interface_name'])}
        if names != {p}:
            errors.append('%s.pcapng has interfaces %s' % (p, sorted(names)))
    merged = os.path.join(a.outdir, 'merged.pcapng')
    subprocess.run([a.mergecap, '-I', 'none', '-w', merged] + parts, check=True)
    info = subprocess.run([a.capinfos, '-I', merged], capture_output=True, text=True, check=True, env=tshark_env.env())
    want_if = len(a.points.split(','))
    got_if = [l for l in info.stdout.splitlines() if 'Number of interfaces in file' in l]
    if not got_if or got_if[0].split(':')[1].strip() != str(want_if):
        errors.append('merged file: %s, expected %d interfaces' % (got_if, want_if))
    frames = tshark_env.fields(merged, ['frame.interface_name'])
    if len(frames) != len(full):
        errors.append('merged file has %d frames, the all-points file %d' % (len(frames), len(full)))
    for p in a.points.split(','):
        if sum(1 for f in frames if f['frame.interface_name'] == p) != sum(1 for r in full if r['interface'] == p):
            errors.append('merged file: wrong number of frames on %s' % p)
    for e in errors:
        print(e)
    if errors:
        return 1
    print('merged %d frames from %d points' % (len(frames), want_if))
    return 0


if __name__ == '__main__':
    sys.exit(main())
