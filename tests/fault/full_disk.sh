#!/usr/bin/env bash
# Fault injection (issue 8): every tool writing onto a full disk answers with one
# line naming the file and exits 1; the file that was there before is unchanged
# byte for byte and no half file is left under the real name or beside it.
#
#   full_disk.sh OUT_DIR SIM TRAIN EVAL [MPIRUN]
#
# TRAIN may be "-" (a build without LibTorch); with MPIRUN the simulator also
# writes its checkpoint onto the full disk from a 2-rank run.
#
# The disk is a small tmpfs filled to the last byte (needs root and mount); where
# mounting is refused, a file-size limit (ulimit -f, SIGXFSZ ignored, so writes
# fail with EFBIG as they fail with ENOSPC on a full disk) stands in for it.
set -euo pipefail
out=$1; sim=$2; train=$3; eval_tool=$4; mpirun=${5:-}
rm -rf "$out"; mkdir -p "$out/disk" "$out/old"
die() { echo "full_disk: $*" >&2; exit 1; }

mode=tmpfs
[ "${FULL_DISK_MODE:-}" = fsize ] && mode=fsize # to test the stand-in where mount works
if [ "$mode" = tmpfs ] && ! mount -t tmpfs -o size=2m tmpfs "$out/disk" 2>/dev/null; then mode=fsize; fi
cleanup() { [ "$mode" = tmpfs ] && umount "$out/disk" 2>/dev/null || true; }
trap cleanup EXIT

# Real outputs of each tool, made first on the real disk: the "old" files.
small=(-q --backend cpu-binned --Lx 48 --Ly 8 --Lz 10 --cycle-time 4 --patch-fraction 0.6
       --w-min 3 --rebalance-every 20 --policy holt)
"$sim" run "${small[@]}" --steps 40 --checkpoint "$out/old/ckpt.h5" --run-record "$out/old/run.h5" \
    --snapshot-every 40 --out "$out/old/snaps" >/dev/null
cp "$out/old/snaps/snapshot_000000040.h5" "$out/old/snapshot.h5"
"$eval_tool" scenarios --ranks 4 --count 2 --events 10 --policies static,reactive -q \
    --out "$out/old/eval" >/dev/null

checks=0
# expect_full NAME FREE_KB TARGET OLD -- COMMAND...: TARGET (a path on the disk)
# holds a copy of OLD, the disk is then filled up to FREE_KB kilobytes (0: the
# file cannot even be created; more: the write fails part way), COMMAND must
# fail as described above.
expect_full() {
    local name=$1 free_kb=$2 target=$3 old=$4; shift 5
    rm -rf "$out/disk/"*
    mkdir -p "$(dirname "$target")"
    cp "$old" "$target"
    local rc=0
    if [ "$mode" = tmpfs ]; then
        dd if=/dev/zero of="$out/disk/filler" bs=4k >/dev/null 2>&1 || true # until ENOSPC
        [ "$free_kb" = 0 ] || truncate -s "-${free_kb}K" "$out/disk/filler"
        "$@" >"$out/$name.out" 2>"$out/$name.err" || rc=$?
    else
        # stderr through a pipe: a file opened for it would fall under the limit too
        set +e
        ( trap '' XFSZ; ulimit -f $free_kb; exec "$@" ) 2>&1 >/dev/null | cat >"$out/$name.err"
        rc=${PIPESTATUS[0]}
        set -e
    fi
    [ "$rc" = 1 ] || die "$name: exit $rc, expected 1 (stderr: $(cat "$out/$name.err"))"
    [ "$(wc -l <"$out/$name.err")" = 1 ] || die "$name: stderr is not one line: $(cat "$out/$name.err")"
    grep -q "$(basename "$target")" "$out/$name.err" || die "$name: the error does not name the file: $(cat "$out/$name.err")"
    cmp -s "$old" "$target" || die "$name: the old $(basename "$target") changed"
    if ls "$target".tmp-* >/dev/null 2>&1; then die "$name: a temporary file was left beside $target"; fi
    checks=$((checks + 1))
    echo "  $name: $(cat "$out/$name.err")"
}

d=$out/disk
# Open MPI (even a one-process run's runtime) cannot start under ulimit -f, so
# the simulator's cases need the tmpfs; its writer is the data layer's, tested
# under RLIMIT_FSIZE in tests/unit/test_atomic_write.cpp.
sim_frees="0 4"
[ "$mode" = tmpfs ] || { sim_frees=""; echo "  (no tmpfs: the simulator's cases are skipped)"; }
for free in $sim_frees; do
    expect_full "sim checkpoint, ${free} KB free" $free "$d/ckpt.h5" "$out/old/ckpt.h5" -- \
        "$sim" run "${small[@]}" --steps 10 --checkpoint "$d/ckpt.h5"
    expect_full "sim run record, ${free} KB free" $free "$d/run.h5" "$out/old/run.h5" -- \
        "$sim" run "${small[@]}" --steps 30 --run-record "$d/run.h5"
    expect_full "sim snapshot, ${free} KB free" $free "$d/snaps/snapshot_000000000.h5" \
        "$out/old/snapshot.h5" -- "$sim" run "${small[@]}" --steps 10 --snapshot-every 10 --out "$d/snaps"
done
if [ -n "$mpirun" ] && [ "$mode" = tmpfs ]; then # mpirun itself cannot live under ulimit -f
    expect_full "sim checkpoint from 2 ranks, 4 KB free" 4 "$d/ckpt.h5" "$out/old/ckpt.h5" -- \
        "$mpirun" --quiet -n 2 "$sim" run "${small[@]}" --steps 10 --checkpoint "$d/ckpt.h5"
fi
expect_full "eval tables, 0 KB free" 0 "$d/eval/scenarios.csv" "$out/old/eval/scenarios.csv" -- \
    "$eval_tool" scenarios --ranks 4 --count 2 --events 10 --policies static,reactive -q --out "$d/eval"
if [ "$train" != - ]; then
    "$train" -q --steps 2 --batch 2 --events 6 --max-ranks 4 --validate-every 1 \
        --validation-count 1 --out "$out/old/gru.h5" >/dev/null
    for free in 0 4; do
        expect_full "train controller, ${free} KB free" $free "$d/gru.h5" "$out/old/gru.h5" -- \
            "$train" -q --steps 2 --batch 2 --events 6 --max-ranks 4 --validate-every 1 \
            --validation-count 1 --out "$d/gru.h5"
    done
fi
if [ "$mode" != tmpfs ]; then
    # Not a pass: the simulator's writers were not tried (ctest shows it skipped).
    echo "skipped in part: no tmpfs (mount refused), the simulator's cases did not run;" \
        "$checks other writers answered with one line, old files intact"
    exit 77
fi
echo "full disk ($mode): $checks writers answered with one line, old files intact, no temporary files"
