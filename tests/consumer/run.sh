#!/usr/bin/env bash
# Installs the build into a scratch prefix, builds tests/consumer against it
# with find_package(cellshift), and runs both consumers.
set -euo pipefail
build=$1; source_dir=$2
prefix=$(mktemp -d); trap 'rm -rf "$prefix"' EXIT
cmake --install "$build" --prefix "$prefix/install" >/dev/null
cmake -S "$source_dir" -B "$prefix/build" -DCMAKE_PREFIX_PATH="$prefix/install" >/dev/null
cmake --build "$prefix/build" -j 2 >/dev/null
"$prefix/build/consumer_c"
"$prefix/build/consumer_cpp"
# The report script travels with the tools: the installed cellshift-eval runs the
# installed copy, not the source tree's.
script="$prefix/install/share/cellshift/report.py"
[[ -x $script ]] || { echo "no installed $script"; exit 1; }
"$prefix/install/bin/cellshift-eval" report --help | tr -s ' \n' ' ' | grep -qF "Script: $script" ||
    { echo "the installed cellshift-eval does not run $script"; exit 1; }
echo "report script: installed and used ($script)"
