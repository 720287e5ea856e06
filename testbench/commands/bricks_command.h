// `raidtlm run` of a scenario with bricks.count > 0: the storage-brick topology (bricks_bench.h)
// instead of one controller. Writes OUT/stats.json ("bricks": throughput, Little's law,
// messages per request, conflicts, per-brick figures) and OUT/waves.vcd with output.waves, and
// prints a summary. Returns the exit code.
#pragma once

#include <filesystem>

#include "disks/disk_spec.h"
#include "testbench/commands/commands.h"
#include "testbench/scenario/scenario.h"

namespace raidtlm::testbench {

int run_bricks(const run_options &options, const scenario &s, const disks::disk_spec &spec,
               const std::filesystem::path &out_dir);

}  // namespace raidtlm::testbench
