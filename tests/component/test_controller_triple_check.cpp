// Component benches for the triple-check array (controller.layout: raid6, raid6_checks: 3; the
// RAID 6 firmware with P, Q and R = sum g^(2j) D_j, raid6_firmware.h): every write path keeps all
// three checks of every row right (checked from the drives' raw contents), read-rotate-write
// (blind and cached) too; with one, two and three disks lost every unit reads back (the
// scoreboard checks every read) and writes of every path keep the array readable; three lost
// members are rebuilt onto new drives under foreground writes; a power loss with one member lost
// resyncs the stripes the intent records name. Real Cheetah 9LP drives, 7 disks: 4 data units, P,
// Q and R per stripe (16-sector units: 64 data sectors per stripe, as the RAID 6 benches').
#include <map>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>

#include "component_support.h"
#include "controller_bench.h"
#include "check_array_bench.h"
#include "pq_rows.h"
#include "controller/platform/controller_top.h"
#include "controller/families/raid6/raid6_firmware.h"
#include "controller/layouts/raid6_layout.h"

using namespace raidtlm;

namespace {

constexpr uint64_t unit = component_test::check_array_unit;
constexpr int array_disks = 7;

struct triple_bench : component_test::check_array_bench {
    explicit triple_bench(const controller::controller_config &config, uint64_t blocks = 0)
        : check_array_bench(array_disks, config, blocks) {}
};

controller::controller_config triple_config(bool read_rotate_write = false) {
    return component_test::check_array_config(3, read_rotate_write);
}

using writer = component_test::host_writer<triple_bench>;
using component_test::wait_until_optimal;
using component_test::wipe;
using component_test::write_every_path;

}  // namespace

TEST(controller_triple_check, the_layout_rotates_p_q_and_r_and_the_firmware_sees_three_checks) {
    triple_bench b(triple_config());
    const auto &l = b.layout();
    EXPECT_EQ(l.check_units(), 3);
    EXPECT_EQ(l.stripe_data_units(0), 4);
    EXPECT_NE(l.describe().find("P+Q+R"), std::string::npos) << l.describe();
    nlohmann::json out;
    b.firmware().report(out);
    EXPECT_EQ(out["raid6"]["checks"], 3);
}

TEST(controller_triple_check, writes_of_every_path_read_back_and_keep_p_q_and_r) {
    triple_bench b(triple_config());
    component_test::every_path_reads_back_with_its_checks(b);
    const auto &sw = b.firmware().statistics().stripe_writes;
    EXPECT_GT(sw[size_t(controller::write_path::full_stripe)], 0u);
    EXPECT_GT(sw[size_t(controller::write_path::reconstruct_write)], 0u);
    EXPECT_GT(sw[size_t(controller::write_path::read_modify_write)], 0u);
    // Q and R on the engine's GF mode, counted alike.
    EXPECT_GE(b.ctl->xor_unit().statistics().gf_commands, 10u);
    EXPECT_EQ(b.ctl->xor_unit().statistics().gf_commands, b.firmware().raid6_stats().q_commands);
    EXPECT_EQ(b.ctl->outstanding(), 0);
}

// The parity logging paper's Section 9 RAID 5 at f = 3: a small write reads and writes its data
// unit and the three checks (4 + 4 commands, separate), or read-rotate-writes all four.
TEST(controller_triple_check, a_small_write_reads_and_writes_data_and_three_checks) {
    triple_bench b(triple_config());
    run_clean(b, [&] {
        writer w{b, {}};
        w.write(3, 2);
    });
    EXPECT_EQ(b.drive_count(true), 4u);
    EXPECT_EQ(b.drive_count(false), 4u);
}

TEST(controller_triple_check, a_small_write_as_read_rotate_write_is_four_commands) {
    triple_bench b(triple_config(true));
    uint64_t commands = 0;
    run_clean(b, [&] {
        writer w{b, {}};
        w.write(3, 2);
        for (const auto &d : b.drives) commands += d->statistics().requests;
        w.check(0, 64);
        EXPECT_EQ(b.bad_rows(0), 0);
    });
    EXPECT_EQ(commands, 4u);
    EXPECT_EQ(b.firmware().kit().queues.statistics().read_rotate_writes, 4u);
}

namespace {

void read_rotate_write_keeps_the_checks(bool cached) {
    controller::controller_config c = triple_config(true);
    c.firmware.old_data_cached = cached;
    c.firmware.rrw_parity_after_data = !cached;
    triple_bench b(c);
    component_test::every_path_reads_back_with_its_checks(b);
    EXPECT_GT(b.firmware().kit().queues.statistics().read_rotate_writes, 0u);
}

}  // namespace

