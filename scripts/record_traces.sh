#!/usr/bin/env bash
# Records the simulator trace corpus (docs/traces.md): one cellshift.trace per
# tissue configuration, split by configuration into training, validation and
# held-out evaluation sets.
#
#   scripts/record_traces.sh [--build DIR] [--out DIR] [--steps N] [--only NAME]
#                            [--options "RUN OPTIONS"]
#
# Traces do not depend on the policy or the rank count (the P-rank trajectory is
# the 1-rank one), so each is recorded once, on 2 ranks, under static, on the
# model clock. Default: 4000 steps, a rebalancing event every 50 (80 intervals),
# into data/traces/{train,validation,evaluation}/NAME.h5. A few minutes on 2 cores.
# --options adds run options to every configuration (e.g. "--slab-estimate
# interactions": traces whose estimate rows are the pair-count proxy, not the slabs'
# modelled cost of each interval's last step).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build"
out="$root/data/traces"
steps=4000
only=""
extra=""
while [[ $# -gt 0 ]]; do
    case $1 in
        --build) build=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --steps) steps=$2; shift 2 ;;
        --only) only=$2; shift 2 ;;
        --options) extra=$2; shift 2 ;;
        -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "record_traces.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
sim="$build/sim/cellshift-sim"
[[ -x $sim ]] || { echo "record_traces.sh: build first (missing $sim)" >&2; exit 1; }
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none

# SET NAME | options (on top of the common ones below); docs/traces.md describes each.
mapfile -t configurations < <(grep -v '^#' "$root/data/configs/tissues.txt" | grep -v '^ *$')
for entry in "${configurations[@]}"; do
    head=${entry%%|*}; options=${entry#*|}
    read -r set name <<< "$head"
    [[ -z $only || $only == "$name" ]] || continue
    mkdir -p "$out/$set"
    start=$SECONDS
    # --config is an option of the tool, the rest of `run`.
    global=(); local_opts=()
    read -ra words <<< "$options $extra"
    for ((i = 0; i < ${#words[@]}; ++i)); do
        if [[ ${words[i]} == --config ]]; then global+=(--config "$root/${words[i+1]}"); ((++i));
        else local_opts+=("${words[i]}"); fi
    done
    mpirun --quiet -n 2 "$sim" "${global[@]}" run -q --backend cpu-binned --steps "$steps" \
        --report-every "$steps" --policy static --rebalance-every 50 --w-min 1 --Ly 8 \
        "${local_opts[@]}" --trace-out "$out/$set/$name.h5" > "$out/$set/$name.log"
    rm -f "$out/$set/$name.log"
    # Compressed (HDF5's deflate: every reader of the library opens it as it is).
    h5repack -f GZIP=6 "$out/$set/$name.h5" "$out/$set/$name.gz.h5"
    mv "$out/$set/$name.gz.h5" "$out/$set/$name.h5"
    echo "[traces] $set/$name: $((SECONDS - start)) s"
done
