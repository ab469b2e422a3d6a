#!/usr/bin/env bash
# Generalisation check on synthetic stress workloads (scripts/stress_traces.py: eleven
# workload shapes neither the scenario generator nor the simulator makes, 200 events x
# 128 slices). A benchmark: per workload, rank count and mu it prints the default
# controller's modelled runtime over static's, the best registered causal baseline's at
# its default parameters, the margin between them and the clairvoyant oracle's floor;
# then per mu the means and the cells where the controller is above static or more than
# 2% behind. Lower is better. It asserts nothing. Selection data, not held out: the cost
# gate's median judge was chosen on it (docs/research_log.md, issue 22 session 20), its
# persistence check on the two turn-taking shapes (session 23).
#
#   scripts/stress_figures.sh [--build DIR] [--mu "LIST"] [--ranks LIST] [--jitter J]
#                             [--seed N] [--out DIR] [-- EXTRA cellshift-eval trace OPTIONS]
#
# --seed draws other workloads of the same eleven shapes (stress_traces.py --seed; 0 by
# default).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build"
mus="0.0075 1"
ranks="4,8,16,32"
jitter=0.02
seed=0
out=""
extra=()
while [[ $# -gt 0 ]]; do
    case $1 in
        --build) build=$2; shift 2 ;;
        --mu) mus=${2//,/ }; shift 2 ;;
        --ranks) ranks=$2; shift 2 ;;
        --jitter) jitter=$2; shift 2 ;;
        --seed) seed=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --) shift; extra=("$@"); break ;;
        -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "stress_figures.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
eval_tool="$build/eval/cellshift-eval"
[[ -x $eval_tool ]] || { echo "stress_figures.sh: build first (missing $eval_tool)" >&2; exit 1; }
if [[ -z $out ]]; then
    out=$(mktemp -d)
    trap 'rm -rf "$out"' EXIT
fi
mkdir -p "$out"
/usr/bin/python3 "$root/scripts/stress_traces.py" "$out/traces" --seed "$seed"
policies=static,rnn,holt,persistence,lammps-shift,lazy-holt,reactive,reactive-max,hoomd,seam,oracle
for mu in $mus; do
    for trace in "$out"/traces/*.csv; do
        "$eval_tool" trace "$trace" -q --ranks "$ranks" --w-min 1 --jitter "$jitter" \
            --policies "$policies" --migration-cost "$mu" "${extra[@]}" \
            --out "$out/mu$mu/$(basename "$trace" .csv)" > /dev/null
    done
done
/usr/bin/python3 - "$out" "$mus" <<'PY'
import csv, glob, os, sys
out, mus = sys.argv[1], sys.argv[2].split()
for mu in mus:
    rows = {}
    for path in sorted(glob.glob(f"{out}/mu{mu}/*/trace.csv")):
        name = os.path.basename(os.path.dirname(path))
        for r in csv.DictReader(open(path)):
            rows.setdefault((name, int(r["ranks"])), {})[r["policy"]] = float(r["runtime_vs_static"])
    print(f"\nmu = {mu}: runtime over static (best causal baseline at its defaults)\n")
    print("| workload | P | rnn | best baseline | margin | oracle |")
    print("| --- | ---: | ---: | --- | ---: | ---: |")
    sums, flagged = {"rnn": 0.0, "best": 0.0, "oracle": 0.0}, []
    for (name, p), cell in sorted(rows.items()):
        best_name, best = min(((k, v) for k, v in cell.items() if k not in ("rnn", "oracle")),
                              key=lambda kv: kv[1])
        margin = cell["rnn"] / best - 1
        print(f"| {name} | {p} | {cell['rnn']:.4f} | {best:.4f} {best_name} | "
              f"{100 * margin:+.2f}% | {cell['oracle']:.4f} |")
        sums["rnn"] += cell["rnn"]; sums["best"] += best; sums["oracle"] += cell["oracle"]
        if margin > 0.02 or cell["rnn"] > 1:
            flagged.append(f"{name} P = {p} ({cell['rnn']:.4f}, {100 * margin:+.2f}%)")
    n = len(rows)
    print(f"\nmu = {mu}, mean of {n} cells: rnn {sums['rnn'] / n:.4f}, best baseline per cell "
          f"{sums['best'] / n:.4f}, oracle {sums['oracle'] / n:.4f}; above static or more than "
          f"2% behind: {len(flagged)}" + (": " + ", ".join(flagged) if flagged else ""))
PY
