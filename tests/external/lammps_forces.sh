#!/usr/bin/env bash
# External reference: the same jittered fcc lattice under one Morse parameter set
# (the SEM form with xi1 = xi2 / 2), forces from LAMMPS' pair_style morse and from
# cellshift, compared element by element. Exit 77 (skipped) without `lmp`.
# Usage: lammps_forces.sh SIM OUT_DIR [BACKEND]
set -euo pipefail
sim=$(realpath "$1")
out=$2
backend=${3:-cpu-binned}
if ! command -v lmp > /dev/null; then
    echo "skipped: LAMMPS (lmp) is not installed (apt-get install lammps)"
    exit 77
fi
mkdir -p "$out"
cd "$out"
D0=1.0 alpha=5.0 r0=1.1224 rc=2.5
"$sim" lattice-forces --cells 5 --jitter 0.08 --D0 $D0 --alpha $alpha --r0 $r0 --cutoff $rc \
    --backend "$backend" --forces cellshift.csv --lammps-data lattice.data > /dev/null
cat > in.forces <<LMP
units lj
atom_style atomic
atom_modify map array
boundary f f f
read_data lattice.data
pair_style morse $rc
pair_coeff 1 1 $D0 $alpha $r0 $rc
neighbor 0.3 bin
dump forces all custom 1 lammps.dump id fx fy fz
dump_modify forces sort id format float %.17g
run 0
LMP
lmp -in in.forces -log lammps.log -screen none
# lammps.dump: 9 header lines, then "id fx fy fz" sorted by id (cellshift id + 1).
awk -F'[ ,]' '
    NR == FNR { if (FNR > 9) { fx[$1 - 1] = $2; fy[$1 - 1] = $3; fz[$1 - 1] = $4; n++ } next }
    FNR > 1 {
        m++
        for (k = 0; k < 3; k++) {
            ours = $(6 + k); theirs = (k == 0 ? fx[$1] : (k == 1 ? fy[$1] : fz[$1]))
            d = ours - theirs; if (d < 0) d = -d
            if (d > worst) worst = d
            a = theirs < 0 ? -theirs : theirs
            if (a > scale) scale = a
        }
    }
    END {
        if (n == 0 || n != m) { printf "element counts differ: LAMMPS %d, cellshift %d\n", n, m; exit 1 }
        rel = worst / scale
        printf "%d elements: max |F_cellshift - F_lammps| = %.3g, relative to max |F| = %.3g: %.3g\n", n, worst, scale, rel
        if (rel > 1e-10) { print "FAIL: relative error above 1e-10"; exit 1 }
        print "cellshift forces match LAMMPS pair_style morse"
    }' lammps.dump cellshift.csv
