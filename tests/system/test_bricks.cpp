// The storage-brick topology (issue 17): D-SPTF against hashing on one replica group of 8
// bricks (Lumb Fig 6.3: +20% throughput), the protocol's message count (about 2N per request,
// Table 6.3), Little's law on the closed loop, and the bricks keys' errors.
#include <gtest/gtest.h>

#include "system_harness.h"

using namespace system_test;

namespace {

const std::string scenario = "scenarios/bricks_dsptf.yaml";

nlohmann::json bricks_run(const std::string &sets, const fs::path &dir, const std::string &name) {
    const nlohmann::json s = run_json(scenario + " --set workload.requests=1500 --set workload.warmup_requests=300 " +
                                          sets,
                                      dir, name);
    return s.is_null() ? s : s["bricks"];
}

}  // namespace

TEST(bricks, dsptf_beats_hashing_at_eight_replicas) {
    scratch_dir dir;
    // Read-only, as Lumb's Fig 6.2: writes would fill the hashed bricks' idle time with destages.
    const std::string eight = "--set bricks.count=8 --set bricks.replicas=8 --set workload.read_fraction=1";
    const nlohmann::json d = bricks_run(eight, dir, "dsptf");
    const nlohmann::json h = bricks_run(eight + " --set bricks.distribution=hashing", dir, "hashing");
    ASSERT_FALSE(d.is_null());
    ASSERT_FALSE(h.is_null());
    const double dsptf = d["throughput_iops"], hashing = h["throughput_iops"];
    EXPECT_GT(dsptf, 1.05 * hashing) << "D-SPTF " << dsptf << " IO/s, hashing " << hashing << " IO/s";
    // Every read queued at all 8 replicas: its forwards and claims make about 2N messages per
    // request; hashing needs far fewer.
    EXPECT_NEAR(d["network"]["messages_per_request"].get<double>(), 16.0, 1.0);
    EXPECT_LT(h["network"]["messages_per_request"].get<double>(), 10.0);
    // Hashing leaves disks idle while others have work queued; D-SPTF much less.
    EXPECT_LT(d["disk_idle_fraction_mean"].get<double>(), h["disk_idle_fraction_mean"].get<double>());
    // Little's law: 16 in flight = throughput x mean response time.
    EXPECT_NEAR(d["mean_response_ms"].get<double>(), d["littles_law_response_ms"].get<double>(),
                0.05 * d["littles_law_response_ms"].get<double>());
}

TEST(bricks, every_distribution_destages_its_writes_through_the_disk_queue) {
    // Lumb 4.1.2: a stored write is destaged "by placing a write request in the brick's disk
    // queue", where SPTF serves it with the reads. D-SPTF's queues always hold reads: destaging
    // only into an idle disk wrote none of its writes (0 of 53,944 in an 8-way run).
    scratch_dir dir;
    for (const std::string distribution : {"dsptf", "hashing"}) {
        const nlohmann::json b = bricks_run("--set bricks.distribution=" + distribution, dir, distribution);
        ASSERT_FALSE(b.is_null());
        const nlohmann::json &d = b["destages"];
        const double stored = d["writes_stored"], destaged = d["destaged"];
        ASSERT_GT(stored, 500.0) << distribution;
        EXPECT_GT(destaged, 0.5 * stored) << distribution;
        EXPECT_GT(d["disk_time_fraction"].get<double>(), 0.05) << distribution;
    }
}

TEST(bricks, keys_that_do_not_fit_are_errors_naming_the_key) {
    scratch_dir dir;
    const result r = raidtlm("run " + scenario + " --quiet --set bricks.count=7 --set bricks.replicas=2 --out '" +
                                 (dir / "out").string() + "'",
                             dir);
    EXPECT_NE(r.code, 0);
    EXPECT_NE(r.err.find("bricks.count"), std::string::npos) << r.err;
    const result w = raidtlm("run " + scenario + " --quiet --set bricks.distribution=weighted_hashing "
                                 "--set 'bricks.replica_weights=[1, 2, 3]' --out '" + (dir / "out2").string() + "'",
                             dir);
    EXPECT_NE(w.code, 0);
    EXPECT_NE(w.err.find("bricks.replica_weights"), std::string::npos) << w.err;
}
