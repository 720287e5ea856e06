#!/usr/bin/env bash
# Installs this build of raidtlm into a scratch prefix, builds one of examples/ outside the tree
# against the installed CMake package (find_package(raidtlm)), runs the example's scenario with
# the user's plug-ins, and has check_EXAMPLE.py judge what the run says about itself (the plug-ins
# that ran, reads checked, zero integrity errors, that the plug-in did its work).
# Usage: out_of_tree_example.sh BUILD_DIR SOURCE_DIR WORK_DIR EXAMPLE REQUESTS [CXX_FLAGS [LINK_FLAGS]]
# (the build's own flags, e.g. the sanitizers of scripts/test --sanitize; default none).
set -euo pipefail
build=$1 src=$2 work=$3 example=$4 requests=$5 cxx_flags=${6:-} link_flags=${7:-}
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
launcher=()
command -v ccache > /dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$src/examples/$example" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_CXX_FLAGS="$cxx_flags" -DCMAKE_EXE_LINKER_FLAGS="$link_flags" \
      "${launcher[@]}" > "$work/configure.log"
cmake --build "$work/build" > "$work/build.log"
"$work/build/${example}_raidtlm" run "$src/examples/$example/scenario.yaml" \
    --out "$work/out" --quiet --set workload.requests="$requests" --set output.waves=false > "$work/run.log"
python3 "$(dirname "$0")/check_$example.py" "$work/out/stats.json"
