#!/usr/bin/env bash
# A run stopped at a checkpoint and restarted continues exactly as one run:
# the same final positions and the same run record (every event's rank times,
# boundaries, imbalance), on 2 ranks under the rnn policy.
# Usage: sim_restart.sh MPIRUN SIM CONTROLLER OUT_DIR
set -euo pipefail
mpirun=$1; sim=$2; controller=$3; out=$4
rm -rf "$out"; mkdir -p "$out"
common=(-q --backend cpu-binned --Lx 48 --Ly 8 --Lz 10 --cycle-time 4 --patch-fraction 0.6
        --w-min 3 --rebalance-every 40 --policy rnn --controller "$controller" --report-every 100
        --last-step 300)
"$mpirun" --quiet -n 2 "$sim" run "${common[@]}" --steps 300 --snapshot-every 300 \
    --out "$out/straight" --run-record "$out/straight.h5" > "$out/straight.log"
"$mpirun" --quiet -n 2 "$sim" run "${common[@]}" --steps 130 --checkpoint "$out/ckpt.h5" \
    > "$out/first.log"
"$mpirun" --quiet -n 2 "$sim" run "${common[@]}" --steps 170 --restart "$out/ckpt.h5" \
    --snapshot-every 300 --out "$out/resumed" --run-record "$out/resumed.h5" > "$out/resumed.log"
for ds in /positions /element_id /cell_id /cell_type; do
    h5diff "$out/straight/snapshot_000000300.h5" "$out/resumed/snapshot_000000300.h5" "$ds" "$ds" \
        || { echo "snapshot $ds differs"; exit 1; }
done
for ds in /rank_time /boundaries /imbalance /migrated_slices /elements; do
    h5diff "$out/straight.h5" "$out/resumed.h5" "$ds" "$ds" || { echo "run record $ds differs"; exit 1; }
done
events=$(h5dump -H -d /imbalance "$out/resumed.h5" | sed -nE 's/.*DATASPACE  SIMPLE \{ \( ([0-9]+) \).*/\1/p')
# A restart with another rank count is refused on every rank.
if "$mpirun" --quiet -n 3 "$sim" run "${common[@]}" --steps 10 --restart "$out/ckpt.h5" 2> "$out/ranks.err"; then
    echo "a 3-rank restart of a 2-rank checkpoint was accepted"; exit 1
fi
grep -q "written by 2 ranks" "$out/ranks.err" || { echo "unexpected: $(cat "$out/ranks.err")"; exit 1; }
# ... and so is a restart under another policy, which names the checkpoint's.
other=("${common[@]/rnn/holt}")
if "$mpirun" --quiet -n 2 "$sim" run "${other[@]}" --steps 10 --restart "$out/ckpt.h5" 2> "$out/policy.err"; then
    echo "a restart under another policy was accepted"; exit 1
fi
grep -q "written under policy 'rnn', not 'holt'" "$out/policy.err" || { echo "unexpected: $(cat "$out/policy.err")"; exit 1; }
echo "restart matches the uninterrupted run: step 300, $events events"
