// Component benches for the parity logging firmware (controller.layout parity_logging): small and
// large writes read back, log writes and reintegration keep the parity current, and after a data
// disk, a log disk or the controller's state is lost every acknowledged write is still readable
// (and the check does fail when the firmware skips applying the log). Real Cheetah 9LP drives;
// a 16-sector "track" and many regions keep each region's log and parity small.
#include <map>
#include <memory>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>

#include "component_support.h"
#include "controller_bench.h"
#include "controller/platform/controller_top.h"
#include "controller/platform/firmware_families.h"
#include "controller/layouts/parity_logging_layout.h"

using namespace raidtlm;

namespace {

controller::controller_config plog_config(bool preread = true) {
    controller::controller_config c;
    c.channels = 2;
    c.firmware.array = controller::array_kind::parity_logging;
    c.firmware.stripe_unit_sectors = 4;
    auto &p = c.firmware.parity_logging;
    p.track_sectors = 16;
    p.regions_per_disk = 20000;
    p.log_stripes = 2;
    p.log_to_parity = 0.06;  // tiny logs: S = 2 tracks per sublog, 64 record sectors per region
    p.log_write_tracks = 1;
    p.buffer_tracks = 64;
    p.preread = preread;
    c.nvram.capacity_bytes = 4 << 20;
    return c;
}

struct plog_bench : component_test::controller_bench {
    explicit plog_bench(const controller::controller_config &c) : controller_bench(6, c) {}
    const controller::parity_logging_layout &layout() const {
        return dynamic_cast<const controller::parity_logging_layout &>(*ctl->array_layout());
    }
    uint64_t raw(int d, int64_t lbn) {
        uint64_t t = 0;
        EXPECT_TRUE(ctl->raw_disk_io(true, d, uint64_t(lbn), 1, &t));
        return t;
    }
    // Data ^ the row's other data ^ parity, read raw: 0 when the parity is current.
    uint64_t row_xor(int64_t lbn) {
        const auto &l = layout();
        const auto d = l.data_location(lbn);
        const auto p = l.parity_of(lbn);
        uint64_t x = raw(d.disk, d.drive_lbn) ^ raw(p.disk, p.drive_lbn);
        for (const auto &e : l.row_partners(lbn)) x ^= raw(e.disk, e.drive_lbn);
        return x;
    }
};

using writer = component_test::host_writer<plog_bench>;

}  // namespace

TEST(controller_parity_logging, small_and_large_writes_read_back_and_reintegration_keeps_parity) {
    plog_bench b(plog_config());
    const auto &l = b.layout();
    ASSERT_EQ(l.sublog_tracks(), 2) << l.describe();
    run_to_end(b, [&] {
        writer w{b, {}};
        w.churn(0, 60);  // 180 update records: log of 64 sectors -> reintegrations
        const uint64_t stripe = uint64_t(l.stripe_data_sectors());
        w.write(5 * stripe, uint32_t(stripe));  // a large write: overwrite records
        w.churn(1, 10);
        w.write(5 * stripe + 1, 2);  // an update after the overwrite, same parity sectors
        w.check_all();
        // Everything reintegrated so far is on the disks' parity; force the rest through by
        // filling region 0 again: its parity then matches its data everywhere written.
        w.churn(0, 30);
        const auto &st = b.ctl->firmware_as<controller::parity_logging_firmware>()->statistics();
        EXPECT_GE(st.reintegrations, 3u);
        EXPECT_GT(st.log_writes, 5u);
        EXPECT_EQ(st.large_writes, 1u);
    });
    EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
    EXPECT_GT(b.ctl->integrity().reads_checked(), 150u);
    EXPECT_GT(b.ctl->nvram().statistics().writes, 50u);  // the records went through the NVRAM
    EXPECT_EQ(b.ctl->outstanding(), 0);
}

