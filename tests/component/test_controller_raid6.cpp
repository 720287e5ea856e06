// Component benches for the RAID 6 firmware (raid6_firmware.h): every write path keeps P and Q
// of every row right (checked from the drives' raw contents with pq_parity), read-rotate-write
// too, Q is built by the XOR engine's GF mode, reads survive a lost disk and a MEDIUM ERROR
// (repaired from P or Q), and writes with a disk lost keep the array readable. Real Cheetah 9LP
// drives, 6 disks: 4 data units, P and Q per stripe.
#include <algorithm>
#include <cmath>
#include <iostream>
#include <map>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>

#include "component_support.h"
#include "controller_bench.h"
#include "check_array_bench.h"
#include "pq_rows.h"
#include "controller/platform/controller_top.h"
#include "controller/platform/firmware_families.h"
#include "controller/layouts/pq_parity.h"
#include "controller/families/raid6/raid6_firmware.h"
#include "controller/layouts/raid6_layout.h"

using namespace raidtlm;

namespace {

constexpr uint64_t unit = component_test::check_array_unit;
constexpr int array_disks = 6;

struct raid6_bench : component_test::check_array_bench {
    explicit raid6_bench(const controller::controller_config &config, uint64_t blocks = 0)
        : check_array_bench(array_disks, config, blocks) {}
};

controller::controller_config raid6_config(bool read_rotate_write = false) {
    return component_test::check_array_config(2, read_rotate_write);
}

using writer = component_test::host_writer<raid6_bench>;
using component_test::wait_until_optimal;
using component_test::wipe;
using component_test::write_every_path;

}  // namespace

TEST(controller_raid6, writes_of_every_path_read_back_and_keep_p_and_q) {
    raid6_bench b(raid6_config());
    component_test::every_path_reads_back_with_its_checks(b);
    const auto &sw = b.firmware().statistics().stripe_writes;
    EXPECT_GT(sw[size_t(controller::write_path::full_stripe)], 0u);
    EXPECT_GT(sw[size_t(controller::write_path::reconstruct_write)], 0u);
    EXPECT_GT(sw[size_t(controller::write_path::read_modify_write)], 0u);
    // Q on the engine's GF mode (a Q over data unit 0 alone, coefficient g^0 = 1, is an XOR).
    EXPECT_GE(b.ctl->xor_unit().statistics().gf_commands, 5u);
    EXPECT_EQ(b.ctl->xor_unit().statistics().gf_commands, b.firmware().raid6_stats().q_commands);
    EXPECT_EQ(b.ctl->outstanding(), 0);
}

TEST(controller_raid6, a_small_write_reads_and_writes_data_p_and_q) {
    raid6_bench b(raid6_config());
    run_clean(b, [&] {
        writer w{b, {}};
        w.write(3, 2);
    });
    uint64_t reads = 0, writes = 0;
    for (const auto &d : b.drives) {
        reads += d->statistics().reads;
        writes += d->statistics().writes;
    }
    EXPECT_EQ(reads, 3u);
    EXPECT_EQ(writes, 3u);
}

TEST(controller_raid6, read_rotate_write_keeps_p_and_q) {
    raid6_bench b(raid6_config(true));
    component_test::every_path_reads_back_with_its_checks(b);
    EXPECT_GT(b.firmware().kit().queues.statistics().read_rotate_writes, 0u);
}

namespace {

// Everything written, `lost` lost, everything read back, every path written again degraded.
void one_lost_disk(int lost) {
    raid6_bench b(raid6_config());
    run_clean(b, [&] {
        writer w{b, {}};
        w.write(0, 520);
        b.ctl->set_failed_disk(lost);
        w.check(0, 520);
        write_every_path(w);
        w.check(0, 520);
        for (int64_t s = 0; s < 8; ++s) EXPECT_EQ(b.bad_rows(s, lost, &w.expect), 0) << "stripe " << s;
    });
    EXPECT_GT(b.firmware().statistics().rebuilt_reads, 0u);
    EXPECT_GT(b.firmware().statistics().degraded_stripe_writes, 0u);
}

}  // namespace

TEST(controller_raid6, reads_and_writes_with_disk_0_lost_keep_the_array_readable) { one_lost_disk(0); }
TEST(controller_raid6, reads_and_writes_with_disk_4_lost_keep_the_array_readable) { one_lost_disk(4); }

