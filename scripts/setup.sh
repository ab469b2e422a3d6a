#!/usr/bin/env bash
# Set up a Debian 12 machine for cellshift and build it.
#
#   scripts/setup.sh [--build-dir DIR] [--build-type TYPE] [--no-torch] [--no-cuda]
#                    [--sanitize] [--werror] [--skip-install] [--clang-tools]
#                    [--clang] [--target T]... [-- EXTRA CMAKE ARGS]
#
# 1. Installs the Debian packages that are missing (only those; nothing when all
#    are present). Needs root or sudo only when something is missing. It never
#    downloads anything but Debian packages. --clang-tools adds clang, libFuzzer
#    (libclang-rt-14-dev), LLVM's OpenMP (libomp-14-dev) and clang-tidy, which
#    the test suite's fuzz, tsan and clang-tidy passes use.
# 2. Configures with CMake into build/ (or DIR) and builds with all cores
#    (only the named targets with --target; with clang when --clang).
# Safe to run again: both steps are idempotent and incremental.
set -euo pipefail

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
build_dir="$repo/build"
build_type=RelWithDebInfo
with_torch=ON
with_cuda=ON
sanitize=OFF
werror=""   # empty: leave the build directory's setting as it is
install=1
clang_tools=0
use_clang=0
targets=()
extra=()
while [ $# -gt 0 ]; do
    case $1 in
        --build-dir) build_dir=$2; shift 2 ;;
        --build-type) build_type=$2; shift 2 ;;
        --no-torch) with_torch=OFF; shift ;;
        --no-cuda) with_cuda=OFF; shift ;;
        --sanitize) sanitize=ON; shift ;;
        --werror) werror=-DCELLSHIFT_WERROR=ON; shift ;;
        --skip-install) install=0; shift ;;
        --clang-tools) clang_tools=1; shift ;;
        --clang) use_clang=1; shift ;;
        --target) targets+=(--target "$2"); shift 2 ;;
        --) shift; extra=("$@"); break ;;
        -h|--help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "setup.sh: error: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done

say() { printf '\033[1m[setup]\033[0m %s\n' "$*"; }

# --- 1. Debian packages -----------------------------------------------------------
packages=(
    cmake ninja-build g++ make pkg-config git    # toolchain
    libeigen3-dev                                # controller: small dense math
    libcli11-dev                                 # command lines and config files
    libhdf5-dev hdf5-tools                       # data files; h5dump for users and tests
    libopenmpi-dev openmpi-bin                   # simulator: MPI slab decomposition
    nlohmann-json3-dev                           # JSON output of the evaluator
    catch2                                       # tests (v2)
    python3-matplotlib python3-h5py python3-numpy # the report's figures (cellshift-eval report)
)
[ "$with_torch" = ON ] && packages+=(libtorch-dev) # surrogate and trainer (CPU LibTorch)
# fuzzing (libFuzzer), ThreadSanitizer with LLVM's OpenMP + Archer, static checks
[ "$clang_tools" = 1 ] && packages+=(clang libclang-rt-14-dev libomp-14-dev clang-tidy)

if [ "$install" = 1 ]; then
    missing=()
    for p in "${packages[@]}"; do
        if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
            missing+=("$p")
        fi
    done
    if [ ${#missing[@]} -gt 0 ]; then
        say "installing missing Debian packages: ${missing[*]}"
        sudo=()
        if [ "$(id -u)" -ne 0 ]; then
            command -v sudo >/dev/null || { echo "setup.sh: error: need root or sudo to install: ${missing[*]}" >&2; exit 1; }
            sudo=(sudo)
        fi
        export DEBIAN_FRONTEND=noninteractive
        "${sudo[@]}" apt-get update -qq
        "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
    else
        say "all Debian packages present"
    fi
    # Optional: the external references (tests labelled `external`): LAMMPS, the force
    # and speed reference (also the SEM benchmark and scripts/external_traces.sh), and
    # ParaView, whose own XDMF reader checks the snapshot series (about 440 MB, half a
    # minute here). Without them those checks say they are skipped.
    install_optional() { # PACKAGE... (the first names it in messages)
        if ! dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; then
            say "installing the optional external reference $1"
            sudo=()
            [ "$(id -u)" -ne 0 ] && command -v sudo >/dev/null && sudo=(sudo)
            if ! DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "$@" >/dev/null 2>&1; then
                if ! { "${sudo[@]}" apt-get update -qq && DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "$@"; } >/dev/null 2>&1; then
                    say "$1 could not be installed: the external checks that need it will be skipped"
                fi
            fi
        fi
    }
    install_optional lammps
    install_optional paraview python3-paraview xvfb # xvfb: pictures without a display
fi

# --- 2. Configure and build -----------------------------------------------------------
# nvcc lives in /usr/local/cuda/bin on this machine kind; CUDA stays optional.
if ! command -v nvcc >/dev/null && [ -x /usr/local/cuda/bin/nvcc ]; then
    export PATH="/usr/local/cuda/bin:$PATH"
fi
if [ "$use_clang" = 1 ]; then
    export CC=clang CXX=clang++
fi
generator=()
if [ ! -f "$build_dir/CMakeCache.txt" ] && command -v ninja >/dev/null; then
    generator=(-G Ninja)
fi
mkdir -p "$build_dir"
say "configuring $build_dir (torch=$with_torch cuda=$with_cuda sanitize=$sanitize)"
cmake -S "$repo" -B "$build_dir" "${generator[@]}" \
    -DCMAKE_BUILD_TYPE="$build_type" \
    -DCELLSHIFT_WITH_TORCH="$with_torch" \
    -DCELLSHIFT_WITH_CUDA="$with_cuda" \
    -DCELLSHIFT_SANITIZE="$sanitize" \
    ${werror:+"$werror"} \
    "${extra[@]}" >"$build_dir/configure.log" 2>&1 || {
    cat "$build_dir/configure.log" >&2; echo "setup.sh: error: CMake configure failed" >&2; exit 1; }
grep -E '^-- cellshift:' "$build_dir/configure.log" || true
start=$(date +%s)
say "building with $(nproc) jobs"
cmake --build "$build_dir" -j "$(nproc)" "${targets[@]}"
say "built in $(( $(date +%s) - start )) s: tools in $build_dir/{eval,sim,trainer}/"
