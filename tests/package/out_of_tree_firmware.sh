#!/usr/bin/env bash
# Installs this build of raidtlm into a scratch prefix, builds examples/write_back_raid5 outside
# the tree against the installed CMake package (find_package(raidtlm)), runs the example's
# scenario with the user's firmware and scheduler, and checks what the run says about itself:
# the firmware that ran, the scheduler, reads checked and zero integrity errors, and that the
# cache was used. Usage: out_of_tree_firmware.sh BUILD_DIR SOURCE_DIR WORK_DIR [CXX_FLAGS [LINK_FLAGS]]
# (the build's own flags, e.g. the sanitizers of scripts/test --sanitize; default none).
set -euo pipefail
build=$1 src=$2 work=$3 cxx_flags=${4:-} link_flags=${5:-}
rm -rf "$work" && mkdir -p "$work"
cmake --install "$build" --prefix "$work/prefix" > "$work/install.log"
launcher=()
command -v ccache > /dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake -S "$src/examples/write_back_raid5" -B "$work/build" -G Ninja -DCMAKE_BUILD_TYPE=Release \
      -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_CXX_FLAGS="$cxx_flags" -DCMAKE_EXE_LINKER_FLAGS="$link_flags" \
      "${launcher[@]}" > "$work/configure.log"
cmake --build "$work/build" > "$work/build.log"
"$work/build/write_back_raid5_raidtlm" run "$src/examples/write_back_raid5/scenario.yaml" \
    --out "$work/out" --quiet --set workload.requests=2000 --set output.waves=false > "$work/run.log"
python3 - "$work/out/stats.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
c = s["controller"]
fw = c["firmware"]
cache = fw["write_back_cache"]
scen = s["scenario"]["controller"]
problems = []
if scen.get("firmware") != "write_back_raid5": problems.append(f"firmware {scen.get('firmware')!r}")
if scen.get("scheduler") != "aged_sstf": problems.append(f"scheduler {scen.get('scheduler')!r}")
if c["integrity_errors"] != 0: problems.append(f"{c['integrity_errors']} integrity errors")
if c["reads_checked"] < 1000: problems.append(f"only {c['reads_checked']} reads checked")
if cache["destaged_writes"] == 0: problems.append("nothing destaged")
if cache["read_hits"] + cache["partial_read_hits"] == 0: problems.append("no read hit the cache")
if problems:
    sys.exit("out-of-tree firmware run: " + "; ".join(problems))
print(f"ok: {c['reads_checked']} reads checked, 0 integrity errors, {cache['destaged_writes']} writes destaged, "
      f"{cache['read_hits']} read hits")
PY
