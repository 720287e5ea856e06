// `raidtlm run FILE.parv`: DiskSim 4.0's synthetic system configurations translated into
// scenarios, and what is refused with file:line and the feature's name.
#include <string>

#include <gtest/gtest.h>

#include "disks/diskspec_parser.h"
#include "testbench/scenario/parv_scenario.h"

using raidtlm::disks::spec_error;
using raidtlm::testbench::translate_parv;

namespace {

const std::string dir = std::string(RAIDTLM_SHARED_DIR) + "/reference/disksim/synthetic/";

std::string refusal(const std::string &file) {
    try {
        translate_parv(dir + file);
    } catch (const spec_error &e) {
        return e.what();
    }
    return "(accepted)";
}

bool has(const std::string &text, const std::string &part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST(parv_scenario, closed_system_becomes_a_closed_loop_of_its_processes) {
    const auto t = translate_parv(dir + "synthclosed.parv");
    EXPECT_TRUE(has(t.yaml, "name: HP_C3323A")) << t.yaml;
    EXPECT_TRUE(has(t.yaml, "count: 1")) << t.yaml;
    EXPECT_TRUE(has(t.yaml, "arrival: closed\n  outstanding: 5\n  think_time_ms: 0\n")) << t.yaml;
    EXPECT_TRUE(has(t.yaml, "read_fraction: 0.66")) << t.yaml;
    EXPECT_TRUE(has(t.yaml, "size_distribution: exponential\n  size_mean_sectors: 8")) << t.yaml;
    EXPECT_TRUE(has(t.yaml, "alignment_sectors: 8")) << t.yaml;
    EXPECT_TRUE(has(t.yaml, "requests: 10000\n  warmup_requests: 0\n  seed: 42")) << t.yaml;
    // bus1's 0.0512 ms per block is slower than the drive's own interface.
    EXPECT_TRUE(has(t.yaml, "bulk_sector_transfer_ms: 0.0512")) << t.yaml;
    // The drive takes one command ("Max queue length = 1"); the iodriver orders the rest C-LOOK.
    EXPECT_TRUE(has(t.yaml, "host_queue_policy: cycle_lbn")) << t.yaml;
    ASSERT_EQ(t.notes.size(), 1u);  // the closed loop's end: by count, DiskSim's time cap noted
    EXPECT_TRUE(has(t.notes[0], "1000 s")) << t.notes[0];
}

TEST(parv_scenario, open_generators_on_one_processor_leave_only_the_last_issuing) {
    const auto t = translate_parv(dir + "synthopen.parv");
    EXPECT_TRUE(has(t.yaml, "name: SEAGATE_ST39102LW_validate")) << t.yaml;
    EXPECT_TRUE(has(t.yaml, "arrival: open\n  mean_interarrival_ms: 25\n")) << t.yaml;
    ASSERT_EQ(t.notes.size(), 1u);
    EXPECT_TRUE(has(t.notes[0], "3 generators on 1 processor")) << t.notes[0];
}

TEST(parv_scenario, refusals_name_the_file_line_and_feature) {
    const std::string raid5 = refusal("synthraid5.parv");
    EXPECT_TRUE(has(raid5, "synthraid5.parv:")) << raid5;
    EXPECT_TRUE(has(raid5, "time-limited requests")) << raid5;
    const std::string mixed = refusal("synthmixed.parv");
    EXPECT_TRUE(has(mixed, "synthmixed.parv:239:")) << mixed;  // the last generator runs first
    EXPECT_TRUE(has(mixed, "time-limited requests")) << mixed;
    const std::string arrays = refusal("syntharrays.parv");
    EXPECT_TRUE(has(arrays, "syntharrays.parv:")) << arrays;
    EXPECT_TRUE(has(arrays, "not supported by `raidtlm run`")) << arrays;
}
