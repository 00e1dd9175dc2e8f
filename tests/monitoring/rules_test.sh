#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
# The shipped monitoring assets (monitoring/), ctest's monitoring.rules:
#   promtool check rules   roceshark-alerts.yml
#   promtool test rules    roceshark-alerts_test.yml (each alert's cases)
#   check_metrics.py       the rules, the dashboard and docs/monitoring.md
#                          use only the metrics of monitoring/metrics.txt;
#                          the dashboard's queries parse
# Needs no build. Without promtool (Debian's prometheus package, which
# scripts/run-tests installs) it exits 77: skipped.
set -euo pipefail
root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
python=${ROCESHARK_PYTHON:-python3}
if ! promtool=$(command -v promtool); then
  echo "no promtool here (Debian's prometheus package has it): the monitoring rules test is skipped"
  exit 77
fi
cd "$root/monitoring"
promtool check rules roceshark-alerts.yml
promtool test rules roceshark-alerts_test.yml
"$python" "$root/tests/monitoring/check_metrics.py" --promtool "$promtool"

# The systemd unit, where systemd-analyze is: an instance of it, with a
# stand-in for /usr/bin/roceshark (verify wants the command to exist), and
# any warning fails (verify exits 0 on unknown keys and bad values).
if ! command -v systemd-analyze >/dev/null; then
  echo "no systemd-analyze here: the systemd unit is not verified"
  exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
sed 's#/usr/bin/roceshark #/bin/true #' roceshark-monitor@.service >"$tmp/roceshark-monitor@eth0.service"
if ! systemd-analyze verify --man=no "$tmp/roceshark-monitor@eth0.service" >"$tmp/verify.log" 2>&1 \
    || grep -v '^$' "$tmp/verify.log"; then
  echo "systemd-analyze verify: monitoring/roceshark-monitor@.service has problems (above)" >&2
  exit 1
fi
echo "systemd-analyze verify: roceshark-monitor@.service OK"
