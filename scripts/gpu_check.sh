#!/usr/bin/env bash
# The GPU checks of the SEM backends, in one prepared script for a machine with a
# CUDA device (a few minutes): build without LibTorch, run the gpu-labelled tests
# (CPU vs CUDA parity), the backend benchmark up to 6.3e6 elements, a CUDA tissue
# run and a 2-rank end-to-end run with cuda-binned against cpu-binned.
# Usage: bash scripts/gpu_check.sh [OUT_DIR]   (results also printed)
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-${OUT:-out/gpu}}
mkdir -p "$out"
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/gpu.txt" || true
bash scripts/setup.sh --skip-install --no-torch --build-dir build-gpu > "$out/build.log" 2>&1 || {
    tail -30 "$out/build.log"; exit 1; }
ctest --test-dir build-gpu -L gpu --output-on-failure 2>&1 | tee "$out/gpu-tests.txt"
build-gpu/eval/cellshift-bench-sem --section scaling --max-n 6.3e6 --repeats 3 \
    --allpairs-max 33000 2>&1 | tee "$out/bench-sem.json"
build-gpu/sim/cellshift-sim run -q --backend cuda --steps 2000 --report-every 500 2>&1 |
    tee "$out/sim-cuda.txt"
# The end-to-end tissue on 2 ranks sharing the GPU, cuda-binned against cpu-binned
# (model clock: the same balancing decisions if the forces agree).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=4
for backend in cuda-binned cpu-binned; do
    mpirun --quiet -n 2 build-gpu/sim/cellshift-sim --config data/configs/e2e_tissue.toml run -q \
        --backend "$backend" --steps 1000 --report-every 1000 --policy reactive --w-min 3 \
        --run-record "$out/e2e-$backend.h5" 2>&1 | tee "$out/e2e-$backend.txt"
done
