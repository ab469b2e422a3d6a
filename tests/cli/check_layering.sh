#!/usr/bin/env bash
# check_layering.sh SOURCE_DIR: the dependency direction of docs/design.md section 2,
# read from the #include lines of every source file. Fails naming each file that
# includes what its folder may not:
#   LibTorch only in surrogate/ and trainer/ (and their tests);
#   MPI only in sim/; CUDA and Thrust only in sim/;
#   controller/ sees only data/ and common/ of cellshift; data/ only common/;
#   scenarios/ nothing above controller/; eval/ neither sim/, surrogate/ nor trainer/;
#   tool/ (the command-line tools' error contract) sees only data/ and common/, and no
#   library includes it.
set -u
cd "$1" || exit 2
bad=0
# forbid FOLDER REGEX WHY: no file under FOLDER may include a header matching REGEX.
forbid() {
    local hits
    hits=$(grep -rlE --include='*.cpp' --include='*.hpp' --include='*.cu' --include='*.cuh' \
        "^[[:space:]]*#[[:space:]]*include[[:space:]]*[<\"]($2)" "$1" 2>/dev/null)
    if [ -n "$hits" ]; then
        echo "FAIL: $3:"; sed 's/^/    /' <<<"$hits"
        bad=1
    fi
}
for folder in common data tool controller scenarios eval sim; do
    forbid "$folder" "torch/|ATen/|c10/" "LibTorch outside surrogate/ and trainer/ ($folder/)"
done
for folder in common data tool controller scenarios surrogate trainer eval; do
    forbid "$folder" "mpi\.h|cuda|thrust/|cub/" "MPI or CUDA outside sim/ ($folder/)"
done
forbid controller "cellshift/(tool|scenarios|surrogate|trainer|eval|sim)/" "controller/ above its layer"
forbid data "cellshift/(tool|controller|scenarios|surrogate|trainer|eval|sim)/" "data/ above its layer"
forbid tool "cellshift/(controller|scenarios|surrogate|trainer|eval|sim)/" "tool/ above its layer"
forbid scenarios "cellshift/tool/" "a library includes the tools' error contract (scenarios/)"
forbid surrogate "cellshift/tool/" "a library includes the tools' error contract (surrogate/)"
forbid scenarios "cellshift/(surrogate|trainer|eval|sim)/" "scenarios/ above its layer"
forbid eval "cellshift/(surrogate|trainer|sim)/" "eval/ depends on surrogate, trainer or sim"
# Each rule must be able to see something: the folders hold sources.
for folder in common data tool controller scenarios surrogate trainer eval sim; do
    [ -n "$(find "$folder" -name '*.cpp' -o -name '*.hpp' | head -1)" ] ||
        { echo "FAIL: $folder/ holds no sources (moved?)"; bad=1; }
done
[ $bad -eq 0 ] && echo "ok: the dependency direction holds"
exit $bad
