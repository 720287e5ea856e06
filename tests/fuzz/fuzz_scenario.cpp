// libFuzzer target: the scenario YAML loader (run by scripts/fuzz; its seed corpus is
// scenarios/*.yaml). The input is one scenario file; a malformed one must end in scenario_error
// (one line naming file, line and the expected form), never in a crash, a hang, an unbounded
// allocation or another exception.
#include <unistd.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>

#include "testbench/scenario/scenario.h"

#ifndef RAIDTLM_SOURCE_DIR
#error "RAIDTLM_SOURCE_DIR must name the source tree (scenarios/ and the shared specs are found from it)"
#endif

#ifdef RAIDTLM_FUZZ_SC_MAIN
// libsystemc defines main() and needs an sc_main; under libFuzzer, the fuzzer's main runs instead.
extern "C" int sc_main(int, char **) { return 0; }
#endif

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    namespace fs = std::filesystem;
    // The loader reads a file. The seed scenarios name their drive relative to scenarios/
    // (../../shared/...), so that directory is the fallback root for relative paths.
    static const std::string dir = (fs::temp_directory_path() / ("raidtlm_fuzz_scenario_" + std::to_string(getpid()))).string();
    static const std::string path = dir + "/input.yaml";
    static const std::string scenarios_dir = std::string(RAIDTLM_SOURCE_DIR) + "/scenarios";
    static const bool made = fs::create_directories(dir) || fs::is_directory(dir);
    if (!made) __builtin_trap();
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char *>(data), static_cast<std::streamsize>(size));
    }
    try {
        raidtlm::testbench::load_scenario(path, {}, scenarios_dir);
    } catch (const raidtlm::testbench::scenario_error &e) {
        const std::string m = e.what();
        if (m.empty() || m.find('\n') != std::string::npos) __builtin_trap();  // one line, always
        if (m.size() > 10000) __builtin_trap();  // values are shortened, never echoed whole
    }
    return 0;
}
