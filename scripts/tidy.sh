#!/usr/bin/env bash
# clang-tidy with the checked-in .clang-tidy over cellshift's own sources.
#
#   scripts/tidy.sh [BUILD_DIR]      (default build/, which must be configured)
#
# Uses BUILD_DIR/compile_commands.json; files under tests/external and the
# build folders are skipped. Exit status 1 when clang-tidy reports anything.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build=${1:-$repo/build}
case ${1:-} in -h|--help) sed -n '2,7p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
[ -f "$build/compile_commands.json" ] || {
    echo "tidy.sh: error: $build/compile_commands.json: no such file (configure first)" >&2; exit 1; }
command -v clang-tidy >/dev/null || {
    echo "tidy.sh: error: clang-tidy not found (scripts/setup.sh --clang-tools installs it)" >&2; exit 1; }
files=$(python3 - "$build/compile_commands.json" "$repo" <<'PY'
import json, sys
entries = json.load(open(sys.argv[1]))
repo = sys.argv[2]
seen = sorted({e["file"] for e in entries})
for f in seen:
    rel = f[len(repo) + 1:] if f.startswith(repo + "/") else None
    if rel and not rel.startswith(("build", "tests/external")) and f.endswith(".cpp"):
        print(f)
PY
)
count=$(echo "$files" | wc -l)
echo "[tidy] clang-tidy on $count files ($(nproc) jobs)"
log=$(mktemp)
trap 'rm -f "$log"' EXIT
# -quiet: only findings; a file with findings makes clang-tidy exit non-zero.
status=0
echo "$files" | xargs -P "$(nproc)" -n 1 clang-tidy -quiet -p "$build" >"$log" 2>&1 || status=$?
grep -E '(warning|error):' "$log" | sort -u || true
if [ "$status" != 0 ]; then
    echo "[tidy] findings above (full output: rerun with clang-tidy -p $build FILE)" >&2
    exit 1
fi
echo "[tidy] clean"
