#!/usr/bin/env bash
# The figures controllers are chosen by (issue 22: training and validation data only,
# never the evaluation seeds or held-out traces). A benchmark: it prints, per controller
# file and mu, the mean modelled runtime over static's of
#   - the two validation traces (data/traces/validation), P = 4, 8, 16, 32: 8 cells;
#   - training seeds of the six generator families, P = 2..64, 16 scenarios x 50 events
#     per cell: 36 cells.
# Lower is better. It asserts nothing.
#
#   scripts/selection_figures.sh [--build DIR] [--mu "LIST"] FILE...
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build"
mus="0.0075 0.1 1"
files=()
while [[ $# -gt 0 ]]; do
    case $1 in
        --build) build=$2; shift 2 ;;
        --mu) mus=$2; shift 2 ;;
        -h|--help) sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        -*) echo "selection_figures.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
        *) files+=("$1"); shift ;;
    esac
done
[[ ${#files[@]} -gt 0 ]] || { echo "selection_figures.sh: name at least one controller file" >&2; exit 2; }
eval_tool="$build/eval/cellshift-eval"
[[ -x $eval_tool ]] || { echo "selection_figures.sh: build first (missing $eval_tool)" >&2; exit 1; }
for f in "${files[@]}"; do
    [[ -f $f ]] || { echo "selection_figures.sh: $f: no such file" >&2; exit 1; }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Mean of the runtime_vs_static column over every CSV given (rows of POLICY only).
mean_runtime() {
    python3 - "$@" <<'PY'
import csv, sys
policy, paths = sys.argv[1], sys.argv[2:]
values = [float(r["runtime_vs_static"]) for p in paths for r in csv.DictReader(open(p))
          if r.get("policy", policy) == policy]
print(f"{sum(values) / len(values):.4f} ({len(values)} cells)")
PY
}

echo "file | mu | validation traces | training seeds"
for f in "${files[@]}"; do
    for mu in $mus; do
        for t in "$root"/data/traces/validation/*.h5; do
            "$eval_tool" trace "$t" -q --ranks 4,8,16,32 --policies rnn --controller "$f" \
                --migration-cost "$mu" --out "$work/trace_$(basename "$t" .h5)" > /dev/null
        done
        "$eval_tool" sweep -q --policy rnn --grid hold_horizon=-1 --ranks 2,4,8,16,32,64 \
            --count 16 --events 50 --families paper,broad,front,point,shift,colonies \
            --migration-cost "$mu" --controller "$f" --out "$work/seeds" > /dev/null
        echo "$(basename "$f") | $mu | $(mean_runtime rnn "$work"/trace_*/trace.csv) |" \
             "$(mean_runtime rnn "$work/seeds/sweep.csv")"
        rm -rf "$work"/trace_* "$work/seeds"
    done
done
