// RAID 6 end to end (issue 19): scenarios/raid6.yaml's media error, power loss and two disk
// losses leave every acknowledged write readable, with reads of stripes that miss two members
// rebuilt through the XOR engine's GF mode; and a RAID 6 small write costs what it should
// (three reads and three writes) next to RAID 5's two and two. The same with three checks
// (scenarios/triple_check.yaml: three disk losses; four reads and four writes).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "system_harness.h"

using namespace system_test;

TEST(raid6_runs, the_scenario_survives_two_lost_disks_and_a_media_error) {
    const scratch_dir dir;
    const fs::path out = dir / "out";
    const result r =
        raidtlm("run scenarios/raid6.yaml --quiet --set output.waves=false --out '" + out.string() + "'", dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json s = nlohmann::json::parse(read_file(out / "stats.json"));
    const auto &c = s["controller"];
    expect_nothing_lost(c, 20000);
    EXPECT_GT(c["firmware"]["media_repairs"].get<int>(), 0);
    EXPECT_GT(c["firmware"]["resynced_stripes"].get<int>(), 0);
    EXPECT_GT(c["firmware"]["raid6"]["two_lost_rebuilt_reads"].get<int>(), 100);
    EXPECT_GT(c["firmware"]["raid6"]["two_lost_stripe_writes"].get<int>(), 100);
    EXPECT_GT(c["xor"]["gf_commands"].get<int>(), 1000);
    EXPECT_EQ(c["xor"]["gf_commands"], c["firmware"]["raid6"]["gf_commands"]);
    ASSERT_EQ(s["faults"].size(), 4u);
    for (const auto &f : s["faults"]) EXPECT_TRUE(f["happened"].get<bool>()) << f.dump();
    EXPECT_NE(r.out.find("faults: 4 scheduled; failed requests 0 reads, 0 writes; lost sectors 0"), std::string::npos)
        << r.out;
}

// Uniform small writes on idle-cache drives: RAID 6 sends 6 drive commands per write (old data,
// P, Q read; new data, P, Q written), RAID 5 4.
TEST(raid6_runs, a_small_write_costs_six_drive_commands_against_raid5_s_four) {
    const scratch_dir dir;
    auto commands_per_write = [&](const std::string &layout, int disks, const std::string &extra = "") {
        const fs::path out = dir / (layout + extra.substr(extra.find('=') + 1));
        const result r = raidtlm("run scenarios/default.yaml --quiet --set output.waves=false --set controller.enabled=true"
                                 " --set controller.layout=" + layout + " --set disks.count=" + std::to_string(disks) +
                                     (extra.empty() ? "" : " --set " + extra) +
                                     " --set workload.read_fraction=0 --set workload.requests=600"
                                     " --set workload.warmup_requests=0 --set measurement.ci_target=0"
                                     " --set workload.request_sectors=8 --out '" +
                                     out.string() + "'",
                                 dir);
        EXPECT_EQ(r.code, 0) << r.err;
        const nlohmann::json s = nlohmann::json::parse(read_file(out / "stats.json"));
        return s["controller"]["firmware"]["physical_commands"].get<double>() /
               s["requests"]["completed_total"].get<double>();
    };
    EXPECT_NEAR(commands_per_write("raid6", 6), 6.0, 0.1);
    EXPECT_NEAR(commands_per_write("raid5", 5), 4.0, 0.1);
    EXPECT_NEAR(commands_per_write("raid6", 7, "controller.raid6_checks=3"), 8.0, 0.1);
}

TEST(raid6_runs, the_triple_check_scenario_survives_three_lost_disks_and_a_media_error) {
    const scratch_dir dir;
    const fs::path out = dir / "out";
    const result r =
        raidtlm("run scenarios/triple_check.yaml --quiet --set output.waves=false --out '" + out.string() + "'", dir);
    ASSERT_EQ(r.code, 0) << r.err;
    const nlohmann::json s = nlohmann::json::parse(read_file(out / "stats.json"));
    const auto &c = s["controller"];
    expect_nothing_lost(c, 20000);
    const auto &r6 = c["firmware"]["raid6"];
    EXPECT_EQ(r6["checks"], 3);
    EXPECT_GT(c["firmware"]["media_repairs"].get<int>(), 0);
    EXPECT_GT(c["firmware"]["resynced_stripes"].get<int>(), 0);
    EXPECT_GT(r6["three_lost_rebuilt_reads"].get<int>(), 100);
    EXPECT_GT(r6["three_lost_stripe_writes"].get<int>(), 100);
    EXPECT_EQ(c["xor"]["gf_commands"], r6["gf_commands"]);
    ASSERT_EQ(s["faults"].size(), 5u);
    for (const auto &f : s["faults"]) EXPECT_TRUE(f["happened"].get<bool>()) << f.dump();
    EXPECT_NE(r.out.find("faults: 5 scheduled; failed requests 0 reads, 0 writes; lost sectors 0"), std::string::npos)
        << r.out;
}
