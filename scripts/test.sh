#!/usr/bin/env bash
# Set up, build and run the full test suite (the README's test command; CI runs it).
#
#   scripts/test.sh [--no-sanitize]
#
# 1. scripts/setup.sh --werror (packages, build into build/; warnings are errors)
# 2. ctest: every label but bench (unit, mpi, gpu; gpu tests say
#    "skipped: no CUDA device" and count as skipped on a machine without a GPU)
# 3. the unit tests again under AddressSanitizer + UndefinedBehaviorSanitizer, in
#    build-asan/ (without LibTorch, which is not instrumented), unless --no-sanitize
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
sanitize=1
case ${1:-} in
    --no-sanitize) sanitize=0 ;;
    "") ;;
    -h|--help) sed -n '2,11p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "test.sh: error: unknown option $1 (see --help)" >&2; exit 2 ;;
esac
jobs=$(nproc)
say() { printf '\033[1m[test]\033[0m %s\n' "$*"; }

t0=$(date +%s)
bash scripts/setup.sh --werror
say "running the test suite (labels unit, mpi, gpu)"
status=0
ctest --test-dir build -LE bench --output-on-failure -j "$jobs" || status=$?
# Make skips visible: print the reason each skipped test gave.
grep -h '^skipped:' build/Testing/Temporary/LastTest.log | sort | uniq -c | sed 's/^/[test] /' || true

if [ "$sanitize" = 1 ] && [ "$status" = 0 ]; then
    say "building and running the unit tests under ASan + UBSan (build-asan/)"
    bash scripts/setup.sh --skip-install --werror --sanitize --no-torch --build-dir build-asan
    ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
        ctest --test-dir build-asan -L unit --output-on-failure -j "$jobs" || status=$?
fi
say "finished in $(( $(date +%s) - t0 )) s with status $status"
exit "$status"
