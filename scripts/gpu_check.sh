#!/usr/bin/env bash
# The GPU checks of the SEM backends, in one prepared script for a machine with a
# CUDA device (a few minutes): build without LibTorch, run the gpu-labelled tests
# (CPU vs CUDA parity), then the backend benchmark up to 6.3e6 elements.
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