// The log writes carry the record images to the sublogs and reintegration applies what it reads
// back from there: the sublog sectors hold the images, and damaging them on the drive makes the
// reads that a lost disk's reconstruction depends on come back wrong (with the images taken from
// controller memory, as before, the damage had no effect).
// (One bench per process: SystemC elaborates once.)
static void expect_reintegration_from_the_sublogs(bool damage) {
    {
        plog_bench b(plog_config());
        const auto &l = b.layout();
        run_to_end(b, [&] {
            writer w{b, {}};
            w.churn(0, 15);  // 45 records: in the log, none reintegrated
            const auto &st = b.ctl->firmware_as<controller::parity_logging_firmware>()->statistics();
            ASSERT_EQ(st.reintegrations, 0u);
            ASSERT_GT(st.log_write_sectors, 16u);
            int nonzero = 0;
            for (int i = 0; i < l.log_stripes(); ++i) {
                const auto e = l.sublog_extent(0, i);
                for (int64_t k = 0; k < e.sectors; ++k) {
                    uint64_t t = b.raw(e.disk, e.drive_lbn + k);
                    if (t == 0) continue;
                    ++nonzero;
                    if (!damage) continue;
                    t ^= 0x5a5a5a5a5a5a5a5aull;
                    EXPECT_TRUE(b.ctl->raw_disk_io(false, e.disk, uint64_t(e.drive_lbn + k), 1, &t));
                }
            }
            EXPECT_GE(nonzero, 16) << "the log writes carried no record images";
            b.ctl->set_failed_disk(l.member_disk(0, 0));  // the log applied from the sublogs, then rebuilt reads
            if (damage) w.read_all();  // the scoreboard counts what comes back wrong
            else w.check_all();
            EXPECT_GT(st.rebuilt_reads, 5u);
        });
        if (damage) EXPECT_GT(b.ctl->integrity().integrity_errors(), 0u);
        else EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
    }
}

TEST(controller_parity_logging, reintegration_applies_the_records_read_back_from_the_sublogs) {
    expect_reintegration_from_the_sublogs(false);
}
TEST(controller_parity_logging, damaged_sublog_records_on_the_drive_make_reconstruction_wrong) {
    expect_reintegration_from_the_sublogs(true);
}

TEST(controller_parity_logging, a_lost_data_disk_is_rebuilt_after_the_log_is_applied) {
    plog_bench b(plog_config());
    const auto &l = b.layout();
    run_to_end(b, [&] {
        writer w{b, {}};
        w.churn(0, 50);  // some reintegrated, some in sublogs, some only in NVRAM buffers
        w.churn(1, 7);
        const int lost = l.member_disk(0, 0);
        ASSERT_GT(b.ctl->firmware_as<controller::parity_logging_firmware>()->statistics().reintegrations, 0u);
        b.ctl->set_failed_disk(lost);
        w.check_all();  // the first request applies every log, then reads rebuild the lost data
        EXPECT_GT(b.ctl->firmware_as<controller::parity_logging_firmware>()->statistics().rebuilt_reads, 10u);
        w.churn(0, 10);  // degraded writes update the parity directly
        w.check_all();
        EXPECT_GT(b.ctl->firmware_as<controller::parity_logging_firmware>()->statistics().degraded_writes, 5u);
    });
    EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
}

TEST(controller_parity_logging, the_scoreboard_catches_a_log_that_was_not_applied) {
    controller::controller_config c = plog_config();
    c.firmware.parity_logging.discard_log_on_failure = true;
    plog_bench b(c);
    const auto &l = b.layout();
    run_to_end(b, [&] {
        writer w{b, {}};
        w.churn(0, 50);
        b.ctl->set_failed_disk(l.member_disk(0, 0));
        w.read_all();
    });
    EXPECT_GT(b.ctl->integrity().integrity_errors(), 0u);  // the stale parity rebuilt wrong data
}

