#!/usr/bin/env bash
# The README's main command: set up, build, and run the main job.
#
#   scripts/main.sh
#
# For now the main job shows what is built: each tool's version and help, the
# devices a simulation would use, and a round trip of the example workload trace
# through the data layer. Outputs go to out/.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$repo"
say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

bash scripts/setup.sh
tools=(build/eval/cellshift-eval build/sim/cellshift-sim)
[ -x build/trainer/cellshift-train ] && tools+=(build/trainer/cellshift-train)

say "versions"
for t in "${tools[@]}"; do "$t" --version; done

say "what a simulation run would use (cellshift-sim devices)"
build/sim/cellshift-sim devices
[ -x build/trainer/cellshift-train ] && build/trainer/cellshift-train --build-info

say "example trace: CSV -> HDF5 -> validate"
mkdir -p out
build/eval/cellshift-eval convert-trace data/examples/spreading_cluster.csv \
    out/spreading_cluster.h5 --source "data/examples/spreading_cluster.csv"
build/eval/cellshift-eval inspect out/spreading_cluster.h5

for t in "${tools[@]}"; do
    say "$(basename "$t") --help"
    "$t" --help
done
