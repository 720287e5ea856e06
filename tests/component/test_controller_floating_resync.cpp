// Floating data and parity (over RAID 5) after a power loss whose recovery meets a second fault:
// a MEDIUM ERROR on a member while the torn stripes are being resynchronised (the explorer's case
// wrong_data_floating_21_41: power loss, a media error 80 ms later, much later a disk loss).
// Beyond one check, so sectors may be lost, but never served wrong: after the recovery every
// stripe's parity agrees with its data where the units live (read raw), and with each member
// lost in turn every read returns the host's data or fails inside a range the firmware reported
// lost. Before (raid_parity_resync.cpp gave up on a stripe whose data read failed and recorded
// nothing) the torn parity stayed, and the rows it rebuilt were served as good data.
#include <cstdint>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>

#include "component_support.h"
#include "controller_bench.h"
#include "rebuild_load.h"
#include "controller/platform/controller_top.h"
#include "controller/families/floating/floating_firmware.h"
#include "controller/layouts/parity_stripe_layout.h"
#include "disks/disk_drive.h"

using namespace raidtlm;
using component_test::controller_bench;
using component_test::pause_ms;

namespace {

constexpr uint64_t unit = 4;           // sectors: the floating paper's 2 KB unit
constexpr uint64_t hot_sectors = 192;  // 16 stripes of 3 data units, all in cylinder 0
constexpr int clients = 32;

const disks::disk_spec &ibm0661() {
    static const disks::disk_spec ibm =
        disks::load_diskspec(std::string(RAIDTLM_SOURCE_DIR) + "/scenarios/disks/ibm0661.diskspecs");
    return ibm;
}

struct resync_with_media_error : component_test::read_pass {
    uint64_t reads_checked = 0, integrity_errors = 0;
    int inconsistent_rows = 0;
    nlohmann::json firmware;

    // The power fails after `load_ms` of writes of 1-24 sectors at any start in the hot region
    // (full-stripe, reconstruct and relocating small writes), and while it is off the drive of
    // `bad_disk` turns unreadable over every slot of cylinder 0.
    resync_with_media_error(double load_ms, int bad_disk) {
        controller::controller_config c;
        c.channels = 4;
        c.firmware.stripe_unit_sectors = unit;
        c.firmware.array = controller::array_kind::floating;
        controller_bench b(4, c, ibm0661());
        const auto *fw = b.ctl->firmware_as<controller::floating_firmware>();
        const auto &layout = dynamic_cast<const controller::parity_stripe_layout &>(*b.ctl->array_layout());
        const disks::disk_spec &spec = ibm0661();
        const int64_t cylinder_sectors = int64_t(b.drives[0]->capacity_blocks()) / spec.cylinders;
        bool stop = false, checked = false;
        component_test::run_to_end(b, [&] {
            component_test::host_writer<controller_bench> w{b, {}};
            w.write(0, uint32_t(hot_sectors));
            component_test::spawn_random_writers(b, clients, hot_sectors, stop);
            pause_ms(load_ms);
            b.ctl->power_fail();
            stop = true;  // the clients' requests in flight are gone with the power
            b.drives[size_t(bad_disk)]->inject_media_error(0, int32_t(cylinder_sectors));
            pause_ms(100);
            b.host.spawn([&] {
                b.ctl->power_restore_and_recover();
                // Every row's parity against its data, as the drives hold them (unreadable or not).
                for (int64_t s = 0; s < int64_t(hot_sectors / (3 * unit)); ++s) {
                    std::vector<uint64_t> x(unit, 0);
                    for (int j = 0; j <= layout.stripe_data_units(s); ++j) {
                        const controller::unit_place u =
                            j < layout.stripe_data_units(s) ? layout.data_unit(s, j) : layout.parity_unit(s);
                        const auto t = component_test::on_disk(
                            b, u.disk, fw->current_lbn(u.disk, uint64_t(u.drive_lbn), uint32_t(unit)), uint32_t(unit));
                        for (uint64_t r = 0; r < unit; ++r) x[r] ^= t[r];
                    }
                    for (uint64_t r = 0; r < unit; ++r) inconsistent_rows += x[r] != 0 ? 1 : 0;
                }
                read_pass::operator=(
                    component_test::read_with_members_failed(b, {-1, 0, 1, 2, 3}, hot_sectors, uint32_t(unit)));
                checked = true;
            });
            while (!checked) pause_ms(10);
        });
        reads_checked = b.ctl->integrity().reads_checked();
        integrity_errors = b.ctl->integrity().integrity_errors();
        b.ctl->report_firmware(firmware);
    }
};

void expect_nothing_wrong(double load_ms) {
    const resync_with_media_error r(load_ms, 2);
    EXPECT_GT(r.firmware.value("resynced_stripes", 0), 0) << "no torn stripe: the test shows nothing";
    EXPECT_GT(r.firmware.value("lost_sectors", 0), 0) << "no torn row on the unreadable drive: the test shows little";
    EXPECT_EQ(r.inconsistent_rows, 0);
    EXPECT_GT(r.reads_checked, r.reads * unit / 2);
    EXPECT_EQ(r.integrity_errors, 0u);
    for (uint64_t lbn : r.failed_lbns) {
        bool listed = false;
        for (const auto &range : r.firmware["lost_ranges"])
            listed |= range[0].get<uint64_t>() < lbn + unit && lbn < range[0].get<uint64_t>() + range[1].get<uint64_t>();
        EXPECT_TRUE(listed) << "read at " << lbn << " failed outside every lost range";
    }
    std::cerr << "power lost after " << load_ms << " ms: " << r.firmware.value("resynced_stripes", 0)
              << " stripes resynchronised, " << r.firmware.value("lost_sectors", 0) << " sectors lost, "
              << r.failed_reads << " of " << r.reads << " reads failed, " << r.integrity_errors << " wrong\n";
}

}  // namespace

// Before the fix: 40 wrong reads at 100 ms and 45 at 280 ms (5-45 at power losses from 100 to
// 500 ms, 0 at 150 and 200), nothing recorded lost; after: 0 wrong, 23-56 sectors lost.
TEST(floating_resync, a_media_error_during_the_power_loss_resync_loses_torn_rows_and_serves_nothing_wrong) {
    expect_nothing_wrong(100.0);
}

TEST(floating_resync, the_same_with_the_power_lost_later) { expect_nothing_wrong(280.0); }