TEST(controller_parity_logging, a_lost_log_disk_gets_the_parity_rebuilt_from_data) {
    plog_bench b(plog_config(false));  // no preread: old data cached
    const auto &l = b.layout();
    run_to_end(b, [&] {
        writer w{b, {}};
        w.churn(0, 15);  // 45 records: in the log, none reintegrated
        EXPECT_EQ(b.ctl->firmware_as<controller::parity_logging_firmware>()->statistics().reintegrations, 0u);
        EXPECT_NE(b.row_xor(0), 0u);  // the parity on disk is stale until the log is applied
        b.ctl->set_failed_disk(l.log_disk(0, 0));
        w.check_all();
        EXPECT_EQ(b.ctl->firmware_as<controller::parity_logging_firmware>()->statistics().parity_rebuilds, 1u);
        for (const auto &[lbn, tok] : w.expect) EXPECT_EQ(b.row_xor(int64_t(lbn)), 0u) << "lbn " << lbn;
        // L = 2: region 0 goes on logging on its other sublog (half the log), and reintegrates.
        const auto before = b.ctl->firmware_as<controller::parity_logging_firmware>()->statistics();
        w.churn(0, 40);
        const auto &after = b.ctl->firmware_as<controller::parity_logging_firmware>()->statistics();
        EXPECT_EQ(after.degraded_writes, before.degraded_writes);
        EXPECT_EQ(after.update_records - before.update_records, 120u);
        EXPECT_GE(after.reintegrations - before.reintegrations, 3u);  // 120 records, 32 per log
        w.check_all();
    });
    EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
}

TEST(controller_parity_logging, lost_controller_state_rebuilds_parity_and_a_later_failure_loses_nothing) {
    plog_bench b(plog_config());
    const auto &l = b.layout();
    run_to_end(b, [&] {
        writer w{b, {}};
        w.churn(0, 40);
        w.churn(2, 12);
        ASSERT_TRUE(b.ctl->firmware_as<controller::parity_logging_firmware>()->lose_controller_state());
        for (const auto &[lbn, tok] : w.expect) EXPECT_EQ(b.row_xor(int64_t(lbn)), 0u) << "lbn " << lbn;
        b.ctl->set_failed_disk(l.member_disk(0, 1));
        w.check_all();
    });
    EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
    EXPECT_GT(b.ctl->firmware_as<controller::parity_logging_firmware>()->statistics().rebuilt_reads, 0u);
}

TEST(controller_parity_logging, overwrite_records_out_of_order_fall_back_to_serial_reintegration) {
    // Large writes (overwrite records) and small writes (updates) to the same stripes, spread over
    // both sublogs: the parallel reads would deliver later updates before earlier overwrites and
    // need more than the parity-sized reintegration buffer, so the firmware reads serially.
    plog_bench b(plog_config());
    const auto &l = b.layout();
    run_to_end(b, [&] {
        writer w{b, {}};
        const uint32_t stripe = uint32_t(l.stripe_data_sectors());
        for (int k = 0; k < 40; ++k) {
            const uint64_t s = uint64_t(k % 5) * stripe;
            w.write(s, stripe);                           // overwrite records
            w.write(s + uint64_t(k % 3), 2);              // updates after them
        }
        const auto &st = b.ctl->firmware_as<controller::parity_logging_firmware>()->statistics();
        EXPECT_GT(st.reintegrations, 2u);
        EXPECT_GT(st.serial_reintegrations, 0u);
        EXPECT_GT(st.overwrite_records, 100u);
        b.ctl->set_failed_disk(l.member_disk(0, 2));  // the rest of the log applied, then rebuilt reads
        w.check_all();
        EXPECT_GT(st.rebuilt_reads, 0u);
    });
    EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
}

TEST(controller_parity_logging, static_buffers_write_a_partial_track_rather_than_wait_forever) {
    // Static policy: each region owns K = 1 track buffer; 3-record batches do not divide the
    // 16-sector track, so a batch that straddles the boundary needs the partial track written.
    controller::controller_config c = plog_config();
    auto &p = c.firmware.parity_logging;
    p.policy = controller::buffer_policy::static_per_region;
    p.regions_per_disk = 2000;  // K x regions buffers must fit the NVRAM (16 MiB here)
    p.log_to_parity = 0.006;
    c.nvram.capacity_bytes = 20 << 20;
    plog_bench b(c);
    run_to_end(b, [&] {
        writer w{b, {}};
        w.churn(0, 40);
        const auto &st = b.ctl->firmware_as<controller::parity_logging_firmware>()->statistics();
        EXPECT_GT(st.partial_log_writes, 5u);
        EXPECT_GT(st.blocked_on_pool, 5u);
        EXPECT_LE(b.ctl->firmware_as<controller::parity_logging_firmware>()->peak_buffers_in_use(), 1);  // only region 0's own buffer
        w.check_all();
    });
    EXPECT_EQ(b.ctl->integrity().integrity_errors(), 0u);
}
