#!/usr/bin/env bash
# Fault injection (issue 8): SIGKILL the simulator or the trainer at random
# moments while it writes checkpoints and outputs, again and again, each time
# continuing from the last checkpoint. After every kill the previous checkpoint
# and every completed output file must be readable; at the end the interrupted
# run must equal an uninterrupted one bit for bit.
#
#   kill_loop.sh sim   KILLS OUT_DIR SIM EVAL
#   kill_loop.sh train KILLS OUT_DIR TRAIN EVAL
#
# Every other kill runs the tool with CELLSHIFT_TEST_COMMIT_DELAY_MS=200 (each
# atomic write waits 200 ms between writing its temporary file and renaming it
# into place), so that many kills land in the middle of a write; the others
# land wherever the random delay falls. Prints one summary line: kills, kills
# that landed mid-write (a temporary file was left beside an output), restarts,
# and the comparison.
set -euo pipefail
what=$1; kills=$2; out=$3; tool=$4; eval_tool=$5
rm -rf "$out"; mkdir -p "$out"
RANDOM=$(( ${KILL_LOOP_SEED:-8} ))

die() { echo "kill_loop: $*" >&2; exit 1; }

# Kill after a random delay in [lo, hi) ms.
kill_after() {
    local pid=$1 lo=$2 hi=$3
    local ms=$(( lo + RANDOM % (hi - lo) ))
    sleep "$(printf '%d.%03d' $((ms / 1000)) $((ms % 1000)))"
    kill -KILL "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
}

# Every file under the real names must be complete and readable.
check_readable() {
    local f
    for f in "$@"; do
        [ -e "$f" ] || continue
        "$eval_tool" inspect "$f" >/dev/null 2>"$out/inspect.err" ||
            die "after kill $k: $f is not readable: $(cat "$out/inspect.err")"
    done
}

temps_now() { find "$out/run" -name '*.tmp-*' 2>/dev/null | wc -l; }

mid_write=0
restarts=0
case $what in
sim)
    common=(-q --backend cpu-binned --Lx 48 --Ly 8 --Lz 10 --cycle-time 4 --patch-fraction 0.6
            --w-min 3 --rebalance-every 20 --policy holt --report-every 100000)
    total=200
    "$tool" run "${common[@]}" --steps $total --snapshot-every $total --out "$out/straight" \
        --run-record "$out/straight.h5" >/dev/null
    mkdir -p "$out/run"
    ckpt="$out/run/ckpt.h5"
    step_of() { "$eval_tool" inspect "$ckpt" | sed -nE 's/.*step ([0-9]+).*/\1/p' | head -1; }
    launch() { # continue (or start) towards step $total
        local done=0 args=()
        if [ -e "$ckpt" ]; then
            done=$(step_of); args=(--restart "$ckpt"); restarts=$((restarts + 1))
        fi
        CELLSHIFT_TEST_COMMIT_DELAY_MS=$delay \
        "$tool" run "${common[@]}" "${args[@]}" --steps $((total - done)) --checkpoint "$ckpt" \
            --checkpoint-every 5 --snapshot-every 10 --out "$out/run/snaps" \
            --run-record "$out/run/run.h5" >/dev/null 2>"$out/run.err" &
        pid=$!
    }
    for k in $(seq 1 "$kills"); do
        delay=$(( k % 2 ? 200 : 0 ))
        before=$(temps_now)
        launch
        kill_after "$pid" 150 2500
        [ "$(temps_now)" -gt "$before" ] && mid_write=$((mid_write + 1))
        check_readable "$ckpt" "$out/run/run.h5" "$out"/run/snaps/snapshot_*.h5
        if [ -e "$ckpt" ] && [ "$(step_of)" -ge $total ]; then
            rm -f "$ckpt" "$out/run/run.h5"; rm -rf "$out/run/snaps" # finished: start over
        fi
    done
    # Finish: continue until the last step, uninterrupted.
    delay=0
    while :; do
        if [ -e "$ckpt" ] && [ "$(step_of)" -ge $total ]; then break; fi
        launch; wait "$pid" || die "the final run failed: $(cat "$out/run.err")"
        [ -e "$ckpt" ] && [ "$(step_of)" -ge $total ] && break
    done
    final=$(printf '%s/run/snaps/snapshot_%09d.h5' "$out" $total)
    for ds in /positions /element_id /cell_id /cell_type; do
        h5diff -q "$out/straight/snapshot_$(printf '%09d' $total).h5" "$final" "$ds" "$ds" ||
            die "final snapshot $ds differs from the uninterrupted run"
    done
    for ds in /rank_time /boundaries /imbalance /migrated_slices /elements; do
        h5diff -q "$out/straight.h5" "$out/run/run.h5" "$ds" "$ds" ||
            die "run record $ds differs from the uninterrupted run"
    done
    ;;
