// The ISS's GDB remote stub driven by the real debugger: `raidtlm run … --gdb 0` pauses the
// firmware at reset, gdb-multiarch (batch mode) attaches, stops at a breakpoint in main, steps,
// reads registers and memory, detaches, and the run then completes with a clean scoreboard.
#include <chrono>
#include <fstream>
#include <regex>
#include <string>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "system_harness.h"

using namespace system_test;

namespace {

// Waits up to `seconds` for `path` to contain `needle`; returns its text.
std::string wait_for(const fs::path &path, const std::string &needle, int seconds) {
    for (int i = 0; i < seconds * 10; ++i) {
        const std::string text = read_file(path);
        if (text.find(needle) != std::string::npos) return text;
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    return read_file(path);
}

}  // namespace

TEST(iss_gdb, gdb_multiarch_stops_at_main_steps_reads_registers_and_memory_and_detaches) {
#ifndef RAIDTLM_HAVE_ISS
    GTEST_SKIP() << "built without the instruction-set simulator (libunicorn-dev, gcc-arm-none-eabi)";
#endif
    if (!fs::exists("/usr/bin/gdb-multiarch")) GTEST_SKIP() << "gdb-multiarch is not installed (scripts/setup)";
    const scratch_dir dir;
    const fs::path err = dir / "raidtlm_stderr.txt", rc = dir / "raidtlm_rc.txt", out = dir / "out";
    const std::string run = "cd '" + source_dir + "' && ( timeout 300 '" + binary +
                            "' run scenarios/iss_raid5.yaml --quiet --gdb 0 --set workload.requests=300 "
                            "--set workload.warmup_requests=20 --set output.waves=false --out '" +
                            out.string() + "' > /dev/null 2> '" + err.string() + "' < /dev/null; echo $? > '" +
                            rc.string() + "' ) &";
    ASSERT_EQ(std::system(run.c_str()), 0);

    // "raidtlm: the firmware is paused at reset; attach with: gdb-multiarch IMAGE -ex 'target remote :PORT'"
    const std::string banner = wait_for(err, "target remote :", 120);
    std::smatch m;
    ASSERT_TRUE(std::regex_search(banner, m, std::regex("gdb-multiarch (\\S+) -ex 'target remote :([0-9]+)'")))
        << banner;
    const std::string image = m[1], port = m[2];

    const fs::path log = dir / "gdb.txt";
    const std::string gdb = "timeout 120 gdb-multiarch -nx -batch '" + image + "' -ex 'target remote :" + port +
                            "' -ex 'info registers pc' -ex 'break main' -ex 'continue' -ex 'info registers pc' "
                            "-ex 'stepi' -ex 'stepi' -ex 'info registers pc' -ex 'x/1xw 0' -ex 'p/x $sp' "
                            "-ex 'delete' -ex 'detach' > '" +
                            log.string() + "' 2>&1";
    const int gdb_status = std::system(gdb.c_str());
    const std::string transcript = read_file(log);
    EXPECT_EQ(gdb_status, 0) << transcript;
    // Stopped at main by the breakpoint, then two instructions further.
    EXPECT_NE(transcript.find("Breakpoint 1, "), std::string::npos) << transcript;
    EXPECT_NE(transcript.find("main"), std::string::npos) << transcript;
    std::vector<unsigned long> pcs;
    const std::regex pc_line("pc +0x([0-9a-f]+)");
    for (auto it = std::sregex_iterator(transcript.begin(), transcript.end(), pc_line); it != std::sregex_iterator(); ++it)
        pcs.push_back(std::stoul((*it)[1], nullptr, 16));
    ASSERT_EQ(pcs.size(), 3u) << transcript;
    EXPECT_NE(pcs[0], pcs[1]);                    // reset vector, then main
    EXPECT_GT(pcs[2], pcs[1]);                    // two steps on
    EXPECT_LE(pcs[2], pcs[1] + 8);                // two Thumb instructions: 2 to 4 bytes each
    // Word 0 of the image is the vector table's initial stack pointer, which sp started at.
    std::smatch sp;
    ASSERT_TRUE(std::regex_search(transcript, sp, std::regex("0x0(?: <\\w+>)?:\\s+0x([0-9a-f]+)"))) << transcript;
    EXPECT_NE(std::stoul(sp[1], nullptr, 16), 0u);

    // Detached: the firmware runs on and the run completes with a clean scoreboard.
    wait_for(rc, "\n", 300);
    EXPECT_EQ(read_file(rc), "0\n") << read_file(err);
    const nlohmann::json s = nlohmann::json::parse(read_file(out / "stats.json"), nullptr, false);
    ASSERT_FALSE(s.is_discarded());
    EXPECT_EQ(s["controller"]["integrity_errors"], 0);
}
