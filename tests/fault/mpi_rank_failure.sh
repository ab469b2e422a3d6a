#!/usr/bin/env bash
# Fault injection (issue 8): one MPI rank given a bad input, failing mid-run or
# killed makes every rank exit within seconds with a message; never a hang.
#
#   mpi_rank_failure.sh MPIRUN SIM OUT_DIR
#
# Each case runs under `timeout 60`; the run itself would take minutes.
set -euo pipefail
mpirun=$1; sim=$2; out=$3
rm -rf "$out"; mkdir -p "$out"
die() { echo "mpi_rank_failure: $*" >&2; exit 1; }
long=(-q --backend cpu-binned --Lx 48 --Ly 8 --Lz 10 --cycle-time 4 --patch-fraction 0.6
      --w-min 2 --rebalance-every 10 --policy holt --report-every 10 --steps 1000000)

# expect_exit NAME PATTERN -- COMMAND: COMMAND ends non-zero (not by the
# timeout) within 60 s, and its stderr matches PATTERN.
expect_exit() {
    local name=$1 pattern=$2; shift 3
    local t0 rc=0
    t0=$(date +%s.%N)
    timeout 60 "$@" >"$out/$name.out" 2>"$out/$name.err" || rc=$?
    local took
    took=$(echo "$(date +%s.%N) - $t0" | bc)
    [ "$rc" != 0 ] || die "$name: exit 0"
    [ "$rc" != 124 ] || die "$name: still running after 60 s (a hang)"
    grep -Eq "$pattern" "$out/$name.err" || die "$name: stderr lacks '$pattern': $(head -5 "$out/$name.err")"
    printf '  %s: exit %s after %.1f s: %s\n' "$name" "$rc" "$took" "$(grep -Em1 "$pattern" "$out/$name.err")"
}

# 1. One rank alone has a bad command line (MPMD: rank 1 gets other arguments),
#    a parse error, then a bad input file found while setting up.
expect_exit "bad option on rank 1 of 3" "^cellshift-sim: error: The following argument was not expected: --bogus" -- \
    "$mpirun" --quiet -n 1 "$sim" run "${long[@]}" : -n 1 "$sim" run "${long[@]}" --bogus \
    : -n 1 "$sim" run "${long[@]}"
expect_exit "missing restart file on rank 2 of 3" "^cellshift-sim: error: .*none.h5" -- \
    "$mpirun" --quiet -n 2 "$sim" run "${long[@]}" : -n 1 "$sim" run "${long[@]}" \
    --restart "$out/none.h5"
# 2. One rank fails mid-run (an exception on rank 2 only, at step 40).
expect_exit "rank 2 of 4 fails at step 40" "rank 2: injected failure at step 40" -- \
    "$mpirun" --quiet -x CELLSHIFT_TEST_FAIL=2:40 -n 4 "$sim" run "${long[@]}"
# 3. One rank is killed (SIGKILL) mid-run.
"$mpirun" -n 3 "$sim" run "${long[@]}" >"$out/killed.out" 2>"$out/killed.err" &
launcher=$!
victim=""
for _ in $(seq 1 100); do # wait until the ranks run
    victim=$(pgrep -f -n "$(basename "$sim") run" -P "$launcher" || true)
    [ -n "$victim" ] && [ "$(pgrep -c -P "$launcher" || true)" -ge 3 ] && break
    sleep 0.1
done
[ -n "$victim" ] || die "the 3-rank run did not start"
sleep 2
t0=$(date +%s.%N)
kill -KILL "$victim"
rc=0
( sleep 60; touch "$out/hung"; kill -KILL "$launcher" 2>/dev/null ) & watchdog=$!
wait "$launcher" || rc=$?
pkill -P "$watchdog" sleep 2>/dev/null || true # its sleep would hold our output open
kill "$watchdog" 2>/dev/null || true
took=$(echo "$(date +%s.%N) - $t0" | bc)
[ "$rc" != 0 ] || die "killed rank: mpirun exited 0"
[ ! -e "$out/hung" ] || die "killed rank: the other ranks were still running after 60 s (a hang)"
pgrep -f "$(basename "$sim") run" -P "$launcher" >/dev/null 2>&1 && die "killed rank: ranks survive mpirun"
grep -Eq "signal 9|Killed" "$out/killed.err" || die "killed rank: no message: $(head -5 "$out/killed.err")"
printf '  %s: exit %s after %.1f s: %s\n' "one rank of 3 killed" "$rc" "$took" "$(grep -Em1 'signal 9|Killed' "$out/killed.err")"
echo "mpi rank failures: 4 cases, every rank exited with a message, no hang"
