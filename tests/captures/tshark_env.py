# SPDX-License-Identifier: GPL-2.0-or-later
"""Runs tshark the same way in every capture test: no personal
configuration, UTC, C locale, so the output does not depend on the machine."""

import atexit
import os
import shutil
import subprocess
import tempfile

_home = tempfile.mkdtemp(prefix='roceshark-tshark-')
atexit.register(shutil.rmtree, _home, True)


def env():
    e = dict(os.environ)
    e.update({'HOME': _home, 'LANG': 'C', 'LC_ALL': 'C', 'TZ': 'UTC', 'XDG_CONFIG_HOME': _home})
    e.pop('WIRESHARK_PLUGIN_DIR', None)
    return e


def run(args, tshark='tshark'):
    p = subprocess.run([tshark] + args, capture_output=True, text=True, env=env())
    if p.returncode != 0:
        raise RuntimeError('tshark %s failed: %s' % (' '.join(args), p.stderr))
    return p.stdout


# Wireshark 4.2+ prints a boolean field as True/False, 4.0 as 1/0: the checks
# read 4.0's form from every version.
_BOOL = {'True': '1', 'False': '0'}


def fields(pcap, names, extra=(), tshark='tshark', occurrence='f', aggregator=','):
    """One dict per frame, values as strings ('' when absent). With
    occurrence='a' a field that occurs several times gives them all,
    joined by `aggregator`."""
    args = ['-r', pcap, '-n', '-T', 'fields', '-E', 'separator=/t', '-E', 'occurrence=' + occurrence,
            '-E', 'aggregator=' + aggregator] + list(extra)
    for n in names:
        args += ['-e', n]
    out = []
    for line in run(args, tshark).splitlines():
        vals = [aggregator.join(_BOOL.get(v, v) for v in c.split(aggregator)) for c in line.split('\t')]
        vals += [''] * (len(names) - len(vals))
        out.append(dict(zip(names, vals)))
    return out


def read_truth(path):
    with open(path) as f:
        lines = f.read().splitlines()
    header = lines[0].split('\t')
    return [dict(zip(header, l.split('\t'))) for l in lines[1:]]