TEST(controller_triple_check, blind_read_rotate_write_keeps_p_q_and_r) { read_rotate_write_keeps_the_checks(false); }
// controller.old_data cached: the data disks only write, P, Q and R read-rotate-write.
TEST(controller_triple_check, cached_read_rotate_write_keeps_p_q_and_r) { read_rotate_write_keeps_the_checks(true); }

namespace {

// Everything written, the disks `lost` lost one after the other (every unit read back after each),
// then every path written with all of them lost and everything read back again.
void lost_disks(const std::vector<int> &lost) {
    triple_bench b(triple_config());
    run_clean(b, [&] {
        writer w{b, {}};
        w.write(0, 520);
        for (int d : lost) {
            b.ctl->fail_member(d);
            w.check(0, 520);
        }
        write_every_path(w);
        w.check(0, 520);
        if (lost.size() == 1) {
            for (int64_t s = 0; s < 8; ++s) EXPECT_EQ(b.bad_rows(s, lost[0], &w.expect), 0) << "stripe " << s;
        }
    });
    EXPECT_GT(b.firmware().statistics().rebuilt_reads, 0u);
    EXPECT_GT(b.firmware().statistics().degraded_stripe_writes, 0u);
    const auto &st = b.firmware().raid6_stats();
    if (lost.size() == 3) {
        EXPECT_GT(st.three_lost_rebuilt_reads, 0u);
        EXPECT_GT(st.three_lost_stripe_writes, 0u);
    }
    nlohmann::json out;
    b.firmware().report(out);
    EXPECT_EQ(out["lost_sectors"], 0);
    EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
}

}  // namespace

TEST(controller_triple_check, one_lost_disk_reads_and_writes_of_every_path_survive) { lost_disks({2}); }
TEST(controller_triple_check, two_lost_disks_reads_and_writes_of_every_path_survive) { lost_disks({0, 4}); }
TEST(controller_triple_check, three_lost_disks_reads_and_writes_of_every_path_survive) { lost_disks({1, 3, 6}); }
TEST(controller_triple_check, three_adjacent_lost_disks_every_check_of_some_stripe_survive) {
    lost_disks({4, 5, 6});  // stripes whose P, Q and R are all lost, and stripes with three data units lost
}

TEST(controller_triple_check, a_medium_error_is_repaired_and_with_three_lost_a_fourth_fault_is_reported_lost) {
    triple_bench b(triple_config());
    run_to_end(b, [&] {
        writer w{b, {}};
        w.write(0, 256);
        const auto &l = b.layout();
        const controller::unit_place u = l.data_unit(1, 2);
        b.drives[size_t(u.disk)]->inject_media_error(u.drive_lbn + 3, 4);
        w.check(96, 16);  // rebuilt from P and rewritten
        w.check(96, 16);
        EXPECT_EQ(b.bad_rows(1), 0);
        // Three lost and a MEDIUM ERROR on a fourth member: reported lost, never served wrong.
        b.ctl->fail_member(2);
        b.ctl->fail_member(3);
        b.ctl->fail_member(5);
        const controller::unit_place v = l.data_unit(2, 0);  // logical 128 ..
        ASSERT_TRUE(v.disk != 2 && v.disk != 3 && v.disk != 5) << v.disk;
        b.drives[size_t(v.disk)]->inject_media_error(v.drive_lbn, 4);
        std::vector<uint64_t> r(4);
        EXPECT_NE(b.host.send(true, 128, 4, r.data()), tlm::TLM_OK_RESPONSE);
    });
    EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
    nlohmann::json out;
    b.firmware().report(out);
    EXPECT_GT(out["lost_sectors"].get<int64_t>(), 0);
    EXPECT_GE(b.firmware().statistics().media_repairs, 1u);
}

