// The scenario's fault schedule end to end (issue 13): scenarios/faults_raid5.yaml's media error,
// power loss and disk loss leave every acknowledged write readable, and a bad `faults:` entry is
// one error line naming its file and line.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "system_harness.h"

using namespace system_test;

TEST(faults, the_raid5_fault_scenario_loses_nothing_and_reports_every_fault) {
    const scratch_dir dir;
    const fs::path out = dir / "out";
    const result r = raidtlm("run scenarios/faults_raid5.yaml --quiet --set output.waves=false --out '" +
                                 out.string() + "'",
                             dir);
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.err.find("lost with the controller's power"), std::string::npos) << r.err;
    const nlohmann::json s = nlohmann::json::parse(read_file(out / "stats.json"));
    const auto &c = s["controller"];
    expect_nothing_lost(c, 20000);
    EXPECT_GT(c["medium_errors"].get<int>(), 0);
    EXPECT_GT(c["firmware"]["media_repairs"].get<int>(), 0);
    EXPECT_GT(c["firmware"]["resynced_stripes"].get<int>(), 0);
    ASSERT_EQ(s["faults"].size(), 3u);
    for (const auto &f : s["faults"]) EXPECT_TRUE(f["happened"].get<bool>()) << f.dump();
    EXPECT_GT(s["faults"][1]["requests_lost_with_power"].get<int>(), 0);
    EXPECT_GE(s["faults"][1]["recovery_ms"].get<double>(), 0.0);
    EXPECT_NE(r.out.find("faults: 3 scheduled; failed requests 0 reads, 0 writes; lost sectors 0"), std::string::npos)
        << r.out;
    // The lost disk replaced 50 ms later and rebuilt against the load from its first stripe on.
    const auto &loss = s["faults"][2];
    EXPECT_TRUE(loss["rebuild_started"].get<bool>()) << loss.dump();
    EXPECT_EQ(loss["member_state_at_end"], "rebuilding");
    const auto &rb = c["firmware"]["rebuild"];
    EXPECT_GT(rb["units_rebuilt"].get<int>(), 0);
    EXPECT_EQ(rb["units_lost"].get<int>(), 0);
    EXPECT_GT(c["response_by_array_state"]["rebuilding"]["requests"].get<int>(), 1000);
    EXPECT_NE(r.out.find("rebuild: 1 started"), std::string::npos) << r.out;
}

TEST(faults, a_bad_entry_is_one_line_naming_file_and_line) {
    const scratch_dir dir;
    const std::string head = "disks:\n  spec: " + (fs::path(source_dir) / cheetah_spec).string() +
                             "\ncontroller:\n  enabled: true\n  layout: raid5\nfaults:\n";
    auto run = [&](const std::string &entry) {
        const fs::path s = write_temp(dir, "s.yaml", head + entry);
        return raidtlm("run '" + s.string() + "' --quiet --out '" + (dir / "o").string() + "'", dir);
    };
    struct bad {
        std::string entry, needle;
    };
    for (const bad &b : std::vector<bad>{
             {"  - {kind: disk_loss, disk: 1}\n", "neither at_ms nor at_request"},
             {"  - {kind: disk_loss, at_ms: 5, at_request: 3}\n", "both at_ms and at_request"},
             {"  - {kind: meltdown, at_ms: 5}\n", "'meltdown' is not a valid choice"},
             {"  - {kind: disk_loss, at_ms: 5, disk: 9}\n", "disk 9 of 4 disks"},
             {"  - {kind: power_loss, at_ms: 5, sectors: 3}\n", "sectors given for a power_loss"},
             {"  - {kind: controller_loss, at_ms: 5, disk: 1}\n", "disk given for a controller_loss"},
             {"  - {kind: disk_loss, at_ms: 5, restore_after_ms: 3}\n", "restore_after_ms given for a disk_loss"},
             {"  - {kind: disk_loss, at_ms: [5, 2]}\n", "TO not after FROM"},
             {"  - {kind: disk_loss, at_ms: 5, colour: red}\n", "unknown field 'colour'"},
             {"  - 7\n", "an entry is a scalar"},
         }) {
        const result r = run(b.entry);
        EXPECT_EQ(r.code, 2) << b.entry << r.err;
        EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << r.err;
        EXPECT_NE(r.err.find("s.yaml:7:"), std::string::npos) << b.entry << r.err;
        EXPECT_NE(r.err.find(b.needle), std::string::npos) << b.entry << r.err;
    }
}