TEST(controller_raid6, a_medium_error_is_repaired_from_the_stripe) {
    raid6_bench b(raid6_config());
    run_clean(b, [&] {
        writer w{b, {}};
        w.write(0, 256);
        const auto &l = b.layout();
        const controller::unit_place u = l.data_unit(1, 2);  // logical 64 + 32 ..
        b.drives[size_t(u.disk)]->inject_media_error(u.drive_lbn + 3, 4);
        w.check(96, 16);  // rebuilt and rewritten
        w.check(96, 16);  // read directly now
        // A write over a stripe whose read meets a MEDIUM ERROR repairs the rows too.
        const controller::unit_place v = l.parity_unit(2);
        b.drives[size_t(v.disk)]->inject_media_error(v.drive_lbn + 2, 2);  // the rows the write reads
        w.write(130, 2);
        w.check(128, 64);
        EXPECT_EQ(b.bad_rows(1), 0);
        EXPECT_EQ(b.bad_rows(2), 0);
    });
    EXPECT_EQ(b.firmware().statistics().media_repairs, 2u);
}

// controller.old_data cached (the parity logging paper's "data cache hit"): the data disks only
// write (their old tokens taken as cached), P and Q still read-rotate-write; both stay right.
TEST(controller_raid6, read_rotate_write_with_cached_old_data_keeps_p_and_q) {
    controller::controller_config c = raid6_config(true);
    c.firmware.old_data_cached = true;
    raid6_bench b(c);
    component_test::every_path_reads_back_with_its_checks(b);
    EXPECT_GT(b.firmware().kit().queues.statistics().read_rotate_writes, 0u);
}

namespace {

// Each rebuild's duration (ms) from the platform's member history, in the order they began.
std::vector<double> rebuild_durations(raid6_bench &b) {
    std::vector<double> out;
    std::map<int, double> started;
    for (const auto &ch : b.ctl->members().history()) {
        if (ch.state == controller::member_state::rebuilding) started[ch.disk] = ch.at_ms;
        if (ch.state == controller::member_state::optimal && started.count(ch.disk)) {
            out.push_back(ch.at_ms - started[ch.disk]);
            started.erase(ch.disk);
        }
    }
    return out;
}

}  // namespace

TEST(controller_raid6, two_lost_disks_reads_and_writes_of_every_path_survive) {
    raid6_bench b(raid6_config());
    run_clean(b, [&] {
        writer w{b, {}};
        w.write(0, 520);
        b.ctl->fail_member(1);
        w.check(0, 100);  // one lost
        b.ctl->fail_member(4);
        w.check(0, 520);  // two lost: every stripe misses two members
        write_every_path(w);
        w.check(0, 520);
    });
    EXPECT_GT(b.firmware().raid6_stats().two_lost_rebuilt_reads, 0u);
    EXPECT_GT(b.firmware().raid6_stats().two_lost_stripe_writes, 0u);
    EXPECT_GT(b.ctl->xor_unit().statistics().gf_commands, 0u);  // two-erasure recovery needs Q
    nlohmann::json out;
    b.firmware().report(out);
    EXPECT_EQ(out["lost_sectors"], 0);
}

TEST(controller_raid6, a_medium_error_with_two_disks_lost_is_reported_lost_not_served_wrong) {
    raid6_bench b(raid6_config());
    run_to_end(b, [&] {
        writer w{b, {}};
        w.write(0, 256);
        b.ctl->fail_member(2);
        b.ctl->fail_member(3);
        const controller::unit_place u = b.layout().data_unit(1, 0);  // a third member of stripe 1
        ASSERT_NE(u.disk, 2);
        ASSERT_NE(u.disk, 3);
        b.drives[size_t(u.disk)]->inject_media_error(u.drive_lbn, 4);
        std::vector<uint64_t> r(4);
        EXPECT_NE(b.host.send(true, 64, 4, r.data()), tlm::TLM_OK_RESPONSE);
    });
    EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
    nlohmann::json out;
    b.firmware().report(out);
    EXPECT_GT(out["lost_sectors"].get<int64_t>(), 0);
}

TEST(controller_raid6, two_members_rebuilt_onto_new_drives_under_foreground_writes) {
    const uint64_t blocks = 64 * unit + controller::superblock_end_reserve_sectors;  // 64 stripes, the superblock after
    raid6_bench b(raid6_config(), blocks);
    run_clean(b, [&] {
        writer w{b, {}};
        w.write(0, 1000);
        b.ctl->fail_member(2);
        b.ctl->fail_member(5);
        write_every_path(w);
        wipe(b, 2, blocks);
        ASSERT_TRUE(b.ctl->replace_member(2));  // rebuilt while disk 5 is still lost
        for (int k = 0; k < 20; ++k) w.write(uint64_t(k) * 47 % 900, 5);  // while it rebuilds
        wait_until_optimal(b, 2);
        wipe(b, 5, blocks);
        ASSERT_TRUE(b.ctl->replace_member(5));
        w.write(300, 64);
        wait_until_optimal(b, 5);
        w.check(0, 1024);
        for (int64_t s = 0; s < 64; ++s) EXPECT_EQ(b.bad_rows(s), 0) << "stripe " << s;
    });
    const std::vector<double> rebuilds = rebuild_durations(b);
    ASSERT_EQ(rebuilds.size(), 2u);
    for (double ms : rebuilds) EXPECT_GT(ms, 0.0);
    nlohmann::json out;
    b.firmware().report(out);
    EXPECT_EQ(out["lost_sectors"], 0);
}