TEST(controller_triple_check, three_members_rebuilt_onto_new_drives_under_foreground_writes) {
    const uint64_t blocks = 64 * unit + controller::superblock_end_reserve_sectors;  // 64 stripes, the superblock after
    triple_bench b(triple_config(), blocks);
    run_clean(b, [&] {
        writer w{b, {}};
        w.write(0, 1000);
        for (int d : {1, 2, 6}) b.ctl->fail_member(d);
        write_every_path(w);
        wipe(b, 1, blocks);
        ASSERT_TRUE(b.ctl->replace_member(1));  // rebuilt while disks 2 and 6 are still lost
        for (int k = 0; k < 20; ++k) w.write(uint64_t(k) * 47 % 900, 5);
        wait_until_optimal(b, 1);
        w.check(0, 1024);
        wipe(b, 2, blocks);
        wipe(b, 6, blocks);
        ASSERT_TRUE(b.ctl->replace_member(2));  // two at once
        ASSERT_TRUE(b.ctl->replace_member(6));
        w.write(300, 64);
        wait_until_optimal(b, 2);
        wait_until_optimal(b, 6);
        w.check(0, 1024);
        for (int64_t s = 0; s < 64; ++s) EXPECT_EQ(b.bad_rows(s), 0) << "stripe " << s;
    });
    EXPECT_GT(b.firmware().raid6_stats().three_lost_rebuilt_reads + b.firmware().raid6_stats().three_lost_stripe_writes,
              0u);
    nlohmann::json out;
    b.firmware().report(out);
    EXPECT_EQ(out["lost_sectors"], 0);
}

// A stripe beyond its checks during a rebuild: R and D0 of stripe 2 lost, a MEDIUM ERROR on 4
// sectors of its D1, and P's disk replaced. P cannot be rebuilt on those 4 rows (four members
// unreadable); the unreadable data units' sectors there are reported lost, and no more, so a read of D0 fails instead of being rebuilt from
// the P the new drive holds (a fresh drive's: before the fix, wrong data, an integrity error). Every other
// stripe is rebuilt and reads back.
TEST(controller_triple_check, a_rebuild_step_beyond_the_checks_loses_the_data_not_serves_it_wrong) {
    const uint64_t blocks = 16 * unit + controller::superblock_end_reserve_sectors;  // the superblock after 16 stripes
    triple_bench b(triple_config(), blocks);
    bool read_failed = false, d1_read_failed = false;
    run_to_end(b, [&] {
        writer w{b, {}};
        // Unit by unit, each with its own seed: one write of the whole array would give every
        // row P = 0 (its four tokens' low halves cancel), which a P left as zeros matches.
        for (uint64_t u = 0; u < 64; ++u) w.write(u * unit, uint32_t(unit));
        const auto &l = b.layout();
        ASSERT_EQ(l.check_unit(2, 0).disk, 4);
        ASSERT_EQ(l.check_unit(2, 2).disk, 6);
        ASSERT_EQ(l.data_unit(2, 0).disk, 0);
        ASSERT_EQ(l.data_unit(2, 1).disk, 1);
        b.ctl->fail_member(6);
        b.ctl->fail_member(0);
        b.drives[1]->inject_media_error(l.data_unit(2, 1).drive_lbn + 3, 4);
        b.ctl->fail_member(4);
        b.drives[4]->replace_media();  // a fresh drive: nothing of the old contents
        ASSERT_TRUE(b.ctl->replace_member(4));
        wait_until_optimal(b, 4);
        std::vector<uint64_t> r(8);
        read_failed = b.host.send(true, 128, 8, r.data()) != tlm::TLM_OK_RESPONSE;  // stripe 2's D0
        // Only the rows of the MEDIUM ERROR are beyond the checks: D0's and D1's other rows read.
        w.check(0, 128 + 3);
        w.check(128 + 7, 16 - 7 + 3);
        w.check(144 + 7, 256 - 144 - 7);
        w.check(256, 768);
        std::vector<uint64_t> d1(4);
        d1_read_failed = b.host.send(true, 144 + 3, 4, d1.data()) != tlm::TLM_OK_RESPONSE;
    });
    EXPECT_TRUE(read_failed);
    EXPECT_TRUE(d1_read_failed);
    EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
    nlohmann::json out;
    b.firmware().report(out);
    // Per sector: D0's and D1's 4 rows (before: the two whole units, 32 sectors).
    EXPECT_EQ(out["lost_sectors"].get<int64_t>(), 8);
    EXPECT_EQ(out["rebuild"]["units_lost"], 1);
}

TEST(controller_triple_check, a_fourth_member_cannot_start_a_rebuild_with_three_lost) {
    triple_bench b(triple_config(), 16 * unit);
    run_clean(b, [&] {
        for (int d : {0, 1, 2}) b.ctl->fail_member(d);
        b.ctl->fail_member(3);
        wipe(b, 3, 16 * unit);
        EXPECT_FALSE(b.ctl->replace_member(3));
    });
}

