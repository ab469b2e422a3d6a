#!/usr/bin/env bash
# The one prepared GPU run, for a machine with a CUDA device (a few minutes, one
# command). It fails when the CUDA device system did not run or when CUDA and CPU
# disagree, and prints what a GPU review needs:
#   1. build without LibTorch (build-gpu/);
#   2. the gpu-labelled tests: the portable backends on thrust-omp and on cuda against
#      the CPU backends (forces, pair counts, ghosts, determinism, trajectories);
#      fails unless the cuda device system ran;
#   3. MPI + CUDA: the end-to-end tissue on 2 ranks with cuda-binned and with
#      cpu-binned, final positions compared (h5diff, relative 1e-6: exp and sqrt may
#      round differently on the device, and nvcc contracts to FMA);
#   4. element-steps/s of both CUDA backends (and the CPU ones) from 1e3 to 6.2e6
#      elements, the binned/all-pairs ratio and the ratios to the paper's L40S figures.
# Usage: bash scripts/gpu_check.sh [OUT_DIR]   (results also printed)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-${OUT:-out/gpu}}
mkdir -p "$out"
fail() { echo "gpu_check: FAILED: $*" | tee -a "$out/summary.txt"; exit 1; }

nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/gpu.txt" ||
    fail "nvidia-smi found no GPU"
bash scripts/setup.sh --skip-install --no-torch --build-dir build-gpu > "$out/build.log" 2>&1 || {
    tail -30 "$out/build.log"; fail "build (log: $out/build.log)"; }

ctest --test-dir build-gpu -L gpu --output-on-failure 2>&1 | tee "$out/gpu-tests.txt" ||
    fail "gpu tests"
# The parity test's last line names every device system that ran.
grep -q "cuda: portable backends agree with the CPU backends" "$out/gpu-tests.txt" ||
    fail "the cuda device system did not run (see $out/gpu-tests.txt)"

export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=4
for backend in cuda-binned cpu-binned; do
    rm -rf "$out/e2e-$backend"
    mpirun --quiet -n 2 build-gpu/sim/cellshift-sim --config data/configs/e2e_tissue.toml run -q \
        --backend "$backend" --steps 1000 --report-every 1000 --policy reactive --w-min 3 \
        --out "$out/e2e-$backend" --snapshot-every 1000 \
        --run-record "$out/e2e-$backend.h5" 2>&1 | tee "$out/e2e-$backend.txt" ||
        fail "2-rank run with $backend"
done
last=$(cd "$out/e2e-cpu-binned" && ls snapshot_*.h5 | sort | tail -1)
[ -n "$last" ] && [ -f "$out/e2e-cuda-binned/$last" ] || fail "no final snapshot to compare"
h5diff -p 1e-6 "$out/e2e-cuda-binned/$last" "$out/e2e-cpu-binned/$last" > "$out/e2e-diff.txt" 2>&1 ||
    { head -20 "$out/e2e-diff.txt"; fail "2-rank cuda-binned and cpu-binned end states differ"; }
echo "ok: 2-rank cuda-binned == cpu-binned after 1000 steps ($last, relative 1e-6)" |
    tee -a "$out/summary.txt"

build-gpu/sim/cellshift-bench-sem --section scaling --max-n 6.3e6 --repeats 3 \
    --allpairs-max 33000 2>&1 | tee "$out/bench-sem.json"
grep '"ratio"' "$out/bench-sem.json" | tee -a "$out/summary.txt"
echo "gpu_check: passed" | tee -a "$out/summary.txt"