namespace {

// Rebuild time of a 256-stripe array (64-sector units, as the default scenario) on idle drives:
// the members in `failed` lost, then those in `replaced` replaced at once; returns each
// rebuild's duration in ms (EXPERIMENTS.md 17 extrapolates them to whole drives).
std::vector<double> rebuild_ms(const std::vector<int> &failed, const std::vector<int> &replaced) {
    const uint64_t unit_64 = 64, stripes = 256;
    controller::controller_config c = raid6_config();
    c.firmware.stripe_unit_sectors = unit_64;
    c.firmware.rebuild.share = 1;  // flat out: the rebuild's own pace
    raid6_bench b(c, stripes * unit_64);
    run_clean(b, [&] {
        writer w{b, {}};
        for (uint64_t s = 0; s < stripes; s += 16) w.write(s * 4 * unit_64, 4 * unit_64);  // some data
        for (int d : failed) b.ctl->fail_member(d);
        for (int d : replaced) {
            wipe(b, d, stripes * unit_64);
            ASSERT_TRUE(b.ctl->replace_member(d));
        }
        for (int d : replaced) wait_until_optimal(b, d);
        w.check_all();
    });
    return rebuild_durations(b);
}

}  // namespace

TEST(controller_raid6, rebuild_time_of_one_member_with_one_or_two_lost) {
    const std::vector<double> one = rebuild_ms({1}, {1});
    ASSERT_EQ(one.size(), 1u);
    std::cout << "rebuild of 256 stripes, one member lost: " << one[0] << " ms\n";
    // With a second member lost it reads n survivors too (P and the data, or the data and Q),
    // through the GF mode: about as long.
    EXPECT_GT(one[0], 256 * 5.0);  // at least a revolution-scale access per stripe
    EXPECT_LT(one[0], 256 * 40.0);
}

TEST(controller_raid6, rebuild_time_of_one_member_while_another_stays_lost) {
    const std::vector<double> t = rebuild_ms({1, 4}, {1});
    ASSERT_EQ(t.size(), 1u);
    std::cout << "rebuild of 256 stripes, two members lost, one rebuilt: " << t[0] << " ms\n";
    EXPECT_GT(t[0], 256 * 5.0);
    EXPECT_LT(t[0], 256 * 40.0);
}

TEST(controller_raid6, rebuild_time_of_two_members_replaced_at_once) {
    const std::vector<double> t = rebuild_ms({1, 4}, {1, 4});
    ASSERT_EQ(t.size(), 2u);
    std::cout << "rebuild of 256 stripes, two members rebuilt at once: " << t[0] << " and " << t[1] << " ms\n";
    EXPECT_GT(t[0], 256 * 5.0);
    EXPECT_LT(std::max(t[0], t[1]), 256 * 80.0);
}

// The rebuild's cursor is checkpointed in NVRAM: after the power comes back it goes on from there.
TEST(controller_raid6, a_rebuild_stopped_by_a_power_loss_resumes_from_its_checkpoint_and_finishes) {
    const uint64_t blocks = 64 * unit + controller::superblock_end_reserve_sectors;  // the superblock after 64 stripes
    raid6_bench b(raid6_config(), blocks);
    int64_t cursor_at_loss = -1, cursor_after_restore = -1;
    run_clean(b, [&] {
        writer w{b, {}};
        w.write(0, 1000);
        b.ctl->fail_member(3);
        w.write(100, 300);
        wipe(b, 3, blocks);
        ASSERT_TRUE(b.ctl->replace_member(3));
        sc_core::wait(sc_core::sc_time(300, sc_core::SC_MS));  // part of the way
        b.ctl->power_fail();
        cursor_at_loss = int64_t(std::lround(b.ctl->members().progress(3) * 64));
        sc_core::wait(sc_core::sc_time(200, sc_core::SC_MS));
        b.ctl->power_restore_and_recover();
        cursor_after_restore = int64_t(std::lround(b.ctl->members().progress(3) * 64));
        wait_until_optimal(b, 3);
        w.check(0, 1024);
        for (int64_t s = 0; s < 64; ++s) EXPECT_EQ(b.bad_rows(s), 0) << "stripe " << s;
    });
    EXPECT_GT(cursor_at_loss, 0);
    EXPECT_LT(cursor_at_loss, 64);
    // At most the unit under way at the loss is done again.
    EXPECT_GE(cursor_after_restore, cursor_at_loss - 1);
    nlohmann::json fw;
    b.ctl->report_firmware(fw);
    EXPECT_EQ(fw["rebuild"]["resumed_from_checkpoint"], 1);
    ASSERT_EQ(rebuild_durations(b).size(), 1u);
    EXPECT_GT(rebuild_durations(b)[0], 500.0);
}
