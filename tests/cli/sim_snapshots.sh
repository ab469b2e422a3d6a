#!/usr/bin/env bash
# Runs a short simulation with snapshots, then checks the XDMF sidecar against the
# HDF5 files: every "file:/dataset" it names exists with the dimensions it states,
# and there is one time step per snapshot (vertices, positions, cell_id, cell_type, rank). Usage: sim_snapshots.sh SIM OUT_DIR
set -euo pipefail
sim=$1
out=$2
rm -rf "$out"
"$sim" run -q --steps 40 --snapshot-every 20 --report-every 20 --Lx 24 --Ly 8 --Lz 10 \
    --out "$out" > "$out.log"
xdmf="$out/tissue.xdmf"
frames=$(grep -c '<Time Value=' "$xdmf")
files=$(ls "$out"/snapshot_*.h5 | wc -l)
[[ $frames -eq 3 && $files -eq 3 ]] || { echo "expected 3 frames and 3 files, got $frames and $files"; exit 1; }
checked=0
while IFS="|" read -r dims ref; do
    file=${ref%%:*}
    dataset=${ref#*:}
    listing=$(h5ls "$out/$file$dataset") || { echo "$file has no $dataset"; exit 1; }
    # h5ls prints e.g. "positions  Dataset {763, 3}"; the XDMF says "763 3".
    actual=$(sed -E 's/.*\{([^}]*)\}.*/\1/; s/,//g; s#/[^ ]*##g' <<<"$listing")
    [[ "$actual" == "$dims" ]] || { echo "$file$dataset: XDMF says '$dims', HDF5 has '$actual'"; exit 1; }
    checked=$((checked + 1))
done < <(sed -nE 's/.*Dimensions="([^"]*)".*>([^<]*)<\/DataItem>.*/\1|\2/p' "$xdmf")
[[ $checked -eq 15 ]] || { echo "checked $checked data items, expected 15"; exit 1; }
echo "xdmf matches hdf5: $frames frames, $checked data items"
