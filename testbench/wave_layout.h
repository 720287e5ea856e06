// The GTKWave save file of a run's waves (waves.gtkw next to waves.vcd) and the value-name
// translation files of its enum signals. Throws output_error when the files cannot be written.
#pragma once

#include <filesystem>

#include "testbench/run_bench.h"

namespace raidtlm::testbench {

// `end_ms`: the run's simulated length (the view opens on its first 200 ms at most).
void write_wave_layout(const std::filesystem::path &out_dir, const run_bench &bench, double end_ms);

}  // namespace raidtlm::testbench
