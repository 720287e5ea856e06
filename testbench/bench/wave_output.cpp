#include "testbench/bench/wave_output.h"

#include <algorithm>
#include <cstdlib>
#include <stdexcept>

#include <fmt/format.h>

#include "testbench/commands/commands.h"

namespace raidtlm::testbench {

namespace fs = std::filesystem;

namespace {

std::string quoted(const fs::path &p) {
    std::string q = "'";
    for (char c : p.string()) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

}  // namespace

wave_files finish_waves(const fs::path &out_dir, const fs::path &vcd, const output_config &output, double end_ms) {
    wave_files w;
    w.dump = vcd.filename().string();
    w.from_ms = output.waves_from_ms;
    w.to_ms = output.waves_to_ms > 0 ? std::min(output.waves_to_ms, end_ms) : end_ms;
    if (output.wave_format == wave_file_format::fst) {
        const fs::path fst = out_dir / "waves.fst";
        const std::string cmd = fmt::format("vcd2fst {} {} > /dev/null 2>&1", quoted(vcd), quoted(fst));
        if (std::system(cmd.c_str()) != 0 || !fs::exists(fst))
            throw output_error(fmt::format("{}: vcd2fst could not convert {}; expected GTKWave's vcd2fst on the PATH "
                                           "(Debian package gtkwave) or output.wave_format: vcd",
                                           fst.string(), vcd.string()));
        fs::remove(vcd);
        w.dump = fst.filename().string();
    }
    return w;
}

}  // namespace raidtlm::testbench
