#!/usr/bin/env bash
# Live selection figures (issue 22): the simulator run on P ranks, on the model clock,
# for the training and validation tissue configurations of data/configs/tissues.txt
# (never the evaluation ones), under each policy given and under static. Unlike a
# trace replay, the policy sees what a live run gives it: the per-slab estimate (the cost
# model's seconds of the interval's last step; the pair-count proxy with --options
# "--slab-estimate interactions"), not the modelled cost of the interval. A benchmark: it
# prints the model-clock runtime per tissue and the mean over static's; lower is better.
# It asserts nothing.
#
#   scripts/live_figures.sh [--build DIR] [--ranks P] [--steps N] [--controller FILE]
#                           [--sets "train validation"] [--options "RUN OPTIONS"]
#                           POLICY[:PARAM=V[,PARAM=V]]...
# e.g. scripts/live_figures.sh rnn holt holt:calibrate=0.9   (8 ranks: ~4 min a policy)
# --options adds run options to every run, e.g. "--slab-estimate interactions".
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=SCRIPTDIR/lib/policy_token.sh
source "$root/scripts/lib/policy_token.sh"
build="$root/build"
ranks=8
steps=4000
controller="$root/data/controllers/default.h5"
sets="train validation"
extra=""
policies=()
while [[ $# -gt 0 ]]; do
    case $1 in
        --build) build=$2; shift 2 ;;
        --ranks) ranks=$2; shift 2 ;;
        --steps) steps=$2; shift 2 ;;
        --controller) controller=$2; shift 2 ;;
        --sets) sets=$2; shift 2 ;;
        --options) extra=$2; shift 2 ;;
        -h|--help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "live_figures.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
        *) policies+=("$1"); shift ;;
    esac
done
[[ ${#policies[@]} -gt 0 ]] || { echo "live_figures.sh: name at least one policy" >&2; exit 2; }
[[ " $sets " != *" evaluation "* ]] || {
    echo "live_figures.sh: the evaluation tissues are for the final tables (scripts/e2e.sh)" >&2
    exit 2
}
sim="$build/sim/cellshift-sim"
[[ -x $sim ]] || { echo "live_figures.sh: build first (missing $sim)" >&2; exit 1; }
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# The e2e tissue's run settings (data/configs/e2e_tissue.toml), the geometry per tissue.
common=(--backend cpu-binned --Ly 8 --Lz 24 --w-min 3 --rebalance-every 100)
tissues=()
while IFS= read -r entry; do
    read -r set name <<< "${entry%%|*}"
    [[ " $sets " == *" $set "* ]] && tissues+=("$name|${entry#*|}")
done < <(grep -v '^#' "$root/data/configs/tissues.txt" | grep -v '^ *$')

# Model-clock runtime of one run: policy token, tissue options.
runtime() {
    local options=$2
    policy_token_args "$1"
    read -ra opts <<< "$options $extra"
    mpirun --quiet -n "$ranks" "$sim" run -q --steps "$steps" --report-every "$steps" \
        "${common[@]}" "${opts[@]}" --controller "$controller" "${POLICY_ARGS[@]}" \
        > "$work/run.log"
    awk '/runtime, model clock/ {print $4}' "$work/run.log"
}

declare -A static_time
header="policy"
line="static"
for t in "${tissues[@]}"; do
    name=${t%%|*}
    header+=" | $name"
    static_time[$name]=$(runtime static "${t#*|}")
    line+=" | ${static_time[$name]}"
done
echo "$header | mean vs static"
echo "$line | 1.0000"
for token in "${policies[@]}"; do
    line="$token"
    ratios=()
    for t in "${tissues[@]}"; do
        name=${t%%|*}
        time=$(runtime "$token" "${t#*|}")
        line+=" | $time"
        ratios+=("$(python3 -c "print($time / ${static_time[$name]})")")
    done
    mean=$(python3 -c "import sys; v = [float(x) for x in sys.argv[1:]]; print(f'{sum(v) / len(v):.4f}')" "${ratios[@]}")
    echo "$line | $mean"
done
