// libFuzzer target: the DiskSim spec parser and loader, and the .parv system configuration loader
// (run by scripts/fuzz). The input is one .diskspecs or .parv file; a malformed one must end in
// spec_error (one line naming file and line), never in a crash, a hang or another exception.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <fstream>
#include <string>

#include "disks/diskspec_loader.h"
#include "disks/diskspec_parser.h"
#include "disks/validation_system.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    // The loader reads files (and what they `source`): hand it the input as a file of its own.
    static const std::string path = "/tmp/raidtlm_fuzz_diskspec_" + std::to_string(getpid()) + ".diskspecs";
    {
        std::ofstream out(path, std::ios::binary | std::ios::trunc);
        out.write(reinterpret_cast<const char *>(data), static_cast<std::streamsize>(size));
    }
    auto one_line = [](const raidtlm::disks::spec_error &e) {
        const std::string m = e.what();
        if (m.empty() || m.find('\n') != std::string::npos) __builtin_trap();  // one line, always
    };
    try {
        raidtlm::disks::load_diskspec(path);
    } catch (const raidtlm::disks::spec_error &e) {
        one_line(e);
    }
    try {
        raidtlm::disks::load_validation_system(path);
    } catch (const raidtlm::disks::spec_error &e) {
        one_line(e);
    }
    return 0;
}
