// System tests of the parity logging paper's Section 9 and Figure 27 configurations that the
// simulator runs (scripts/reproduce_parity_logging_failures, scripts/reproduce_airline): f+1-copy
// mirroring, and RAID 5 / P+Q / floating with the old data cached (controller.old_data: cached). Each
// runs with data tokens and reads, so the scoreboard checks every read against the last
// acknowledged write, and checks the mechanism in the drives' work.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "system_harness.h"

using namespace system_test;

namespace {

// A small IBM 0661 array (the paper's Figure 12 drive), 2 KB aligned random I/O with reads
// checked, on a hot spot so units are rewritten and read back often.
std::string scenario(int disks, const std::string &controller_lines, double read_fraction) {
    return "disks:\n  spec: " + (fs::path(source_dir) / "scenarios/disks/ibm0661.diskspecs").string() +
           "\n  count: " + std::to_string(disks) +
           "\n  spindle_sync: true\nhost:\n  stripe_unit_sectors: 4\ncontroller:\n  enabled: true\n" +
           controller_lines +
           "workload:\n  arrival: closed\n  outstanding: 12\n  think_time_ms: 0\n  read_fraction: " +
           std::to_string(read_fraction) +
           "\n  request_sectors: 4\n  alignment_sectors: 4\n  address: hot_cold\n"
           "  hot_space_fraction: 0.001\n  hot_access_fraction: 1\n"
           "  data_tokens: true\n  requests: 3000\n  warmup_requests: 0\n  seed: 3\n"
           "measurement:\n  ci_target: 0\noutput:\n  waves: false\n  timeline: false\n";
}

nlohmann::json run_scenario(const scratch_dir &dir, const std::string &name, const std::string &yaml) {
    const fs::path s = write_temp(dir, name + ".yaml", yaml);
    return run_json("'" + s.string() + "'", dir, name);
}

uint64_t drive_writes(const nlohmann::json &st) {
    uint64_t n = 0;
    for (const auto &d : st["disks"]) n += d["writes"].get<uint64_t>();
    return n;
}

}  // namespace

namespace {

// Floating data and check: `units` units floated (moved or rewritten in place) per small write's
// read-modify-write stripe. A stripe write is counted when it starts, its moves when it ends: at
// most the 12 outstanding requests' writes are still under way when the statistics are taken.
void expect_units_floated_per_write(const nlohmann::json &fw, int units) {
    const int rmw = fw["stripe_writes"]["read-modify-write"].get<int>();
    EXPECT_GT(rmw, 500);
    const int floated = fw["floating"]["moves"].get<int>() + fw["floating"]["in_place"].get<int>();
    EXPECT_LE(floated, units * rmw);
    EXPECT_GE(floated, units * (rmw - 12));
}

}  // namespace

TEST(multiple_failures, three_copy_mirroring_writes_three_copies_and_reads_back_every_write) {
    const scratch_dir dir;
    const nlohmann::json st = run_scenario(
        dir, "mirror3",
        scenario(9, "  layout: raid10\n  mirror_copies: 3\n  delayed_writes:\n    foreground_propagation: true\n", 0.5));
    ASSERT_FALSE(st.is_null());
    EXPECT_EQ(st["controller"]["integrity_errors"].get<int>(), 0);
    EXPECT_GT(st["controller"]["reads_checked"].get<int>(), 1000);
    // Every host write is a drive write on each of the three disks of its column.
    const double host_writes = st["requests"]["writes"].get<double>();
    ASSERT_GT(host_writes, 0);
    EXPECT_NEAR(double(drive_writes(st)) / host_writes, 3.0, 0.05);
}

TEST(multiple_failures, cached_old_data_skips_the_data_preread_and_keeps_parity_right) {
    const scratch_dir dir;
    const std::string raid5 = "  layout: raid5\n  rmw: read_rotate_write\n";
    const nlohmann::json blind = run_scenario(dir, "blind", scenario(6, raid5, 0.5));
    const nlohmann::json cached = run_scenario(dir, "cached", scenario(6, raid5 + "  old_data: cached\n", 0.5));
    const nlohmann::json floating =
        run_scenario(dir, "floating", scenario(6, "  layout: floating\n  old_data: cached\n", 0.5));
    // P+Q (Section 9's double-failure RAID 5) with cached old data: P and Q read-rotate-write.
    const nlohmann::json pq = run_scenario(
        dir, "pq", scenario(6, "  layout: raid6\n  rmw: read_rotate_write\n  old_data: cached\n", 0.5));
    ASSERT_FALSE(blind.is_null());
    ASSERT_FALSE(cached.is_null());
    ASSERT_FALSE(floating.is_null());
    ASSERT_FALSE(pq.is_null());
    for (const auto *st : {&blind, &cached, &floating, &pq}) {
        EXPECT_EQ((*st)["controller"]["integrity_errors"].get<int>(), 0);
        EXPECT_GT((*st)["controller"]["reads_checked"].get<int>(), 1000);
    }
    // The data disk's access loses its read and the revolution before the write: less disk time
    // per write (both runs have the same reads).
    auto busy_per_request = [](const nlohmann::json &st) {
        double busy = 0;
        for (const auto &d : st["disks"]) busy += d["utilisation"].get<double>();
        return busy * st["window"]["duration_ms"].get<double>() / st["requests"]["measured"].get<double>();
    };
    EXPECT_LT(busy_per_request(cached), 0.9 * busy_per_request(blind))
        << busy_per_request(cached) << " vs " << busy_per_request(blind) << " ms";
    EXPECT_LT(cached["response_time"]["mean_ms"].get<double>(), blind["response_time"]["mean_ms"].get<double>());
    // Floating with cached data moves only parity units.
    const auto &fl = floating["controller"]["firmware"]["floating"];
    EXPECT_GT(fl["moves"].get<int>(), 0);
}

