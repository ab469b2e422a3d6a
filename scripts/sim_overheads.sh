#!/usr/bin/env bash
# The simulator's own overheads (issue 24): the tissue of scripts/e2e.sh grown over
# its whole run on 1, 2, 4 and 8 ranks (oversubscribed where the machine has fewer
# cores), and the share of the wall time each phase took: ghost exchange, migration,
# the balancing decision and output (snapshots, checkpoints), beside forces,
# integration, lifecycle and the time ranks wait for the slowest (imbalance). The
# model-clock and measured runtimes are printed beside them. A benchmark: it prints
# figures and asserts nothing.
# Usage: bash scripts/sim_overheads.sh [--ranks "1 2 4 8"] [--steps 4000] [--policy holt]
#                                     [--out DIR] [--sim PATH]
#   --sim: the cellshift-sim to run (default build/sim/cellshift-sim; on a machine without
#   the build, the one of a bundle from scripts/gpu_bundle.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
ranks_list="1 2 4 8"
steps=4000
policy=holt
out=$root/out/overheads
sim=$root/build/sim/cellshift-sim
while [ $# -gt 0 ]; do
    case $1 in
        --ranks) ranks_list=$2; shift 2 ;;
        --steps) steps=$2; shift 2 ;;
        --policy) policy=$2; shift 2 ;;
        --out) out=$2; shift 2 ;;
        --sim) sim=$2; shift 2 ;;
        -h|--help) sed -n 2,12p "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "sim_overheads.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
[ -x "$sim" ] || { echo "sim_overheads.sh: build first (missing $sim)" >&2; exit 1; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1
export OMPI_MCA_rmaps_base_oversubscribe=1
mkdir -p "$out"
for P in $ranks_list; do
    rm -rf "$out/P$P"
    mpirun --quiet -n "$P" "$sim" --config "$root/data/configs/e2e_tissue.toml" run -q \
        --policy "$policy" --steps "$steps" --report-every "$steps" --snapshot-every $((steps / 4)) \
        --out "$out/P$P" --checkpoint "$out/P$P.ckpt.h5" --checkpoint-every $((steps / 4)) \
        > "$out/P$P.log"
    echo "[overheads] P = $P: $(grep '^done:' "$out/P$P.log")" >&2
done
# Any Python 3 reads the logs (no module beyond the standard library).
python3 - "$out" $ranks_list <<'PY'
import re, sys
out, ranks = sys.argv[1], sys.argv[2:]
cols = ["ghost exchange", "migration", "decision", "output", "wait (step sync)", "forces",
        "integration", "lifecycle"]
print("| P | wall [s] | " + " | ".join(cols) + " | overhead | runtime model [s] | runtime measured [s] |")
print("| ---: | ---: |" + " ---: |" * (len(cols) + 3))
for P in ranks:
    log = open(f"{out}/P{P}.log").read()
    share = {m[0].strip(): float(m[1]) for m in
             re.findall(r"^  ([a-z ()]+?)\s+[0-9.]+ s\s+([0-9.]+) % \|", log, re.M)}
    wall = re.search(r"^done: \d+ steps in ([0-9.]+) s", log, re.M).group(1)
    overhead = re.search(r"decomposition overhead ([0-9.]+) %", log).group(1)
    model = re.search(r"runtime, model clock\s+([0-9.]+) s", log).group(1)
    measured = re.search(r"runtime, measured clock\s+([0-9.]+) s", log).group(1)
    print(f"| {P} | {wall} | " + " | ".join(f"{share[c]:.1f}%" for c in cols) +
          f" | **{overhead}%** | {model} | {measured} |")
PY
