#!/usr/bin/env bash
# expect.sh CODE REGEX [--absent FILE]... -- COMMAND [ARGS...]
# Runs COMMAND and checks the tools' error contract:
#   CODE == 0: exit 0 and stdout matches REGEX (extended regex);
#   CODE != 0: exit CODE, stderr is exactly one line and matches REGEX, and no
#              stack trace or HDF5 error stack is printed.
# Every FILE after --absent must not exist afterwards (no partial output).
set -u
code=$1; regex=$2; shift 2
absent=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do
    case $1 in
        --absent) absent+=("$2"); shift 2 ;;
        *) echo "expect.sh: unknown option $1"; exit 2 ;;
    esac
done
shift # the --
out=$(mktemp); err=$(mktemp)
trap 'rm -f "$out" "$err"' EXIT
"$@" >"$out" 2>"$err"
got=$?
fail() { echo "FAIL: $*"; echo "--- command: $*"; echo "--- stdout:"; cat "$out"; echo "--- stderr:"; cat "$err"; exit 1; }
[ "$got" -eq "$code" ] || fail "exit code $got, expected $code"
if [ "$code" -eq 0 ]; then
    grep -Eq -- "$regex" "$out" || fail "stdout does not match /$regex/"
else
    lines=$(wc -l <"$err")
    [ "$lines" -eq 1 ] || fail "stderr has $lines lines, expected exactly one"
    grep -Eq -- "$regex" "$err" || fail "stderr does not match /$regex/"
    if grep -Eq 'HDF5-DIAG|terminate called|Segmentation|Aborted' "$err"; then fail "crash output"; fi
fi
for f in "${absent[@]+"${absent[@]}"}"; do
    [ ! -e "$f" ] || fail "$f exists but must not"
    ls "$f".tmp-* >/dev/null 2>&1 && fail "temporary file $f.tmp-* left behind"
done
echo "ok: exit $got, $(head -c 300 "$err" "$out" | tr '\n' ' ')"
exit 0
