#!/usr/bin/env bash
# A trace recorded by the simulator (--trace-out) replays to the live run: for
# each policy, `cellshift-eval trace` on the recorded trace chooses the same
# boundaries as the live 2-rank run and gives the same rank times up to the
# ghost term (which the trace leaves with the ranks). That includes holt, which
# decides on the per-slab estimate: the model-clock trace carries the estimate
# the live policy saw, and the replay shows it that. Traces recorded under
# three policies are the same workload and estimate (to rounding). Prints the
# largest relative rank-time difference.
# Usage: sim_trace_replay.sh MPIRUN SIM EVAL OUT_DIR
set -euo pipefail
mpirun=$1; sim=$2; eval_tool=$3; out=$4
rm -rf "$out"; mkdir -p "$out"
common=(-q --backend cpu-binned --Lx 48 --Ly 8 --Lz 10 --cycle-time 4 --patch-fraction 0.6
        --w-min 3 --rebalance-every 40 --steps 800 --report-every 800 --growth-gradient 0.8)
policies=(static reactive holt)
for policy in "${policies[@]}"; do
    "$mpirun" --quiet -n 2 "$sim" run "${common[@]}" --policy "$policy" \
        --run-record "$out/live_$policy.h5" --trace-out "$out/trace_$policy.h5" > "$out/$policy.log"
done
for policy in reactive holt; do
    for dataset in /workload /estimate; do
        h5diff -p 1e-12 "$out/trace_static.h5" "$out/trace_$policy.h5" $dataset $dataset \
            || { echo "$dataset of the traces under static and $policy differs"; exit 1; }
    done
done
"$eval_tool" trace "$out/trace_static.h5" -q --ranks 2 --w-min 3 --policies static,reactive,holt \
    --records --out "$out/replay" > "$out/replay.log"
/usr/bin/python3 - "$out" <<'PY'
import sys, h5py, numpy as np
out = sys.argv[1]
worst = 0.0
for policy in ("static", "reactive", "holt"):
    live = h5py.File(f"{out}/live_{policy}.h5", "r")
    replay = h5py.File(f"{out}/replay/runs/trace_P2_{policy}.h5", "r")
    # Live event e (0-based) reports interval e; replay row r is interval r + 1.
    lt, lb = live["rank_time"][1:], live["boundaries"][1:]
    rt, rb = replay["rank_time"][:], replay["boundaries"][:]
    n = min(len(lt), len(rt))
    if n < 5:
        sys.exit(f"{policy}: only {n} comparable intervals")
    if not np.array_equal(lb[:n], rb[:n]):
        sys.exit(f"{policy}: replayed boundaries differ from the live run's")
    rel = np.abs(lt[:n] - rt[:n]) / lt[:n]
    if not (lt[:n] >= rt[:n]).all():
        sys.exit(f"{policy}: a replayed rank time exceeds the live one (the ghost term is >= 0)")
    worst = max(worst, rel.max())
    moved = int(np.abs(np.diff(lb[:n], axis=0)).sum())
    print(f"{policy}: {n} intervals, {moved} slabs moved, largest ghost share {rel.max():.4f}")
if worst > 0.05:
    sys.exit(f"ghost term {worst:.3f} > 5% of a rank's time")
print(f"trace replays the live run: rank times within {worst:.4f} (the ghost term)")
PY
