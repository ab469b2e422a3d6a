#!/usr/bin/env bash
# The figures controllers are chosen by (issue 22: training and validation data only,
# never the evaluation seeds or held-out traces). A benchmark: it prints, per controller
# file and mu, the mean modelled runtime over static's of
#   - training seeds of the six generator families, P = 2..64, 16 scenarios x 50 events
#     per cell: 36 cells;
#   - the recorded simulator traces of --traces (the two validation traces by default),
#     P = 4, 8, 16, 32, under each observation noise of --noise (none by default);
#   - with --stress, the stress set (scripts/stress_figures.sh: eleven shapes none of our
#     codes make, 44 cells) under each observation noise of --noise (2% if none given).
# Lower is better. It asserts nothing.
#
#   scripts/selection_figures.sh [--build DIR] [--mu "LIST"] [--traces "train validation"]
#                                [--noise "0.02 0.1 0.3"] [--stress] [--param NAME=V]...
#                                [FILE...]
#
# FILE defaults to data/controllers/default.h5. --param sets a deployment setting of the
# rnn policy for every figure (e.g. --param trend_judge=0; `cellshift-eval policies`).
# The figures of the research log's selection tables, e.g. for one change:
#   scripts/selection_figures.sh --traces "train validation" --noise "0.02 0.1 0.3" --stress
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build"
mus="0.0075 0.1 1"
sets="validation"
noises=""
stress=""
params=()
files=()
while [[ $# -gt 0 ]]; do
    case $1 in
        --build) build=$2; shift 2 ;;
        --mu) mus=${2//,/ }; shift 2 ;;
        --traces) sets=${2//,/ }; shift 2 ;;
        --noise) noises=${2//,/ }; shift 2 ;;
        --stress) stress=1; shift ;;
        --param) params+=("$2"); shift 2 ;;
        -h|--help) sed -n '2,20p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "selection_figures.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
        *) files+=("$1"); shift ;;
    esac
done
[[ ${#files[@]} -gt 0 ]] || files=("$root/data/controllers/default.h5")
eval_tool="$build/eval/cellshift-eval"
[[ -x $eval_tool ]] || { echo "selection_figures.sh: build first (missing $eval_tool)" >&2; exit 1; }
for f in "${files[@]}"; do
    [[ -f $f ]] || { echo "selection_figures.sh: $f: no such file" >&2; exit 1; }
done
traces=()
for set in $sets; do
    [[ -d $root/data/traces/$set ]] || {
        echo "selection_figures.sh: --traces: no trace set '$set' in data/traces" >&2; exit 2; }
    traces+=("$root"/data/traces/"$set"/*.h5)
done
trace_params=() grid=()
for p in "${params[@]}"; do
    [[ $p == ?*=?* && $p != *,* ]] || {
        echo "selection_figures.sh: --param $p: expected NAME=VALUE (one value)" >&2; exit 2; }
    trace_params+=(--param "rnn.$p")
    grid+=(--grid "$p") # a one-point grid: the sweep's way of setting a parameter
done
[[ ${#grid[@]} -gt 0 ]] || grid=(--grid hold_horizon=-1) # -1: the file's own horizon
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Mean of the runtime_vs_static column over every CSV given (rows of POLICY only).
mean_runtime() {
    /usr/bin/python3 - "$@" <<'PY'
import csv, sys
policy, paths = sys.argv[1], sys.argv[2:]
values = [float(r["runtime_vs_static"]) for p in paths for r in csv.DictReader(open(p))
          if r.get("policy", policy) == policy]
print(f"{sum(values) / len(values):.4f} ({len(values)} cells)")
PY
}

# The trace figure at one noise: file, mu, noise.
trace_figure() {
    local jitter=()
    [[ -n $3 ]] && jitter=(--jitter "$3")
    for t in "${traces[@]}"; do
        "$eval_tool" trace "$t" -q --ranks 4,8,16,32 --w-min 1 "${jitter[@]}" --policies rnn \
            --controller "$1" --migration-cost "$2" "${trace_params[@]}" \
            --out "$work/trace_$(basename "$t" .h5)" > /dev/null
    done
    mean_runtime rnn "$work"/trace_*/trace.csv
    rm -rf "$work"/trace_*
}

# The stress set's mean at one noise: file, mu, noise.
stress_figure() {
    bash "$root/scripts/stress_figures.sh" --build "$build" --mu "$2" --jitter "$3" \
        -- --controller "$1" "${trace_params[@]}" |
        sed -n 's/.*mean of \([0-9]*\) cells: rnn \([0-9.]*\),.*/\2 (\1 cells)/p'
}

# The traces' noises ("": exact observations) and the stress set's (2% by default).
read -ra trace_noises <<< "$noises"
[[ ${#trace_noises[@]} -gt 0 ]] || trace_noises=("")
stress_noises=${noises:-0.02}
header="file | mu | training seeds"
for j in "${trace_noises[@]}"; do header+=" | ${sets// /+} traces${j:+, noise $j}"; done
if [[ -n $stress ]]; then
    for j in $stress_noises; do header+=" | stress set, noise $j"; done
fi
echo "$header"
for f in "${files[@]}"; do
    for mu in $mus; do
        "$eval_tool" sweep -q --policy rnn "${grid[@]}" --ranks 2,4,8,16,32,64 \
            --count 16 --events 50 --families paper,broad,front,point,shift,colonies \
            --migration-cost "$mu" --controller "$f" --out "$work/seeds" > /dev/null
        row="$(basename "$f") | $mu | $(mean_runtime rnn "$work/seeds/sweep.csv")"
        rm -rf "$work/seeds"
        for j in "${trace_noises[@]}"; do row+=" | $(trace_figure "$f" "$mu" "$j")"; done
        if [[ -n $stress ]]; then
            for j in $stress_noises; do row+=" | $(stress_figure "$f" "$mu" "$j")"; done
        fi
        echo "$row"
    done
done
