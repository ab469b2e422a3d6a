#!/usr/bin/env bash
# Packs a CUDA build of the simulator for a GPU machine that has a CUDA driver but none
# of the build's Debian packages (HDF5, Open MPI, ...), so that scripts/gpu_check.sh can
# run there with `--bundle DIR`:
#   DIR/bin      stripped cellshift-sim, cellshift-bench-sem, the gpu-labelled test
#                programs and h5diff;
#   DIR/lib      every shared library they load, except glibc's own and Open MPI's; the
#                CUDA runtime is linked statically, the driver is the machine's;
#   DIR/lib-mpi  Open MPI's libraries and what its plugins load (PMIx, hwloc, UCX, ...):
#                used only where the GPU machine has no Open MPI of its own, since a
#                machine's own launcher breaks on another build's PMIx;
#   DIR/openmpi.tar  Open MPI's runtime (launcher, plugins, PMIx, help files) at the
#                absolute paths Debian configured it for: Open MPI 4.1 finds its plugins
#                and its PMIx by those paths, so gpu_check.sh unpacks it at / on the GPU
#                machine, only where nothing is there already.
# Also writes DIR.tar.gz (about 21 MB), the one file to copy to the GPU machine.
# Usage: bash scripts/gpu_bundle.sh [BUILD_DIR] [DIR]   (defaults: build, out/gpu-bundle)
set -euo pipefail
cd "$(dirname "$0")/.."
build=${1:-build}
dir=${2:-out/gpu-bundle}
die() { echo "gpu_bundle: $*" >&2; exit 1; }

programs=("$build/sim/cellshift-sim" "$build/sim/cellshift-bench-sem"
          "$build/tests/cellshift_portable_parity" "$build/tests/cellshift_cuda_smoke")
for p in "${programs[@]}"; do
    [ -x "$p" ] || die "$p is missing: build with CUDA first (bash scripts/setup.sh)"
done
command -v h5diff > /dev/null || die "h5diff not found (Debian package hdf5-tools)"
[ -x /usr/bin/orterun ] || die "Open MPI's orterun not found (Debian package openmpi-bin)"

rm -rf "$dir"
mkdir -p "$dir/bin" "$dir/lib"
for p in "${programs[@]}"; do strip -o "$dir/bin/$(basename "$p")" "$p"; done
cp "$(command -v h5diff)" "$dir/bin/"

ompi_trees=(/usr/lib/x86_64-linux-gnu/openmpi /usr/lib/x86_64-linux-gnu/pmix2 /usr/share/openmpi
            /etc/openmpi /usr/bin/orterun /usr/bin/orted)
# Every ELF file whose dependencies must travel: our programs and Open MPI's pieces.
mapfile -t elves < <({ ls "$dir"/bin/*; find "${ompi_trees[@]}" -type f \( -name '*.so*' -o -perm -u+x \); } |
                     while read -r f; do file -b "$f" | grep -q '^ELF' && echo "$f"; done)
# glibc and the loader are the GPU machine's own (newer glibc runs older binaries).
ldd "${elves[@]}" 2> /dev/null | awk '$2 == "=>" && $3 ~ /^\// {print $3}' | sort -u |
    grep -v -E '/(libc|libm|libdl|librt|libpthread|ld-linux-x86-64|libresolv)\.so' |
    while read -r lib; do cp -L "$lib" "$dir/lib/"; done
# Open MPI's own libraries and its transports' (libmpi_cxx stays: it only calls the MPI API).
mkdir -p "$dir/lib-mpi"
for lib in "$dir"/lib/*; do
    case $(basename "$lib") in
    libmpi.* | libopen-* | liboshmem.* | libmca_common_* | libpmix.* | libhwloc.* | libevent* | \
        libuc[mpst].* | libfabric.* | libpsm* | libinfinipath.* | libefa.* | libibverbs.* | \
        librdmacm.* | libnl-* | libnuma.* | libmunge.*) mv "$lib" "$dir/lib-mpi/" ;;
    esac
done
# libmpi & co. are symlinks into Open MPI's tree; the tree itself travels in the tar.
tar -cf "$dir/openmpi.tar" -P "${ompi_trees[@]}" 2> /dev/null
tar -czf "$dir.tar.gz" -C "$dir" .
echo "gpu_bundle: $dir.tar.gz ($(du -h "$dir.tar.gz" | cut -f1); $(ls "$dir/lib" | wc -l) + $(ls "$dir/lib-mpi" | wc -l) libraries)"
