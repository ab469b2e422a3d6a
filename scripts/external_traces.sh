#!/usr/bin/env bash
# Workload traces from codes other than cellshift, for the controller's bar 3
# (docs/controller.md): they are never trained or selected on, and only
# scripts/controller_bars.sh reads them. Regenerates data/traces/external/:
#   lammps-droplets.h5     LAMMPS: two Lennard-Jones droplets collide and merge
#                          (scripts/external/droplets.lmp), 4,752 atoms;
#   lammps-column.h5       LAMMPS: a granular column collapses along x
#                          (scripts/external/column_collapse.lmp), 3,600 grains;
#   lammps-nucleation.h5   LAMMPS: a quenched Lennard-Jones vapour nucleates droplets
#                          that grow, merge and settle (scripts/external/nucleation.lmp),
#                          4,900 atoms;
#   epidemic-amr-s1/2.h5   our own 2-D SIR reaction-diffusion solver with a two-level
#                          refinement cost model (scripts/external/epidemic_amr.cpp).
# Each: 201 rows (events) x 128 slices; per-slab cost as each file's header says.
# Needs lmp (Debian's lammps package) and g++; about 9 minutes on 2 cores.
# Usage: bash scripts/external_traces.sh [--build DIR] [--out DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
out=$root/data/traces/external
while [ $# -gt 0 ]; do
    case $1 in
        --build) build=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        -h|--help) sed -n 2,14p "$0"; exit 0 ;;
        *) echo "external_traces.sh: unknown option $1" >&2; exit 2 ;;
    esac
done
E=$build/eval/cellshift-eval
[ -x "$E" ] || { echo "external_traces.sh: $E not built (bash scripts/setup.sh)" >&2; exit 1; }
command -v lmp > /dev/null || { echo "external_traces.sh: lmp not found (apt-get install lammps)" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$out"

# LAMMPS fix ave/chunk blocks -> one CSV row per block: Ncount * (1 + mean coordination),
# i.e. the slab's atoms plus its pairs (both orders). The first block (step 0) included.
chunks_to_csv() {
    /usr/bin/python3 - "$1" > "$2" <<'PY'
import sys
lines = [l.split() for l in open(sys.argv[1]) if not l.startswith("#")]
i = 0
while i < len(lines):
    n = int(lines[i][1])
    block = lines[i + 1:i + 1 + n]
    print(",".join(f"{float(b[2]) * (1.0 + float(b[3])):.6g}" for b in block))
    i += 1 + n
PY
}
for deck in droplets column_collapse nucleation; do
    name=lammps-${deck%_collapse}
    echo "[external] LAMMPS $deck ..."
    (cd "$work" && lmp -in "$root/scripts/external/$deck.lmp" -log none -screen none)
    chunks_to_csv "$work/${deck%_collapse}_chunks.txt" "$work/$name.csv"
    "$E" convert-trace "$work/$name.csv" "$out/$name.h5" --header no \
        --source "LAMMPS $(lmp -h | grep -m1 -o '[0-9]* [A-Z][a-z]* 20[0-9][0-9]') scripts/external/$deck.lmp; per-slab cost = atoms x (1 + coordination)"
done

echo "[external] epidemic_amr ..."
g++ -O2 -std=c++17 "$root/scripts/external/epidemic_amr.cpp" -o "$work/epidemic_amr"
for seed in 1 2; do
    "$work/epidemic_amr" "$seed" 200 128 > "$work/epidemic-amr-s$seed.csv"
    "$E" convert-trace "$work/epidemic-amr-s$seed.csv" "$out/epidemic-amr-s$seed.h5" --header no \
        --source "scripts/external/epidemic_amr.cpp seed $seed; per-slab cost = refined-cell work"
done
"$E" inspect "$out"/*.h5
