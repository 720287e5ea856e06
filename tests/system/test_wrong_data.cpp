// A run whose reads returned wrong data is a failed run (issue 27): `raidtlm run` exits 3, ends its
// summary with a DATA INTEGRITY FAILURE box and says it on stderr's last line, naming stats.json's
// first_integrity_errors; a run over several seeds and the sustainable-rate search fail the same
// way. The wrong data comes from the fault `silent_corruption`: a drive whose media change under
// the controller and which returns them without an error (RAID without checksums cannot see it;
// the scoreboard must).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "system_harness.h"

using namespace system_test;

namespace {

// RAID 5 of four drives with data tokens, half reads in a hot region at the start of the array;
// at request 200 disk 0's first 2048 sectors (hot data and parity) silently change.
fs::path corrupting_scenario(const fs::path &dir) {
    return write_temp(dir, "corrupt.yaml",
                      "disks:\n  spec: " + (fs::path(source_dir) / cheetah_spec).string() +
                          "\n  count: 4\n"
                          "controller:\n  enabled: true\n  layout: raid5\n"
                          "workload:\n  outstanding: 4\n  read_fraction: 0.5\n  request_sectors: 8\n"
                          "  address: hot_cold\n  hot_space_fraction: 0.0002\n  hot_access_fraction: 0.9\n"
                          "  data_tokens: true\n  requests: 3000\n  warmup_requests: 0\n"
                          "output:\n  waves: false\n"
                          "faults:\n  - {kind: silent_corruption, at_request: 200, disk: 0, lbn: 0, sectors: 2048}\n");
}

std::string last_line(const std::string &text) {
    const std::string t = text.substr(0, text.find_last_not_of('\n') + 1);
    return t.substr(t.rfind('\n') == std::string::npos ? 0 : t.rfind('\n') + 1);
}

}  // namespace

TEST(wrong_data, a_run_whose_reads_returned_wrong_data_exits_3_and_says_so_everywhere) {
    const scratch_dir dir;
    const fs::path out = dir / "out";
    const result r = raidtlm("run '" + corrupting_scenario(dir).string() + "' --quiet --out '" + out.string() + "'", dir);
    EXPECT_EQ(r.code, 3) << r.err;
    const nlohmann::json s = nlohmann::json::parse(read_file(out / "stats.json"));
    const uint64_t errors = s["controller"]["integrity_errors"].get<uint64_t>();
    ASSERT_GT(errors, 0u) << "the corrupted sectors were never read";
    ASSERT_FALSE(s["controller"]["first_integrity_errors"].empty());
    ASSERT_EQ(s["faults"].size(), 1u);
    EXPECT_EQ(s["faults"][0]["kind"], "silent_corruption");
    EXPECT_TRUE(s["faults"][0]["happened"].get<bool>());
    // No failed request: the drive answered every read as if nothing was wrong.
    EXPECT_EQ(s["requests"]["errors"].get<int>(), 0);

    // The summary ends with the box, its count and where the wrong reads are listed.
    const std::string head = "DATA INTEGRITY FAILURE: " + std::to_string(errors) + " of ";
    const auto box = r.out.find(head);
    ASSERT_NE(box, std::string::npos) << r.out;
    EXPECT_GT(box, r.out.find("wrote ")) << "the box is not at the end of the summary:\n" << r.out;
    EXPECT_NE(r.out.find("controller.first_integrity_errors", box), std::string::npos) << r.out;
    EXPECT_NE(r.out.find("  ######", box), std::string::npos) << r.out;
    // stderr's last line says the same, naming stats.json and the first wrong read.
    const std::string line = last_line(r.err);
    EXPECT_EQ(line.rfind("raidtlm: " + head, 0), 0u) << r.err;
    EXPECT_NE(line.find((out / "stats.json").string() + " controller.first_integrity_errors"), std::string::npos)
        << line;
    EXPECT_NE(line.find("first: logical sector "), std::string::npos) << line;
}

TEST(wrong_data, several_seeds_and_the_sustainable_rate_search_fail_with_the_same_status) {
    const scratch_dir dir;
    const fs::path scenario = corrupting_scenario(dir);
    const result seeds = raidtlm("run '" + scenario.string() + "' --quiet -j 1 --set measurement.seeds=2 --out '" +
                                     (dir / "seeds").string() + "'",
                                 dir);
    expect_one_line_error(seeds, 3, {"seed 1: DATA INTEGRITY FAILURE", "2 of 2 seeds failed", "first_integrity_errors"});
    const result rate = raidtlm("sustainable-rate '" + scenario.string() +
                                    "' --quiet -j 1 --seeds 1 --ci 0.2 --max-requests 3000 --out '" +
                                    (dir / "rate").string() + "'",
                                dir);
    expect_one_line_error(rate, 3, {"seed 1: DATA INTEGRITY FAILURE", "first_integrity_errors"});
}

TEST(wrong_data, a_fault_free_run_with_data_tokens_still_exits_0) {
    const scratch_dir dir;
    const fs::path scenario = corrupting_scenario(dir);
    const std::string text = read_file(scenario);
    const fs::path clean = write_temp(dir, "clean.yaml", text.substr(0, text.find("faults:")));
    const result r = raidtlm("run '" + clean.string() + "' --quiet --out '" + (dir / "out").string() + "'", dir);
    EXPECT_EQ(r.code, 0) << r.err;
    EXPECT_EQ(r.out.find("DATA INTEGRITY FAILURE"), std::string::npos) << r.out;
    const nlohmann::json s = nlohmann::json::parse(read_file(dir / "out" / "stats.json"));
    EXPECT_EQ(s["controller"]["integrity_errors"].get<int>(), 0);
    EXPECT_GT(s["controller"]["reads_checked"].get<int>(), 0);
}
