#!/usr/bin/env bash
# Set up, build and run the full test suite (the README's test command; CI runs it).
#
#   scripts/test.sh [--no-sanitize] [--no-fuzz] [--no-tidy] [--fuzz-seconds N]
#
# 1. scripts/setup.sh --werror --clang-tools (packages, build into build/)
# 2. ctest: every label but bench (unit, mpi, fault, gpu; gpu tests say
#    "skipped: no CUDA device" and count as skipped on a machine without a GPU)
# 3. unless --no-sanitize: the unit and MPI tests again under AddressSanitizer +
#    UndefinedBehaviorSanitizer (build-asan/, without LibTorch, which is not
#    instrumented), and the OpenMP backends under ThreadSanitizer (build-tsan/,
#    clang + libomp)
# 4. unless --no-fuzz: every libFuzzer target for N seconds (default 30) and
#    every checked-in finding replayed (build-fuzz/, clang)
# 5. unless --no-tidy: clang-tidy over the project's sources (scripts/tidy.sh)
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
sanitize=1
fuzz=1
tidy=1
fuzz_seconds=30
while [ $# -gt 0 ]; do
    case $1 in
        --no-sanitize) sanitize=0; shift ;;
        --no-fuzz) fuzz=0; shift ;;
        --no-tidy) tidy=0; shift ;;
        --fuzz-seconds) fuzz_seconds=$2; shift 2 ;;
        -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "test.sh: error: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done
jobs=$(nproc)
say() { printf '\033[1m[test]\033[0m %s\n' "$*"; }
# Per-pass outcome, printed at the end.
declare -a summary=()
status=0
pass() { # pass NAME COMMAND...: runs it, records its outcome
    local name=$1; shift
    local t=$(date +%s) rc=0
    "$@" || rc=$?
    summary+=("$(printf '%-44s %s (%d s)' "$name" "$([ $rc = 0 ] && echo ok || echo "FAILED ($rc)")" $(( $(date +%s) - t )))")
    [ $rc = 0 ] || status=1
}

t0=$(date +%s)
bash scripts/setup.sh --werror --clang-tools
say "running the test suite (labels unit, mpi, fault, gpu)"
run_main() {
    local rc=0
    ctest --test-dir build -LE bench --output-on-failure -j "$jobs" || rc=$?
    # Make skips visible: print the reason each skipped test gave.
    grep -h '^skipped:' build/Testing/Temporary/LastTest.log | sort | uniq -c | sed 's/^/[test] /' || true
    grep -hE '^(kill loop|full disk|mpi rank failures)' build/Testing/Temporary/LastTest.log | sed 's/^/[test] /' || true
    return $rc
}
pass "ctest (unit, mpi, fault, gpu)" run_main

if [ "$sanitize" = 1 ]; then
    say "building and running the unit and MPI tests under ASan + UBSan (build-asan/)"
    run_asan() {
        bash scripts/setup.sh --skip-install --werror --sanitize --no-torch --build-dir build-asan &&
        ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
            ctest --test-dir build-asan -L 'unit|mpi' --output-on-failure -j "$jobs"
    }
    pass "ASan + UBSan (unit, mpi)" run_asan
    say "building and running the OpenMP backends under ThreadSanitizer (build-tsan/, clang)"
    run_tsan() {
        bash scripts/setup.sh --skip-install --werror --clang --no-torch --no-cuda \
            --build-dir build-tsan --target cellshift_tsan_tests -- -DCELLSHIFT_TSAN=ON &&
        ctest --test-dir build-tsan -L tsan --output-on-failure
    }
    pass "TSan (OpenMP backends, 4 threads)" run_tsan
fi
if [ "$fuzz" = 1 ]; then
    say "fuzzing every reader and config parser for $fuzz_seconds s each (build-fuzz/, clang)"
    run_fuzz() {
        bash scripts/setup.sh --skip-install --werror --clang --sanitize --no-torch --no-cuda \
            --build-dir build-fuzz --target cellshift-fuzz-all -- \
            -DCELLSHIFT_FUZZ=ON -DCELLSHIFT_FUZZ_SECONDS="$fuzz_seconds" || return 1
        local rc=0
        ctest --test-dir build-fuzz -L fuzz --output-on-failure || rc=$?
        # Executions per target (libFuzzer's final statistics).
        awk '/^[0-9]+\/[0-9]+ Test: fuzz: / {t=$3" "$4} /stat::number_of_executed_units/ {print "[test]   " t " " $2 " executions"}' \
            build-fuzz/Testing/Temporary/LastTest.log || true
        return $rc
    }
    pass "libFuzzer (${fuzz_seconds} s per target)" run_fuzz
fi
if [ "$tidy" = 1 ]; then
    say "clang-tidy (scripts/tidy.sh)"
    pass "clang-tidy" bash scripts/tidy.sh build
fi
say "summary:"
for line in "${summary[@]}"; do say "  $line"; done
say "finished in $(( $(date +%s) - t0 )) s with status $status"
exit "$status"
