// What a run does with its waves after the simulation: with output.wave_format fst, convert
// waves.vcd (already limited to output.waves_from_ms / waves_to_ms as it was written) to waves.fst
// with GTKWave's vcd2fst (Debian's gtkwave package ships it; no FST writer library is packaged for
// Debian), removing the VCD. Throws output_error when the conversion fails.
#pragma once

#include <filesystem>
#include <string>

#include "testbench/scenario/scenario.h"

namespace raidtlm::testbench {

struct wave_files {
    std::string dump;  // the file name in the output directory: waves.vcd or waves.fst
    double from_ms = 0, to_ms = 0;  // the window it holds (to: the run's end when none was given)
};

// `vcd`: the run's VCD (in out_dir), `end_ms` the run's end.
wave_files finish_waves(const std::filesystem::path &out_dir, const std::filesystem::path &vcd,
                        const output_config &output, double end_ms);

}  // namespace raidtlm::testbench