train)
    common=(-q --steps 24 --batch 2 --events 8 --min-ranks 2 --max-ranks 6 --validate-every 6
            --validation-count 2 --threads 1)
    t0=$(date +%s%N)
    "$tool" "${common[@]}" --out "$out/straight.h5" >/dev/null
    # Kills land within the time a whole run takes here (at least 3 s): on a loaded
    # machine the start alone can outlast a fixed window, and no kill would hit a write.
    straight_ms=$(( ($(date +%s%N) - t0) / 1000000 ))
    window_ms=$(( straight_ms > 3000 ? straight_ms : 3000 ))
    mkdir -p "$out/run"
    ckpt="$out/run/ckpt.pt"
    for k in $(seq 1 "$kills"); do
        delay=$(( k % 2 ? 200 : 0 ))
        before=$(temps_now)
        args=()
        if [ -e "$ckpt" ]; then args=(--resume); restarts=$((restarts + 1)); fi
        CELLSHIFT_TEST_COMMIT_DELAY_MS=$delay \
        "$tool" "${common[@]}" --checkpoint "$ckpt" --checkpoint-every 1 "${args[@]}" \
            --out "$out/run/gru.h5" >/dev/null 2>"$out/run.err" &
        pid=$!
        kill_after "$pid" 300 "$window_ms"
        [ "$(temps_now)" -gt "$before" ] && mid_write=$((mid_write + 1))
        check_readable "$out/run/gru.h5"
        if [ -e "$out/run/gru.log.csv" ]; then
            head -1 "$out/run/gru.log.csv" | grep -q '^step,loss,' || die "after kill $k: the log is not whole"
        fi
        if [ -e "$out/run/gru.h5" ]; then # finished before the kill: start over
            rm -f "$ckpt" "$out/run/gru.h5" "$out/run/gru.log.csv"
        fi
    done
    args=()
    if [ -e "$ckpt" ]; then args=(--resume); restarts=$((restarts + 1)); fi
    "$tool" "${common[@]}" --checkpoint "$ckpt" --checkpoint-every 1 "${args[@]}" \
        --out "$out/run/gru.h5" >/dev/null 2>"$out/run.err" ||
        die "the final resumed run failed: $(cat "$out/run.err")"
    for ds in $(h5ls -r "$out/straight.h5" | awk '$2 == "Dataset" {print $1}' | grep -v '^/training'); do
        h5diff -q "$out/straight.h5" "$out/run/gru.h5" "$ds" "$ds" ||
            die "controller $ds differs from the uninterrupted run"
    done
    h5diff -q "$out/straight.h5" "$out/run/gru.h5" /training/loss_history /training/loss_history ||
        die "the loss history differs from the uninterrupted run"
    ;;
*) die "unknown target '$what' (sim or train)" ;;
esac
# Without one kill inside a write the loop has not tested the atomic write at all.
[ "$mid_write" -ge 1 ] || die "no kill of $kills landed mid-write (no temporary file was ever left): nothing of the atomic write was tested"
echo "kill loop $what: $kills kills ($mid_write mid-write, temporary files left: $(temps_now)), $restarts restarts from a checkpoint; every checkpoint and completed output readable after each kill; the final result equals the uninterrupted run"
