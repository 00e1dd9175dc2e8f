#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-or-later
# Reproducibility: regenerating a committed scenario must give the committed
# capture and truth file byte for byte.
#   check_repro.sh GENERATOR SCENARIO.scn COMMITTED_BASE OUT_BASE
# COMMITTED_BASE is captures/<name> (without .pcapng); OUT_BASE is where the
# fresh copy goes, in the build tree.
set -eu
gen=$1 scenario=$2 committed=$3 out=$4
mkdir -p "$(dirname "$out")"
rm -f "$out.pcapng" "$out.truth.tsv"
"$gen" "$scenario" -o "$out.pcapng" --truth "$out.truth.tsv"
status=0
cmp "$out.pcapng" "$committed.pcapng" || status=1
cmp "$out.truth.tsv" "$committed.truth.tsv" || status=1
if [ $status -ne 0 ]; then
  echo "$committed differs from a fresh run; if the change is intended, run: cmake --build <build> --target regen-captures" >&2
fi
exit $status
