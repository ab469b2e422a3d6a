#!/usr/bin/env bash
# Runtime relative to static of every registered policy (the oracle as the
# clairvoyant floor) on held-out scenarios of every family at P = 2..64 and on
# the held-out simulator traces at P = 4..32, at three migration costs mu: the
# CPU simulator's 0.0075, a GPU rank's ~0.1, and 1 (docs/runtime.md). A
# benchmark: it prints figures and writes out/runtime/tables.md, it asserts
# nothing. Evaluation seeds and held-out traces: use it for final tables only.
#
#   scripts/runtime_tables.sh [--build DIR] [--out DIR] [--count N] [--mu LIST]
#                             [--controller FILE]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build="$root/build"
out="$root/out/runtime"
count=32
mus="0.0075 0.1 1"
controller="$root/data/controllers/default.h5"
while [[ $# -gt 0 ]]; do
    case $1 in
        --build) build=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --count) count=$2; shift 2 ;;
        --mu) mus=${2//,/ }; shift 2 ;;
        --controller) controller=$2; shift 2 ;;
        -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "runtime_tables.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
E="$build/eval/cellshift-eval"
[[ -x $E ]] || { echo "runtime_tables.sh: build first (missing $E)" >&2; exit 1; }
policies="static,reactive,reactive-max,persistence,holt,lazy-holt,seam,hoomd,lammps-shift,rnn-zero,rnn,oracle"
families="paper broad front point shift colonies" # scenarios::family_names()
mkdir -p "$out"
for mu in $mus; do
    for family in $families; do
        "$E" scenarios -q --family "$family" --count "$count" --ranks 2,4,8,16,32,64 \
            --policies "$policies" --controller "$controller" --migration-cost "$mu" \
            --out "$out/mu$mu/$family" > /dev/null
        echo "[runtime] mu $mu, family $family"
    done
    for trace in "$root"/data/traces/evaluation/*.h5; do
        name=$(basename "$trace" .h5)
        "$E" trace "$trace" -q --ranks 4,8,16,32 --w-min 1 --jitter 0.02 --policies "$policies" \
            --controller "$controller" --migration-cost "$mu" --out "$out/mu$mu/trace-$name" > /dev/null
        echo "[runtime] mu $mu, trace $name"
    done
done
/usr/bin/python3 - "$out" "$mus" <<'PY'
import csv, glob, os, sys
out, mus = sys.argv[1], sys.argv[2].split()
lines = ["# Runtime relative to static (lower is better)", "",
         "Each cell: mean over scenarios of (policy's modelled runtime / static's). "
         "Bold: the lowest causal policy (oracle excluded) in its column.", ""]
for mu in mus:
    lines.append(f"## mu = {mu}")
    for folder in sorted(glob.glob(os.path.join(out, f"mu{mu}", "*"))):
        name = os.path.basename(folder)
        csvs = glob.glob(os.path.join(folder, "*.csv"))
        if not csvs:
            continue
        rows = list(csv.DictReader(open(csvs[0])))
        ranks = sorted({int(r["ranks"]) for r in rows})
        pols = list(dict.fromkeys(r["policy"] for r in rows))
        val = {(r["policy"], int(r["ranks"])): float(r["runtime_vs_static"]) for r in rows}
        best = {P: min(val[p, P] for p in pols if p != "oracle") for P in ranks}
        lines += ["", f"### {name}", "", "| policy | " + " | ".join(f"P = {P}" for P in ranks) + " |",
                  "| --- |" + " ---: |" * len(ranks)]
        for p in pols:
            cells = []
            for P in ranks:
                v = val[p, P]
                cells.append(f"**{v:.4f}**" if p != "oracle" and v == best[P] else f"{v:.4f}")
            lines.append(f"| {p} | " + " | ".join(cells) + " |")
    lines.append("")
open(os.path.join(out, "tables.md"), "w").write("\n".join(lines) + "\n")
print(f"wrote {os.path.join(out, 'tables.md')}")
PY
