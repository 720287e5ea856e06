// Loss per sector beyond the checks (issue 27: "a media error of 4 sectors beyond the checks
// loses 4 sectors, not whole units"). RAID 5: disk 1 lost (no replacement), disk 2 unable to read
// 4 sectors of its unit in a stripe: the rows disk 2 cannot give are lost on both units (where
// they hold data), nothing else; a degraded read and a degraded write of the stripe find it.
// RAID 6 the same with disks 1 and 3 lost.
#include <cstdint>
#include <set>
#include <vector>

#include <gtest/gtest.h>
#include <systemc>

#include "component_support.h"
#include "controller_bench.h"
#include "controller/platform/controller_top.h"
#include "controller/platform/firmware_families.h"
#include "disks/disk_drive.h"

using namespace raidtlm;
using component_test::controller_bench;
using component_test::host_writer;

namespace {

constexpr uint64_t unit_sectors = 16;
constexpr uint64_t member_blocks = 32 * unit_sectors + controller::superblock_end_reserve_sectors;
constexpr int64_t bad_row = 5, bad_sectors = 4;

struct loss_beyond_parity {
    int64_t expected_lost = 0, lost_sectors = -1;
    uint64_t lost_reads = 0, lost_reads_failed = 0, other_reads_failed = 0, integrity_errors = 0;

    // `write_first`: the stripe is first written degraded (disk 0's rows), else read. RAID 5 on 4
    // disks loses disk 1; RAID 6 on 6 disks loses disks 1 and 3 (disk 2's MEDIUM ERROR the third).
    explicit loss_beyond_parity(bool write_first, controller::array_kind kind = controller::array_kind::raid5) {
        const bool raid6 = kind == controller::array_kind::raid6;
        const int disks = raid6 ? 6 : 4;
        const std::vector<int> lost_disks = raid6 ? std::vector<int>{1, 3} : std::vector<int>{1};
        controller::controller_config config;
        config.channels = 2;
        config.firmware.stripe_unit_sectors = unit_sectors;
        config.firmware.array = kind;
        controller_bench b(disks, config, component_test::cheetah(), member_blocks);
        host_writer<controller_bench> w{b, {}};
        const uint64_t capacity = b.ctl->capacity_sectors();
        component_test::run_clean(b, [&] {
            for (uint64_t lbn = 0; lbn < capacity; lbn += unit_sectors) w.write(lbn, uint32_t(unit_sectors));
            const auto *l =
                dynamic_cast<const controller::parity_stripe_layout *>(b.ctl->running_firmware().array_layout());
            ASSERT_NE(l, nullptr);
            // A stripe whose units on disks 0, 2 and the lost ones all hold data.
            std::vector<int> data_disks = lost_disks;
            data_disks.push_back(0);
            data_disks.push_back(2);
            int64_t s = 0;
            auto all_data = [&](int64_t t) {
                for (int d : data_disks)
                    if (l->unit_on_disk(t, d) < 0) return false;
                return true;
            };
            while (!all_data(s)) ++s;
            const int64_t base = l->stripe_first_lbn(s);
            b.drives[2]->inject_media_error(s * int64_t(unit_sectors) + bad_row, bad_sectors);
            for (int d : lost_disks) b.ctl->fail_member(d);
            std::set<int64_t> lost;
            std::vector<int> losing = lost_disks;
            losing.push_back(2);
            for (int d : losing)
                for (int64_t k = 0; k < bad_sectors; ++k)
                    lost.insert(base + l->unit_on_disk(s, d) * int64_t(unit_sectors) + bad_row + k);
            expected_lost = int64_t(lost.size());
            const uint64_t unit1 = uint64_t(base + l->unit_on_disk(s, 1) * int64_t(unit_sectors));
            if (write_first) {
                // Disk 0's whole unit: the write reads disk 2's rows to rebuild disk 1's and fails
                // (nothing written: the stripe stays as it was).
                std::vector<uint64_t> t = component_test::tokens(999, uint32_t(unit_sectors));
                b.host.send(false, uint64_t(base + l->unit_on_disk(s, 0) * int64_t(unit_sectors)),
                            uint32_t(unit_sectors), t.data());
            } else {
                std::vector<uint64_t> t(unit_sectors);
                b.host.send(true, unit1, uint32_t(unit_sectors), t.data());  // fails: some rows are gone
            }
            nlohmann::json fw;
            b.ctl->report_firmware(fw);
            lost_sectors = fw.value("lost_sectors", int64_t(-1));
            // Every sector of the stripe alone: the lost ones fail, the others read back right.
            for (int64_t lbn = base; lbn < base + l->stripe_data_sectors_of(s); ++lbn) {
                std::vector<uint64_t> t(1);
                const bool ok = b.host.send(true, uint64_t(lbn), 1, t.data()) == tlm::TLM_OK_RESPONSE;
                if (lost.count(lbn)) {
                    ++lost_reads;
                    lost_reads_failed += ok ? 0 : 1;
                } else {
                    other_reads_failed += ok ? 0 : 1;
                }
            }
        });
        integrity_errors = b.ctl->integrity().integrity_errors();
    }
};

}  // namespace

// Before: the degraded read recorded its whole chunk of disk 1's unit lost (16 sectors, and none
// of disk 2's).
TEST(loss_per_sector, raid5_a_degraded_read_beyond_the_parity_loses_only_the_unreadable_rows) {
    const loss_beyond_parity r(false);
    EXPECT_EQ(r.expected_lost, 2 * bad_sectors);
    EXPECT_EQ(r.lost_sectors, r.expected_lost);
    EXPECT_EQ(r.lost_reads_failed, r.lost_reads);
    EXPECT_EQ(r.other_reads_failed, 0u);
    EXPECT_EQ(r.integrity_errors, 0u);
}

// Before: the degraded write recorded disk 1's whole unit lost (16 sectors).
TEST(loss_per_sector, raid5_a_degraded_write_beyond_the_parity_loses_only_the_unreadable_rows) {
    const loss_beyond_parity r(true);
    EXPECT_EQ(r.lost_sectors, r.expected_lost);
    EXPECT_EQ(r.lost_reads_failed, r.lost_reads);
    EXPECT_EQ(r.other_reads_failed, 0u);
    EXPECT_EQ(r.integrity_errors, 0u);
}

// RAID 6 with two members lost and a third's MEDIUM ERROR of 4 sectors: before, the write
// recorded every lost data member's whole unit (3 x 16 sectors) and the read its whole chunk.
TEST(loss_per_sector, raid6_a_degraded_read_beyond_the_checks_loses_only_the_unreadable_rows) {
    const loss_beyond_parity r(false, controller::array_kind::raid6);
    EXPECT_EQ(r.expected_lost, 3 * bad_sectors);
    EXPECT_EQ(r.lost_sectors, r.expected_lost);
    EXPECT_EQ(r.lost_reads_failed, r.lost_reads);
    EXPECT_EQ(r.other_reads_failed, 0u);
    EXPECT_EQ(r.integrity_errors, 0u);
}

TEST(loss_per_sector, raid6_a_degraded_write_beyond_the_checks_loses_only_the_unreadable_rows) {
    const loss_beyond_parity r(true, controller::array_kind::raid6);
    EXPECT_EQ(r.lost_sectors, r.expected_lost);
    EXPECT_EQ(r.lost_reads_failed, r.lost_reads);
    EXPECT_EQ(r.other_reads_failed, 0u);
    EXPECT_EQ(r.integrity_errors, 0u);
}
