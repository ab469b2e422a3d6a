#!/usr/bin/env bash
# How far the boundaries must travel on the held-out scenarios (issue 4's
# migration bar, docs/training.md): for each P, the mean over N scenarios of
# the net displacement sum_b |b_end - b_start| and the total movement of the
# reactive rule's and the clairvoyant oracle's boundaries over 100 events.
# A policy that migrates M slices in all cannot displace its boundaries by more
# than M, so reactive / 5 below the oracle's (or reactive's own) net
# displacement means ending far from where the load went.
#
#   scripts/migration_floor.sh [N]      (default 32 scenarios per P; needs build/)
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
n=${1:-32}
case $n in -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for P in 8 16 32; do
    for i in $(seq 0 $((n - 1))); do # one scenario per call: --records keeps the first
        "$repo/build/eval/cellshift-eval" scenarios --count 1 --first-index "$i" --ranks "$P" \
            --policies reactive,oracle --records --threads 1 -q --out "$work/$P/$i" >/dev/null
    done
done
/usr/bin/python3 - "$work" "$n" <<'PY'
import sys, h5py, numpy as np
work, n = sys.argv[1], int(sys.argv[2])
print("| P | policy | imbalance | slices moved | net displacement | reactive / 5 |")
print("| --- | --- | ---: | ---: | ---: | ---: |")
for P in (8, 16, 32):
    rows = {}
    for pol in ("reactive", "oracle"):
        net, tot, imb = [], [], []
        for i in range(n):
            with h5py.File(f"{work}/{P}/{i}/runs/scenarios_P{P}_{pol}.h5", "r") as h:
                b = h["boundaries"][:]
                net.append(np.abs(b[-1] - b[0]).sum())
                tot.append(np.abs(np.diff(b, axis=0)).sum())
                imb.append(h["imbalance"][:].mean())
        rows[pol] = (100 * np.mean(imb), np.mean(tot), np.mean(net))
    budget = rows["reactive"][1] / 5
    for pol, (i, t, d) in rows.items():
        print(f"| {P} | {pol} | {i:.2f}% | {t:.1f} | {d:.1f} | {budget:.1f} |")
PY