namespace {

// 16 clients of 1-sector writes and reads over the first 1024 sectors (16 stripes), until a
// power loss; `lost`: disks lost before. After the restore every sector of the region reads back
// what was acknowledged (or fails, if reported lost), and with nothing lost every row's checks
// agree with its data.
struct power_loss_run {
    uint64_t done = 0, failed = 0, reads = 0;
    size_t resynced = 0;
    uint64_t agreed = 0, lost_sectors = 0, integrity_errors = 0;
    int bad = 0;
};

power_loss_run power_loss_under_small_writes(const std::vector<int> &lost) {
    controller::controller_config c = triple_config();
    c.firmware.stripe_unit_sectors = 8;
    c.firmware.tags_per_disk = 1;  // commands queue in the controller: more in flight at the loss
    component_test::controller_bench b(array_disks, c);
    for (int d : lost) b.ctl->fail_member(d);
    constexpr uint64_t hot = 512;  // 16 stripes of 4 data units of 8 sectors
    power_loss_run r;
    bool stop = false;
    for (int k = 0; k < 16; ++k)
        b.host.spawn([&, k] {
            uint64_t x = uint64_t(k) * 7919 + 17;
            for (uint64_t n = 0; !stop; ++n) {
                x = x * 6364136223846793005ull + 1442695040888963407ull;
                const bool write = (x >> 63) != 0;
                const uint64_t lbn = (x >> 20) % hot;
                std::vector<uint64_t> t = write ? component_test::tokens(uint64_t(k) << 32 | n, 1) : std::vector<uint64_t>(1);
                b.host.send(!write, lbn, 1, t.data());
                ++r.done;
            }
        });
    b.host.spawn([&] {
        sc_core::wait(sc_core::sc_time(150, sc_core::SC_MS));
        b.ctl->power_fail();
        stop = true;
        sc_core::wait(sc_core::sc_time(200, sc_core::SC_MS));
        r.resynced = b.ctl->power_restore_and_recover();
        sc_core::wait(sc_core::sc_time(100, sc_core::SC_MS));
        for (uint64_t lbn = 0; lbn < hot; ++lbn) {
            uint64_t t = 0;
            ++r.reads;
            if (b.host.send(true, lbn, 1, &t) != tlm::TLM_OK_RESPONSE) ++r.failed;
        }
        if (lost.empty()) {
            const auto &l = dynamic_cast<const controller::parity_stripe_layout &>(*b.ctl->array_layout());
            for (int64_t s = 0; s < 16; ++s)
                r.bad += component_test::pq_bad_rows(*b.ctl, l, s, 8, [](int, uint64_t lbn) { return lbn; });
        }
        sc_core::sc_stop();
    });
    sc_core::sc_start();
    nlohmann::json fw;
    b.ctl->report_firmware(fw);
    r.agreed = fw["raid6"].value("resyncs_checks_agreed", uint64_t(0));
    r.lost_sectors = fw.value("lost_sectors", uint64_t(0));
    r.integrity_errors = b.ctl->integrity().integrity_errors();
    return r;
}

}  // namespace

TEST(controller_triple_check, a_power_loss_during_small_writes_resyncs_p_q_and_r) {
    const power_loss_run r = power_loss_under_small_writes({});
    EXPECT_GT(r.done, 30u);
    EXPECT_GT(r.resynced, 0u) << "no write was in flight: the test shows nothing";
    EXPECT_EQ(r.bad, 0);
    EXPECT_EQ(r.failed, 0u);
    EXPECT_EQ(r.lost_sectors, 0u);
    EXPECT_EQ(r.integrity_errors, 0u);
}

// A data disk lost before the loss: each stripe an intent record names has its lost unit rebuilt
// from P, from Q and from R; when all agree nothing is lost, else the unit's sectors are reported
// lost (and reads of exactly them fail); nothing is served wrong.
TEST(controller_triple_check, a_power_loss_with_a_disk_lost_loses_only_stripes_whose_checks_disagree) {
    const power_loss_run r = power_loss_under_small_writes({0});
    EXPECT_GT(r.done, 30u);
    EXPECT_GT(r.agreed, 0u) << "no stripe with the lost unit had consistent checks: the test shows nothing";
    EXPECT_LT(r.lost_sectors, r.resynced * 8) << "every resynced stripe lost its unit";
    EXPECT_EQ(r.failed, r.lost_sectors);
    EXPECT_EQ(r.integrity_errors, 0u);
}
