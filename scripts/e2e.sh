#!/usr/bin/env bash
# End-to-end balancing evaluation (issue 6): the same tissue on P ranks under
# each policy on the model clock, plus one run of the same size on the measured
# clock, then the comparison table (mean imbalance, runtime vs static, migrated
# slabs) from the run records (OUT/runs.md, runs.csv, manifest.json). Usage:
#   scripts/e2e.sh [--build DIR] [--ranks P] [--steps N] [--out DIR] [--policies "a b c"]
#                  [--controller FILE] [--config FILE] [--options "--Lx 448 ..."]
# --config replaces the tissue (data/configs/e2e_tissue.toml); --options are run
# options on top of it (another tissue configuration, e.g. a held-out one). A policy
# may carry parameters: NAME:PARAM=V[,PARAM=V] (e.g. holt:calibrate=0.9).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
# shellcheck source=SCRIPTDIR/lib/policy_token.sh
source "$root/scripts/lib/policy_token.sh"
build="$root/build"
ranks=8
steps=4000
out="$root/out/e2e"
policies="static reactive rnn rnn-zero persistence holt seam hoomd lammps-shift"
controller="$root/data/controllers/default.h5"
config="$root/data/configs/e2e_tissue.toml"
extra=()
while [[ $# -gt 0 ]]; do
    case $1 in
        --build) build=$2; shift 2 ;;
        --ranks) ranks=$2; shift 2 ;;
        --steps) steps=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --policies) policies=$2; shift 2 ;;
        --controller) controller=$2; shift 2 ;;
        --config) config=$2; shift 2 ;;
        --options) read -ra extra <<< "$2"; shift 2 ;;
        -h|--help) sed -n '2,10p' "$0"; exit 0 ;;
        *) echo "e2e.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
sim="$build/sim/cellshift-sim"
eval_tool="$build/eval/cellshift-eval"
[[ -f $config ]] || { echo "e2e.sh: $config: no such file" >&2; exit 1; }
[[ -x $sim && -x $eval_tool ]] || { echo "e2e.sh: build first (missing $sim)" >&2; exit 1; }
mkdir -p "$out"
# One OpenMP thread per rank; oversubscription is fine (the model clock does not
# depend on the machine), root is allowed (CI runs as root).
export OMP_NUM_THREADS=1 OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_btl_vader_single_copy_mechanism=none
run() { # name, extra options...
    local name=$1; shift
    local start=$SECONDS
    mpirun --quiet -n "$ranks" "$sim" --config "$config" run -q --steps "$steps" \
        --report-every "$steps" --controller "$controller" --run-record "$out/$name.h5" "${extra[@]}" "$@" \
        > "$out/$name.log"
    # The summary comes from the run record, not from the human-readable log.
    echo "[e2e] $name: $((SECONDS - start)) s; $("$eval_tool" inspect "$out/$name.h5" | sed 's/^[^:]*: //')"
}
records=()
for policy in $policies; do
    name=${policy//[:,]/_} # holt:calibrate=0.9 -> holt_calibrate=0.9
    policy_token_args "$policy"
    run "$name" "${POLICY_ARGS[@]}"
    records+=("$out/$name.h5")
done
# The same size on the measured clock: the policy sees steady-clock times.
run rnn-measured --policy rnn --clock measured --snapshot-every "$steps" --out "$out/tissue"
records+=("$out/rnn-measured.h5")
echo
echo "End to end: $ranks ranks, $steps steps, $config${extra[*]:+ with ${extra[*]}}"
"$eval_tool" runs "${records[@]}" --out "$out"