// Floating data and check at f = 2 (controller.floating_checks 2: floating over P+Q, the
// Figure 30 row of scripts/reproduce_parity_logging_failures): every read checked, and every
// read-modify-write stripe floats three units blind (data, P, Q) and two cached (P, Q).
TEST(multiple_failures, floating_data_and_check_at_two_failures_floats_data_p_and_q) {
    const scratch_dir dir;
    const std::string floating_pq = "  layout: floating\n  floating_checks: 2\n";
    const nlohmann::json blind =
        run_scenario(dir, "blind", scenario(6, floating_pq + "  rrw_order: parity_after_data\n", 0.5));
    const nlohmann::json cached = run_scenario(dir, "cached", scenario(6, floating_pq + "  old_data: cached\n", 0.5));
    ASSERT_FALSE(blind.is_null());
    ASSERT_FALSE(cached.is_null());
    for (const auto &[st, units] : {std::pair{&blind, 3}, std::pair{&cached, 2}}) {
        EXPECT_EQ((*st)["controller"]["integrity_errors"].get<int>(), 0);
        EXPECT_GT((*st)["controller"]["reads_checked"].get<int>(), 1000);
        expect_units_floated_per_write((*st)["controller"]["firmware"], units);
        EXPECT_GT((*st)["controller"]["firmware"]["raid6"]["gf_commands"].get<int>(), 0);  // Q' on the engine's GF mode
    }
}

// Section 9 at f = 3, the Figure 30 rows: the triple-check array (controller.raid6_checks 3)
// blind and cached with read-rotate-write, and floating data and check over P, Q and R
// (floating_checks 3): every read checked; a blind floating small write floats four units (data,
// P, Q, R), a cached one three; the RAID 5-style write read-rotate-writes data and three checks.
TEST(multiple_failures, three_checks_raid_and_floating_read_back_every_write) {
    const scratch_dir dir;
    const std::string pqr = "  layout: raid6\n  raid6_checks: 3\n  rmw: read_rotate_write\n";
    const std::string floating_pqr = "  layout: floating\n  floating_checks: 3\n";
    const nlohmann::json blind = run_scenario(dir, "pqr", scenario(7, pqr + "  rrw_order: parity_after_data\n", 0.5));
    const nlohmann::json cached = run_scenario(dir, "pqr_cached", scenario(7, pqr + "  old_data: cached\n", 0.5));
    const nlohmann::json fblind =
        run_scenario(dir, "fpqr", scenario(7, floating_pqr + "  rrw_order: parity_after_data\n", 0.5));
    const nlohmann::json fcached = run_scenario(dir, "fpqr_cached", scenario(7, floating_pqr + "  old_data: cached\n", 0.5));
    for (const auto *st : {&blind, &cached, &fblind, &fcached}) {
        ASSERT_FALSE(st->is_null());
        EXPECT_EQ((*st)["controller"]["integrity_errors"].get<int>(), 0);
        EXPECT_GT((*st)["controller"]["reads_checked"].get<int>(), 1000);
        EXPECT_EQ((*st)["controller"]["firmware"]["raid6"]["checks"], 3);
        EXPECT_GT((*st)["controller"]["firmware"]["raid6"]["gf_commands"].get<int>(), 0);  // Q' and R'
    }
    // Read-rotate-writes per read-modify-write stripe: data + P + Q + R blind, the three checks cached.
    for (const auto &[st, per] : {std::pair{&blind, 4}, std::pair{&cached, 3}}) {
        const auto &fw = (*st)["controller"]["firmware"];
        const double rmw = fw["stripe_writes"]["read-modify-write"].get<double>();
        ASSERT_GT(rmw, 500);
        EXPECT_NEAR(fw["read_rotate_writes"].get<double>() / rmw, per, 0.05);
    }
    for (const auto &[st, units] : {std::pair{&fblind, 4}, std::pair{&fcached, 3}})
        expect_units_floated_per_write((*st)["controller"]["firmware"], units);
}
