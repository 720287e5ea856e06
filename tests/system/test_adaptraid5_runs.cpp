// System tests: scenarios/adaptraid5.yaml (paper 003's heterogeneous array) runs end to end with
// every read checked by the scoreboard, with and without a lost disk; its layout errors are one
// line naming the key.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "system_harness.h"

using namespace system_test;

namespace {

const std::string mixed =
    " --set output.waves=false --set workload.requests=120 --set workload.warmup_requests=10"
    " --set workload.read_fraction=0.5 --set workload.request_sectors=512 --set workload.alignment_sectors=16";

void expect_key_error(const result &r, const std::string &key) {
    EXPECT_EQ(r.code, 2) << r.err;
    EXPECT_EQ(r.err.find('\n'), r.err.size() - 1) << "more than one line:\n" << r.err;
    EXPECT_NE(r.err.find("key '" + key), std::string::npos) << r.err;
}

}  // namespace

TEST(adaptraid5_run, the_papers_array_serves_reads_and_writes_with_zero_integrity_errors) {
    const scratch_dir dir;
    for (const std::string extra : {"", " --set controller.fail_disk=4 --set controller.fail_after_requests=40"}) {
        const result r = raidtlm("run scenarios/adaptraid5.yaml --quiet --out '" + (dir / "out").string() + "'" +
                                     mixed + extra,
                                 dir);
        ASSERT_EQ(r.code, 0) << r.err;
        const nlohmann::json j = nlohmann::json::parse(read_file(dir / "out" / "stats.json"));
        EXPECT_EQ(j["disks"].size(), 9u);
        EXPECT_NE(j["disk_model"].get<std::string>().find("SEAGATE_ST32171W"), std::string::npos);
        EXPECT_EQ(j["controller"]["firmware"]["layout"].get<std::string>().rfind("AdaptRaid5, 9 disks", 0), 0u);
        EXPECT_EQ(j["controller"]["integrity_errors"], 0);
        EXPECT_GT(j["controller"]["reads_checked"].get<uint64_t>(), 0u);
        if (!extra.empty()) {
            EXPECT_GT(j["controller"]["firmware"]["rebuilt_reads"].get<uint64_t>(), 0u);
        }
    }
}

TEST(adaptraid5_run, a_layout_that_cannot_be_built_is_one_line_naming_the_key) {
    const scratch_dir dir;
    const std::string run = "run scenarios/adaptraid5.yaml --quiet --out '" + (dir / "out").string() + "'";
    expect_key_error(raidtlm(run + " --set controller.adaptraid5.sip=2", dir), "controller.adaptraid5.sip");
    expect_key_error(raidtlm(run + " --set controller.adaptraid5.uf=[1,1,0.5]", dir), "controller.adaptraid5.uf");
    expect_key_error(raidtlm(run + " --set controller.adaptraid5.uf=[1,1,1,1,1,1,1,1,0]", dir),
                     "controller.adaptraid5.uf");
    expect_key_error(raidtlm(run + " --set 'controller.adaptraid5.uf={OTHER_DISK: 1}'", dir),
                     "controller.adaptraid5.uf");
    expect_key_error(
        raidtlm(run + " --set disks.specs=[../../shared/reference/disksim/validation/cheetah4LP.diskspecs]", dir),
        "controller.layout");
    expect_key_error(raidtlm(run + " --set controller.layout=raid5", dir), "controller.adaptraid5.");
    expect_key_error(raidtlm(run + " --set disks.count=4", dir), "disks.count");
}
