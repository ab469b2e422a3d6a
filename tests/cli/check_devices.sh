#!/usr/bin/env bash
# check_devices.sh HAVE_THRUST_OMP -- SIM: `cellshift-sim devices` reports MPI, the
# OpenMP threads and CUDA, and its list of runnable backends agrees with what was
# found: the CPU backends always, cuda-* exactly when a device is visible, thrust-omp-*
# exactly when this build compiled them (HAVE_THRUST_OMP = ON/OFF from CMake).
set -u
have_omp=$1; shift 2
out=$("$@") || { echo "FAIL: exit code $?"; exit 1; }
fail() { echo "FAIL: $*"; echo "--- stdout:"; echo "$out"; exit 1; }
grep -Eq '^MPI: [1-9][0-9]* rank\(s\) \(.+\)$' <<<"$out" || fail "no MPI line"
grep -Eq '^CPU: [1-9][0-9]* OpenMP thread\(s\) per rank$' <<<"$out" || fail "no CPU line"
cuda=$(grep -E '^CUDA: ' <<<"$out") || fail "no CUDA line"
backends=" $(sed -n 's/^backends runnable here: //p' <<<"$out") "
for b in cpu-allpairs cpu-binned cpu-verlet; do
    [[ $backends == *" $b "* ]] || fail "$b missing"
done
if [[ $cuda =~ ^CUDA:\ ([1-9][0-9]*)\ CUDA\ device ]]; then
    devices=$(grep -Ec '^  device [0-9]+: .+, compute [0-9]+\.[0-9]+, [0-9]+ MiB$' <<<"$out")
    [ "$devices" -eq "${BASH_REMATCH[1]}" ] || fail "$devices device lines for ${BASH_REMATCH[1]} devices"
    [[ $backends == *" cuda-allpairs cuda-binned "* ]] || fail "a device but no cuda backends"
else
    [[ $cuda =~ ^CUDA:\ (no\ CUDA\ device|built\ without\ CUDA) ]] || fail "unknown CUDA line"
    [[ $backends != *" cuda-"* ]] || fail "cuda backends listed without a device"
fi
if [ "$have_omp" = ON ]; then
    [[ $backends == *" thrust-omp-allpairs thrust-omp-binned "* ]] || fail "thrust-omp missing"
else
    [[ $backends != *" thrust-omp-"* ]] || fail "thrust-omp listed but not compiled"
fi
echo "ok: $cuda; backends:$backends"
