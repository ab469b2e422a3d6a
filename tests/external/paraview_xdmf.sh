#!/usr/bin/env bash
# External reader: a short run's snapshot series opened by ParaView's own XDMF
# reader (pvpython), as a user would open it (the tissue grows: 43, 74, 122 elements).
# Every frame must have one vertex cell per element (so the default Surface view draws
# them) and the cell_id, cell_type and rank arrays. Exit 77 (skipped) without pvpython
# (apt-get install paraview python3-paraview; scripts/setup.sh installs them when it can).
# Usage: paraview_xdmf.sh SIM OUT_DIR
set -euo pipefail
sim=$(realpath "$1")
out=$(realpath -m "$2")
if ! command -v pvpython > /dev/null; then
    echo "skipped: ParaView (pvpython) is not installed (apt-get install paraview python3-paraview)"
    exit 77
fi
here=$(cd "$(dirname "$0")" && pwd)
rm -rf "$out"
"$sim" run -q --steps 600 --snapshot-every 300 --report-every 300 --Lx 24 --Ly 8 --Lz 10 --cycle-time 4 \
    --out "$out" > "$out.log"
# The element count of each frame, from the XDMF's own positions dimensions.
mapfile -t expected < <(sed -nE 's/.*Dimensions="([0-9]+) 3".*/\1/p' "$out/tissue.xdmf")
[ "${#expected[@]}" -eq 3 ] || { echo "FAIL: expected 3 frames in tissue.xdmf"; exit 1; }
# pvpython needs an absolute path (a bare name makes its reader look for NAME.xdmfDATA.h5).
mapfile -t frames < <(pvpython --force-offscreen-rendering "$here/paraview_xdmf.py" \
    "$out/tissue.xdmf" 2> "$out.pvpython.log" | grep '^frame ')
[ "${#frames[@]}" -eq 3 ] || { echo "FAIL: ParaView read ${#frames[@]} frames, not 3"; cat "$out.pvpython.log"; exit 1; }
for k in 0 1 2; do
    n=${expected[$k]}
    [[ ${frames[$k]} =~ points=$n\ cells=$n\ arrays=cell_id,cell_type,rank$ ]] ||
        { echo "FAIL: frame $k: '${frames[$k]}', expected $n points, $n cells, cell_id,cell_type,rank"; exit 1; }
done
echo "ParaView reads every frame: ${expected[*]} elements, one vertex cell each, 3 arrays"
