// Host requests as large as the buffer DRAM or the whole array: served in pieces, or refused
// before the run with one line naming the keys; never a crash or a deadlock (EXPERIMENTS.md 19.5).
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "system_harness.h"

using namespace system_test;

namespace {

const std::string small_disks = (fs::path(source_dir) / "scenarios/disks/ibm0661.diskspecs").string();

// Four IBM 0661 drives (320 MB each) behind the controller with a 1 MiB buffer DRAM.
std::string small_array(const fs::path &dir, const std::string &layout, const std::string &workload) {
    const std::string yaml = "disks:\n  spec: " + small_disks +
                             "\n  count: 4\ncontroller:\n  enabled: true\n  layout: " + layout +
                             "\n  dram:\n    capacity_mib: 1\n" + workload + "output:\n  waves: false\n";
    return write_temp(dir, "scenario.yaml", yaml).string();
}

}  // namespace

TEST(large_requests, a_trace_request_the_size_of_the_whole_array_is_served) {
    const scratch_dir dir;
    for (const std::string layout : {"raid5", "raid1"}) {
        // The array's capacity first, from a run of one small request.
        const std::string probe = small_array(dir, layout,
                                              "workload:\n  requests: 1\n  warmup_requests: 0\n");
        const nlohmann::json p = run_json(probe, dir, layout + "_probe");
        ASSERT_FALSE(p.is_null());
        const uint64_t capacity = p["controller"]["firmware"]["capacity_sectors"];
        ASSERT_GT(capacity, 2048u * 16);  // many times the DRAM
        // One write of the whole array, then one read of it (DiskSim ASCII: flags 0 write, 1 read).
        std::ofstream(dir / "whole.trace") << "0.0 0 0 " << capacity << " 0\n"
                                           << "1.0 0 0 " << capacity << " 1\n";
        const std::string scenario = small_array(
            dir, layout,
            "workload:\n  arrival: trace\n  requests: 0\n  warmup_requests: 0\n  data_tokens: true\ntrace:\n  file: " +
                (dir / "whole.trace").string() + "\n  format: disksim\n");
        const nlohmann::json j = run_json(scenario, dir, layout + "_whole");
        ASSERT_FALSE(j.is_null()) << layout;
        EXPECT_EQ(j["requests"]["completed_total"].get<uint64_t>(), 2u) << layout;
        expect_nothing_lost(j["controller"], int(capacity) - 1);  // every sector read back right
    }
}

TEST(large_requests, requests_that_exactly_fill_the_dram_are_served) {
    const scratch_dir dir;
    // 2048 sectors: the whole 1 MiB DRAM (before: a deadlock, "ended after 0 of N requests").
    const std::string scenario = small_array(dir, "raid5",
                                             "workload:\n  requests: 200\n  warmup_requests: 0\n  outstanding: 4\n"
                                             "  request_sectors: 2048\n  data_tokens: true\n");
    const nlohmann::json j = run_json(scenario, dir, "fill");
    ASSERT_FALSE(j.is_null());
    expect_nothing_lost(j["controller"], 1);
    // Four times the DRAM (before: refused, "smaller than one request's buffer").
    const nlohmann::json four = run_json(scenario + " --set workload.request_sectors=8192", dir, "four");
    ASSERT_FALSE(four.is_null());
    expect_nothing_lost(four["controller"], 1);
    EXPECT_EQ(four["requests"]["completed_total"].get<uint64_t>(), 200u);
}

TEST(large_requests, a_dram_too_small_for_one_stripe_is_refused_before_the_run) {
    const scratch_dir dir;
    // Stripe units of 1 MiB: one stripe's work buffer alone is larger than the 1 MiB DRAM.
    const std::string scenario =
        small_array(dir, "raid5", "host:\n  stripe_unit_sectors: 2048\nworkload:\n  requests: 10\n");
    const result r = raidtlm("run " + scenario + " --quiet --out " + (dir / "small").string(), dir);
    expect_one_line_error(r, 2, {"controller.dram.capacity_mib", "stripe_unit_sectors"});
}

#ifdef RAIDTLM_HAVE_ISS
TEST(large_requests, the_c_firmware_refuses_requests_larger_than_its_buffers_before_the_run) {
    const scratch_dir dir;
    const result r = raidtlm("run scenarios/iss_raid5.yaml --quiet --set workload.size_distribution=constant "
                             "--set workload.request_sectors=65536 --out " +
                                 (dir / "iss").string(),
                             dir);
    expect_one_line_error(r, 2, {"workload.request_sectors", "65536"});
}
#endif
