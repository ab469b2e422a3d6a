#!/usr/bin/env bash
# The one prepared GPU run, for a machine with a CUDA device (a few minutes, one
# command). Every stage runs even when an earlier one failed (a GPU lease is short);
# the script fails at the end if any stage failed, and prints what a GPU review needs:
#   1. the programs: built here without LibTorch (build-gpu/), or taken from a bundle
#      made by scripts/gpu_bundle.sh on a machine with the build's packages;
#   2. the gpu-labelled tests: the portable backends on thrust-omp and on cuda against
#      the CPU backends (forces, pair counts, ghosts, determinism, trajectories);
#      fails unless the cuda device system ran;
#   3. MPI + CUDA: the end-to-end tissue on 2 ranks with cuda-binned and with
#      cpu-binned, final positions compared (h5diff, relative 1e-6: exp and sqrt may
#      round differently on the device, and nvcc contracts to FMA);
#   4. element-steps/s of both CUDA backends (and the CPU ones) from 1e3 to 6.2e6
#      elements, the binned/all-pairs ratio and the ratios to the paper's L40S figures.
# Usage: bash scripts/gpu_check.sh [--bundle FILE.tar.gz|DIR] [--work DIR] [OUT_DIR]
#   OUT_DIR (default $OUT or out/gpu) receives the logs and summary.txt only; snapshots
#   and run records go to --work (default OUT_DIR/work).
set -uo pipefail
cd "$(dirname "$0")/.."
bundle="" work=""
while [ $# -gt 0 ]; do
    case "$1" in
    --bundle) bundle=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    -h | --help) sed -n '2,18p' "$0"; exit 0 ;;
    -*) echo "gpu_check: unknown option $1" >&2; exit 2 ;;
    *) break ;;
    esac
done
out=${1:-${OUT:-out/gpu}}
work=${work:-$out/work}
mkdir -p "$out" "$work"
failed=0
fail() { echo "gpu_check: FAILED: $*" | tee -a "$out/summary.txt"; failed=1; }
ok() { echo "ok: $*" | tee -a "$out/summary.txt"; }

nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader | tee "$out/gpu.txt" ||
    { fail "nvidia-smi found no GPU"; exit 1; }

# 1. The programs.
if [ -n "$bundle" ]; then
    if [ -f "$bundle" ]; then
        mkdir -p "$work/bundle" && tar -xzf "$bundle" -C "$work/bundle" || { fail "unpack $bundle"; exit 1; }
        bundle=$work/bundle
    fi
    bin=$bundle/bin tests=$bundle/bin
    export LD_LIBRARY_PATH=$bundle/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
    # A machine's own Open MPI runs our programs (same ABI, libmpi.so.40) and must not
    # see the bundle's PMIx; elsewhere the bundle's runtime goes where Open MPI 4.1
    # looks for its plugins and PMIx: at the absolute paths it was built for.
    if command -v orterun > /dev/null; then
        mpirun=$(command -v orterun)
    else
        [ -e /usr/lib/x86_64-linux-gnu/openmpi ] || tar -xf "$bundle/openmpi.tar" -P ||
            fail "unpack Open MPI's runtime"
        export LD_LIBRARY_PATH=$bundle/lib-mpi:$LD_LIBRARY_PATH
        mpirun=/usr/bin/orterun
    fi
    export PATH=$bundle/bin:$PATH OMPI_MCA_mca_base_component_show_load_errors=0
else
    bash scripts/setup.sh --skip-install --no-torch --build-dir build-gpu > "$out/build.log" 2>&1 ||
        { tail -30 "$out/build.log"; fail "build (log: $out/build.log)"; exit 1; }
    bin=build-gpu/sim tests=build-gpu/tests mpirun=mpirun
fi

# 2. The gpu-labelled tests.
{ "$tests/cellshift_portable_parity" && "$tests/cellshift_cuda_smoke"; } 2>&1 |
    tee "$out/gpu-tests.txt" || fail "gpu tests"
# The parity test's last line names every device system that ran.
grep -q "cuda: portable backends agree with the CPU backends" "$out/gpu-tests.txt" &&
    ok "cuda portable backends agree with the CPU backends" ||
    fail "the cuda device system did not run (see $out/gpu-tests.txt)"

# 3. MPI + CUDA on 2 ranks against the CPU backend.
echo "MPI: $mpirun ($("$mpirun" --version 2>&1 | head -1))" | tee -a "$out/summary.txt"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=4
for backend in cuda-binned cpu-binned; do
    rm -rf "$work/e2e-$backend"
    timeout 300 "$mpirun" --quiet -n 2 "$bin/cellshift-sim" --config data/configs/e2e_tissue.toml \
        run -q --backend "$backend" --steps 1000 --report-every 1000 --policy reactive --w-min 3 \
        --out "$work/e2e-$backend" --snapshot-every 1000 --run-record "$work/e2e-$backend.h5" \
        2>&1 | tee "$out/e2e-$backend.txt" || fail "2-rank run with $backend"
done
last=$(cd "$work/e2e-cpu-binned" 2> /dev/null && ls snapshot_*.h5 | sort | tail -1)
if [ -n "$last" ] && [ -f "$work/e2e-cuda-binned/$last" ]; then
    if h5diff -p 1e-6 "$work/e2e-cuda-binned/$last" "$work/e2e-cpu-binned/$last" > "$out/e2e-diff.txt" 2>&1; then
        ok "2-rank cuda-binned == cpu-binned after 1000 steps ($last, relative 1e-6)"
    else
        head -20 "$out/e2e-diff.txt"
        fail "2-rank cuda-binned and cpu-binned end states differ"
    fi
else
    fail "no final snapshot to compare"
fi

# 4. Speed.
OMP_NUM_THREADS=$(getconf _NPROCESSORS_ONLN) timeout 600 "$bin/cellshift-bench-sem" --section scaling --max-n 6.3e6 \
    --repeats 3 --allpairs-max 33000 2>&1 | tee "$out/bench-sem.json" || fail "cellshift-bench-sem"
grep '"ratio"' "$out/bench-sem.json" | tee -a "$out/summary.txt"
[ "$failed" = 0 ] && echo "gpu_check: passed" | tee -a "$out/summary.txt"
exit "$failed"
