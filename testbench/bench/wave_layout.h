// The GTKWave save file of a run's waves (waves.gtkw next to waves.vcd) and the value-name
// translation files of its enum signals. Throws output_error when the files cannot be written.
#pragma once

#include <filesystem>

#include "testbench/bench/run_bench.h"
#include "testbench/bench/wave_output.h"
#include "waveforms/wave_groups.h"

namespace raidtlm::testbench {

// `waves`: the dump and the window it holds (the view opens on its first 200 ms at most, from
// the first wait for a bus or a tag when that comes later); `groups`: the groups traced;
// `time_unit_s`: the dump's time unit.
void write_wave_layout(const std::filesystem::path &out_dir, const run_bench &bench, const wave_files &waves,
                       const waveforms::wave_groups &groups, double time_unit_s);

}  // namespace raidtlm::testbench
